import type { PolicyEnforcementMode, PolicyType } from '@vigil/contracts';
import { Document, isMap, isSeq, LineCounter, parseDocument, stringify, type Node } from 'yaml';
import { CliError, ExitCode } from '../errors.ts';

/**
 * A policy as the file states it, with every optional field filled with the default the API gives
 * it on create: the file is the whole truth about a policy, so leaving `enabled` out means
 * "disabled", exactly as it would on create.
 */
export interface PolicySpec {
  name: string;
  type: PolicyType;
  description: string;
  enabled: boolean;
  enforcement_mode: PolicyEnforcementMode;
  databases: string[];
  config: Record<string, unknown>;
}

export const POLICY_TYPES = ['access_control', 'data_protection', 'query_control', 'alerting'] as const satisfies readonly PolicyType[];
export const ENFORCEMENT_MODES = ['enforce', 'shadow'] as const satisfies readonly PolicyEnforcementMode[];
// The lists above are the API's, copied because the CLI loads no server code: these fail to
// type-check when the API gains a type or mode the CLI does not know.
const _allTypes: [Exclude<PolicyType, (typeof POLICY_TYPES)[number]>] extends [never] ? true : never = true;
const _allModes: [Exclude<PolicyEnforcementMode, (typeof ENFORCEMENT_MODES)[number]>] extends [never] ? true : never = true;
void _allTypes;
void _allModes;

/** The fields a policy may have in the file, in the order export writes them. */
export const POLICY_FIELDS = ['type', 'description', 'enabled', 'enforcement_mode', 'databases', 'config'] as const;
const DATABASE = /^(db_[A-Za-z0-9][A-Za-z0-9_.-]{0,127}|\*)$/;

export interface FileProblem {
  path: string;
  message: string;
  line?: number;
}

export class PolicyFileError extends CliError {
  readonly problems: FileProblem[];
  constructor(file: string, problems: FileProblem[]) {
    const lines = problems.map((p) => `  ${file}${p.line ? `:${p.line}` : ''}: ${p.path ? `${p.path}: ` : ''}${p.message}`);
    super(`${file} is not a valid policy file (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`, ExitCode.usage);
    this.problems = problems;
  }
}

/** Reads a policy file (YAML, or JSON which is read the same way) and checks every policy in it. */
export function parsePolicyFile(text: string, file: string): PolicySpec[] {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (document.errors.length) {
    throw new PolicyFileError(
      file,
      document.errors.map((e) => ({ path: '', message: e.message.split('\n')[0] ?? e.message, line: lineCounter.linePos(e.pos[0]).line })),
    );
  }
  const { policies, problems } = validatePolicyDocument(document.toJS({ maxAliasCount: 100 }));
  if (problems.length) {
    for (const problem of problems) problem.line = lineOf(document, lineCounter, problem.segments);
    throw new PolicyFileError(file, problems.map(({ segments: _segments, ...rest }) => rest));
  }
  return policies;
}

type Segment = string | number;
type LocatedProblem = FileProblem & { segments: Segment[] };

/**
 * The checks the API would make on the shape of each policy, made before any call so a bad file
 * changes nothing. (Whether a `config` suits its `type` is for the API to say: 422, exit code 3.)
 */
export function validatePolicyDocument(root: unknown): { policies: PolicySpec[]; problems: LocatedProblem[] } {
  const problems: LocatedProblem[] = [];
  const fail = (segments: Segment[], message: string) => problems.push({ path: pathOf(segments), message, segments });
  if (!isObject(root)) {
    fail([], 'the file must be a mapping with a `policies` key');
    return { policies: [], problems };
  }
  for (const key of Object.keys(root)) if (key !== 'policies') fail([key], 'unknown top-level key (only `policies` is allowed)');
  const list = root.policies;
  const entries: { segments: Segment[]; name: unknown; body: unknown }[] = [];
  if (Array.isArray(list)) {
    list.forEach((body, i) => entries.push({ segments: ['policies', i], name: isObject(body) ? body.name : undefined, body }));
  } else if (isObject(list)) {
    for (const [name, body] of Object.entries(list)) {
      if (isObject(body) && 'name' in body && body.name !== name) fail(['policies', name, 'name'], 'must be left out or equal the key');
      entries.push({ segments: ['policies', name], name, body });
    }
  } else if (list === undefined || list === null) {
    if (!('policies' in root)) fail(['policies'], 'is required (a list of policies, or a mapping of policy name to policy)');
  } else {
    fail(['policies'], 'must be a list of policies or a mapping of policy name to policy');
  }

  const policies: PolicySpec[] = [];
  const seen = new Map<string, string>();
  for (const { segments, name, body } of entries) {
    if (!isObject(body)) {
      fail(segments, 'must be a mapping of the policy fields');
      continue;
    }
    const before = problems.length;
    const at = (field: string) => [...segments, field];
    for (const key of Object.keys(body)) {
      if (key !== 'name' && !(POLICY_FIELDS as readonly string[]).includes(key)) fail(at(key), `unknown field (allowed: name, ${POLICY_FIELDS.join(', ')})`);
    }
    if (typeof name !== 'string' || name.length < 1 || name.length > 200) fail(at('name'), 'is required: a string of 1 to 200 characters');
    else if (seen.has(name)) fail(at('name'), `duplicates the policy at ${seen.get(name)}`);
    else seen.set(name, pathOf(segments));
    if (!(POLICY_TYPES as readonly unknown[]).includes(body.type)) fail(at('type'), `is required: one of ${POLICY_TYPES.join(', ')}`);
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 2000)) {
      fail(at('description'), 'must be a string of at most 2000 characters');
    }
    if (body.enabled !== undefined && typeof body.enabled !== 'boolean') fail(at('enabled'), 'must be true or false');
    if (body.enforcement_mode !== undefined && !(ENFORCEMENT_MODES as readonly unknown[]).includes(body.enforcement_mode)) {
      fail(at('enforcement_mode'), `must be one of ${ENFORCEMENT_MODES.join(', ')}`);
    }
    if (!Array.isArray(body.databases)) fail(at('databases'), 'is required: a list of database ids (db_...) or *');
    else {
      if (body.databases.length > 100) fail(at('databases'), 'may hold at most 100 databases');
      body.databases.forEach((d, i) => {
        if (typeof d !== 'string' || !DATABASE.test(d)) fail([...at('databases'), i], 'must be a database id (db_...) or *');
      });
    }
    if (!isObject(body.config)) fail(at('config'), 'is required: a mapping (its fields depend on type)');
    if (problems.length !== before) continue;
    policies.push({
      name: name as string,
      type: body.type as PolicyType,
      description: (body.description as string | undefined) ?? '',
      enabled: (body.enabled as boolean | undefined) ?? false,
      enforcement_mode: (body.enforcement_mode as PolicyEnforcementMode | undefined) ?? 'enforce',
      databases: body.databases as string[],
      config: body.config as Record<string, unknown>,
    });
  }
  return { policies, problems };
}

/** The file `policies export` writes: a mapping keyed by name, sorted, every field explicit. */
export function serializePolicies(specs: PolicySpec[], format: 'yaml' | 'json', header?: string): string {
  const policies: Record<string, Record<string, unknown>> = {};
  for (const spec of [...specs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    policies[spec.name] = Object.fromEntries(POLICY_FIELDS.map((field) => [field, spec[field]]));
  }
  if (format === 'json') return `${JSON.stringify({ policies }, null, 2)}\n`;
  if (!header) return stringify({ policies }, { lineWidth: 0 });
  const document = new Document({ policies });
  document.commentBefore = header
    .split('\n')
    .map((l) => ` ${l}`)
    .join('\n');
  return document.toString({ lineWidth: 0 });
}

/** `policies.orders-after-hours.config` or `policies[2].type`; odd names are quoted. */
export function pathOf(segments: Segment[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment)) path += path ? `.${segment}` : segment;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function lineOf(document: Document, lineCounter: LineCounter, segments: Segment[]): number | undefined {
  // The line where the field is written (its key), or of the deepest part of the path that exists:
  // a missing field is reported at the policy that lacks it.
  for (let depth = segments.length; depth >= 0; depth--) {
    const parent = (depth > 1 ? document.getIn(segments.slice(0, depth - 1), true) : document.contents) as Node | null | undefined;
    const segment = segments[depth - 1];
    let node: Node | undefined;
    if (depth === 0) node = parent ?? undefined;
    else if (isMap(parent)) node = parent.items.find((pair) => (pair.key as { value?: unknown } | null)?.value === segment)?.key as Node | undefined;
    else if (isSeq(parent) && typeof segment === 'number') node = parent.items[segment] as Node | undefined;
    const offset = node?.range?.[0];
    if (offset !== undefined) return lineCounter.linePos(offset).line;
  }
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
