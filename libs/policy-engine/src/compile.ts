import { AuditEventTypes, createValidator, type FieldError } from '@vigil/contracts';
import { type Cidr, cidrContainsFast, ipv4Of, parseCidr, parseIp } from './cidr';
import { compilePattern, type CompiledPattern, foldForPrefilter, PatternError, patternMatches, type SharedLiteral, sharedLiteral } from './pattern';
import {
  type AccessControlConfig,
  type AlertingConfig,
  type DataProtectionConfig,
  EventFields,
  type FieldCondition,
  type PolicyAction,
  PolicyConfigSchemas,
  type PolicySeverity,
  type QueryControlConfig,
} from './schemas';
import { isDigitSafeLiteral } from './shape';
import { type CompiledTimeWindow, compileTimeWindow, describeLocal, inTimeWindow, isValidTimeZone, parseHhMm, Weekdays } from './time-window';
import type {
  AlertInstruction,
  EngineEvent,
  ExecutedAction,
  MaskingInstruction,
  MatchedCondition,
  PolicyDefinition,
  PolicyEvaluation,
  PolicyTypeName,
} from './types';

const validators = {
  access_control: createValidator(PolicyConfigSchemas.access_control),
  data_protection: createValidator(PolicyConfigSchemas.data_protection),
  query_control: createValidator(PolicyConfigSchemas.query_control),
  alerting: createValidator(PolicyConfigSchemas.alerting),
};

const SEVERITY_RANK: Record<PolicySeverity, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

export function maxSeverity(a: PolicySeverity, b: PolicySeverity): PolicySeverity {
  return SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a;
}

let lastStamp = 0;
let lastAddress: { text: string | undefined; ip: bigint | null; ip4: number | null } = { text: undefined, ip: null, ip4: null };

/**
 * The event as conditions see it, with the costly derived forms computed at most once per event
 * however many policies look at them. Each event gets a fresh stamp: shared per-event memos
 * (prefilter literals, query patterns, column references) compare it with theirs, so one view can
 * be reused for event after event (`reset`) without allocating.
 */
export class EventView {
  private foldedQuery: string | undefined;
  private ip: bigint | null | undefined;
  private ip4: number | null = null;
  private identifiers: Set<string> | undefined;
  /** Unique per event evaluated through this or any view. */
  stamp = 0;
  event!: EngineEvent;

  constructor(event: EngineEvent) {
    this.reset(event);
  }

  /** Makes the view show another event. */
  reset(event: EngineEvent): this {
    this.event = event;
    this.foldedQuery = undefined;
    this.ip = undefined;
    this.identifiers = undefined;
    this.stamp = ++lastStamp;
    return this;
  }

  get folded(): string {
    return (this.foldedQuery ??= foldForPrefilter(this.event.query ?? ''));
  }

  get address(): bigint | null {
    if (this.ip === undefined) {
      const text = this.event.source_ip;
      // Consecutive events mostly come from one address (a session's statements): parsed once.
      if (text !== lastAddress.text) {
        const ip = text ? (parseIp(text) ?? null) : null;
        lastAddress = { text, ip, ip4: ip === null ? null : ipv4Of(ip) };
      }
      this.ip = lastAddress.ip;
      this.ip4 = lastAddress.ip4;
    }
    return this.ip;
  }

  /** Whether the event has an address and it lies in the range. */
  addressIn(cidr: Cidr): boolean {
    const address = this.address;
    return address !== null && cidrContainsFast(cidr, address, this.ip4);
  }

  /** Whether the folded query contains the literal; asked once per event and literal. */
  contains(literal: SharedLiteral): boolean {
    if (literal.stamp !== this.stamp) {
      literal.stamp = this.stamp;
      literal.present = (literal.gate === undefined || this.contains(literal.gate)) && this.folded.includes(literal.text);
    }
    return literal.present;
  }

  /** `patternMatches` on the event's query, run once per event and distinct pattern. */
  queryMatches(pattern: CompiledPattern): boolean {
    if (pattern.stamp !== this.stamp) {
      pattern.stamp = this.stamp;
      pattern.hit = this.prefilterPasses(pattern) && pattern.regex.test(this.event.query ?? '');
    }
    return pattern.hit;
  }

  /**
   * Whether the pattern's prefilter refuses every text of this query's shape: each alternative
   * needs a literal whose shape-safe part the query lacks (shape.ts, 1). The engine then never
   * runs the pattern on any of them, whatever the pattern is.
   */
  refusedForShape(pattern: CompiledPattern): boolean {
    const alternatives = pattern.prefilter;
    if (!alternatives.length) return false;
    for (const all of alternatives) {
      let refused = false;
      for (const literal of all) {
        if (literal.shapeSafe && !this.contains(literal.shapeSafe)) {
          refused = true;
          break;
        }
      }
      if (!refused) return false;
    }
    return true;
  }

  private prefilterPasses(pattern: CompiledPattern): boolean {
    const alternatives = pattern.prefilter;
    if (!alternatives.length) return true;
    for (const all of alternatives) {
      let every = true;
      for (const literal of all) {
        if (!this.contains(literal)) {
          every = false;
          break;
        }
      }
      if (every) return true;
    }
    return false;
  }

  /** Whether the query references the column pattern; once per event and distinct pattern. */
  references(reference: ColumnReference): boolean {
    if (reference.stamp !== this.stamp) {
      reference.stamp = this.stamp;
      reference.hit = reference.test(this);
    }
    return reference.hit;
  }

  /** Lowercase identifiers of the query (`a`, `t.a`, `s.t.a`), quotes removed. */
  get queryIdentifiers(): Set<string> {
    if (!this.identifiers) {
      const ids = new Set<string>();
      const text = this.folded.replace(/"([^"]*)"/g, '$1').replace(/`([^`]*)`/g, '$1');
      for (const m of text.matchAll(/[a-z_][a-z0-9_$]*(?:\.[a-z_*][a-z0-9_$]*)*/g)) {
        const full = m[0];
        ids.add(full);
        const parts = full.split('.');
        for (let i = 1; i < parts.length; i++) ids.add(parts.slice(i).join('.'));
        for (const p of parts) ids.add(p);
      }
      this.identifiers = ids;
    }
    return this.identifiers;
  }
}

/** Sliding-window counters of alerting thresholds; one per engine, none in simulation. */
export interface ThresholdState {
  /** Records an event time for the key and returns how many lie within the window ending at it. */
  hit(key: string, at: number, windowMs: number): number;
  reset(key: string): void;
}

export interface CompiledPolicy {
  definition: PolicyDefinition;
  /** The evaluation, or null when the policy does not trigger for this event. */
  evaluate(view: EventView, thresholds: ThresholdState | null): PolicyEvaluation | null;
  /**
   * Whether `evaluate` gives an equal answer (and has no other effect) for every event that
   * differs from this one only in the query, by a query of the same shape (shape.ts). False
   * whenever unsure: time windows, thresholds, details, query fields of alerting policies, and
   * query patterns neither digit-blind nor refused by digit-safe prefilter literals.
   */
  shapeStable(view: EventView): boolean;
}

export type ConfigCheck = { ok: true; policy: CompiledPolicy } | { ok: false; errors: FieldError[] };

/**
 * Checks a configuration for its type (structure, then meaning: CIDR ranges, RE2 patterns, time
 * zones, weekdays) and compiles it. Everything that could fail at evaluation fails here instead.
 */
/**
 * Compiles a policy. `forSave`: also refuse what a stored policy may still hold but a new or
 * changed one may not (an application-only exemption); the engine compiles without it.
 */
export function compilePolicy(definition: PolicyDefinition, pathPrefix = 'config', options: { forSave?: boolean } = {}): ConfigCheck {
  const validator = validators[definition.type];
  if (!validator) return { ok: false, errors: [{ field: 'type', message: 'unknown policy type' }] };
  const shape = validator.validate(definition.config, pathPrefix);
  if (!shape.ok) return { ok: false, errors: shape.errors };
  const errors: FieldError[] = [];
  const issue = (path: string, message: string) => errors.push({ field: `${pathPrefix}.${path}`, message });
  if (options.forSave && hasUntrustedExemption(definition.config)) issue('exceptions.applications', UNTRUSTED_EXEMPTION_MESSAGE);
  let policy: CompiledPolicy | undefined;
  switch (definition.type) {
    case 'access_control':
      policy = compileAccessControl(definition, definition.config as AccessControlConfig, issue);
      break;
    case 'query_control':
      policy = compileQueryControl(definition, definition.config as QueryControlConfig, issue);
      break;
    case 'data_protection':
      policy = compileDataProtection(definition, definition.config as DataProtectionConfig, issue);
      break;
    case 'alerting':
      policy = compileAlerting(definition, definition.config as AlertingConfig, issue);
      break;
  }
  if (errors.length || !policy) return { ok: false, errors };
  return { ok: true, policy };
}

type Issue = (path: string, message: string) => void;

function base(definition: PolicyDefinition) {
  return { policy_id: definition.id, policy_name: definition.name, policy_type: definition.type as PolicyTypeName };
}

/** Outcome of executed actions: block wins over alert over log (decisions in docs/policies.md). */
function outcomeOf(actions: ExecutedAction[]): Pick<PolicyEvaluation, 'outcome' | 'action_taken'> {
  if (actions.some((a) => a.type === 'block')) return { outcome: 'violation', action_taken: 'blocked' };
  if (actions.some((a) => a.type === 'alert')) return { outcome: 'violation', action_taken: 'alerted' };
  if (actions.some((a) => a.type === 'mask')) return { outcome: 'match', action_taken: 'masked' };
  return { outcome: 'match', action_taken: 'logged' };
}

function toExecuted(action: PolicyAction, fallback: PolicySeverity): ExecutedAction {
  const out: ExecutedAction = { type: action.type };
  if (action.type !== 'log') out.severity = action.severity ?? fallback;
  if (action.channels?.length) out.channels = action.channels;
  return out;
}

function alertFrom(actions: ExecutedAction[], title: string, message?: string): AlertInstruction | undefined {
  const alerts = actions.filter((a) => a.type === 'alert');
  if (!alerts.length) return undefined;
  const severity = alerts.reduce<PolicySeverity>((s, a) => maxSeverity(s, a.severity ?? 'medium'), 'info');
  return { type: 'policy_violation', severity, title, message, channels: [...new Set(alerts.flatMap((a) => a.channels ?? []))] };
}

function compileCidrs(list: string[] | undefined, path: string, issue: Issue): Cidr[] {
  return (list ?? []).flatMap((text, i) => {
    const cidr = parseCidr(text);
    if (!cidr) issue(`${path}[${i}]`, `"${text}" is not an IPv4 or IPv6 CIDR range`);
    return cidr ? [cidr] : [];
  });
}

function checkTimeWindow(config: NonNullable<AccessControlConfig['conditions']['time_window']>, issue: Issue): CompiledTimeWindow | undefined {
  const path = 'conditions.time_window';
  let ok = true;
  for (const key of ['start', 'end'] as const) {
    if (parseHhMm(config[key]) === undefined) {
      issue(`${path}.${key}`, 'must be a time of day HH:MM (00:00 to 23:59)');
      ok = false;
    }
  }
  if (config.timezone !== undefined && !isValidTimeZone(config.timezone)) {
    issue(`${path}.timezone`, `"${config.timezone}" is not an IANA time zone name`);
    ok = false;
  }
  (config.days ?? []).forEach((day, i) => {
    if (!(Weekdays as readonly string[]).includes(day)) {
      issue(`${path}.days[${i}]`, `must be a lowercase weekday name (${Weekdays.join(', ')})`);
      ok = false;
    }
  });
  return ok ? compileTimeWindow(config) : undefined;
}

function compileAccessControl(definition: PolicyDefinition, config: AccessControlConfig, issue: Issue): CompiledPolicy | undefined {
  const { conditions } = config;
  const users = conditions.users?.length ? new Set(conditions.users) : undefined;
  const window = conditions.time_window ? checkTimeWindow(conditions.time_window, issue) : undefined;
  const cidrs = compileCidrs(conditions.allowed_ips, 'conditions.allowed_ips', issue);
  if (!conditions.time_window && !conditions.allowed_ips?.length) {
    issue('conditions', 'must restrict access by time_window, allowed_ips or both');
  }
  const severity = config.actions.reduce<PolicySeverity>((s, a) => maxSeverity(s, a.severity ?? 'high'), 'info');
  const actions = config.actions.map((a) => toExecuted(a, 'high'));
  const outcome = outcomeOf(actions);
  const alert = alertFrom(actions, `Access policy "${definition.name}" violated`);
  const ipText = conditions.allowed_ips?.join(', ') ?? '';
  return {
    definition,
    // The query plays no part; the time does, through a window.
    shapeStable: () => !window,
    evaluate(view) {
      const event = view.event;
      if (users && (!event.user || !users.has(event.user))) return null;
      const matched: MatchedCondition[] = [];
      if (window && !inTimeWindow(window, event.timestamp)) {
        matched.push({ type: 'time_window', reason: `${describeLocal(event.timestamp, window.timezone)} is outside ${window.describe}` });
      }
      if (cidrs.length) {
        const address = view.address;
        // An event without a readable address proves nothing either way: it does not violate.
        if (address !== null && !cidrs.some((c) => view.addressIn(c))) {
          matched.push({ type: 'ip_restriction', reason: `${event.source_ip} is not in the allowed ranges (${ipText})` });
        }
      }
      if (!matched.length) return null;
      if (users) matched.unshift({ type: 'user', reason: `user "${event.user}" is governed by this policy` });
      return { ...base(definition), ...outcome, severity, matched_conditions: matched, actions, ...(alert ? { alert } : {}) };
    },
  };
}

interface CompiledRule {
  name: string;
  pattern: CompiledPattern;
  action: ExecutedAction;
  severity: PolicySeverity;
  message?: string;
}

/** Why an application-only exemption is refused at save (and ignored by the engine). */
export const UNTRUSTED_EXEMPTION_MESSAGE =
  'an application exemption needs exceptions.users as well: application_name is chosen by the database client and cannot be trusted alone';

/**
 * True when a config's exceptions name applications but no user. Such an exemption is refused at
 * save and, in a policy stored before that rule, ignored at evaluation: anyone can set
 * application_name (PGAPPNAME) to the exempt value.
 */
export function hasUntrustedExemption(config: unknown): boolean {
  const exceptions = (config as { exceptions?: { users?: unknown; applications?: unknown } } | null)?.exceptions;
  const apps = Array.isArray(exceptions?.applications) ? exceptions.applications.length : 0;
  const users = Array.isArray(exceptions?.users) ? exceptions.users.length : 0;
  return apps > 0 && users === 0;
}

/**
 * Who is exempt. `users` alone: those users, whatever their application. `users` and
 * `applications`: one of those users AND one of those applications (the application narrows the
 * user exemption, it never widens it). `applications` alone: nobody (see hasUntrustedExemption).
 */
export function exemptionOf(exceptions: { users?: string[]; applications?: string[] } | undefined) {
  const users = new Set(exceptions?.users ?? []);
  const apps = new Set(exceptions?.applications ?? []);
  if (!users.size) return (_event: Pick<EngineEvent, 'user' | 'client_application'>) => false;
  if (!apps.size) return (event: Pick<EngineEvent, 'user' | 'client_application'>) => event.user !== undefined && users.has(event.user);
  return (event: Pick<EngineEvent, 'user' | 'client_application'>) =>
    event.user !== undefined && users.has(event.user) && event.client_application !== undefined && apps.has(event.client_application);
}

function exemptions(config: { exceptions?: { users?: string[]; applications?: string[] } }) {
  return exemptionOf(config.exceptions);
}

function checkUniqueNames(rules: { name: string }[], issue: Issue) {
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    if (seen.has(rule.name)) issue(`rules[${i}].name`, `duplicate rule name "${rule.name}"`);
    seen.add(rule.name);
  });
}

function compileQueryControl(definition: PolicyDefinition, config: QueryControlConfig, issue: Issue): CompiledPolicy | undefined {
  checkUniqueNames(config.rules, issue);
  const rules: CompiledRule[] = [];
  config.rules.forEach((rule, i) => {
    try {
      const severity = rule.severity ?? 'high';
      const action: ExecutedAction = { type: rule.action };
      if (rule.action !== 'log') action.severity = severity;
      if (rule.channels?.length) action.channels = rule.channels;
      rules.push({ name: rule.name, pattern: compilePattern(rule.pattern, rule.case_sensitive ?? false), action, severity, message: rule.message });
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      issue(`rules[${i}].pattern`, error.message);
    }
  });
  const exempt = exemptions(config);
  return {
    definition,
    shapeStable(view) {
      const event = view.event;
      if (!event.query || exempt(event)) return true;
      for (const rule of rules) if (!rule.pattern.digitBlind && !view.refusedForShape(rule.pattern)) return false;
      return true;
    },
    evaluate(view) {
      const event = view.event;
      if (!event.query || exempt(event)) return null;
      let hits: CompiledRule[] | undefined;
      for (const rule of rules) {
        if (view.queryMatches(rule.pattern)) (hits ??= []).push(rule);
      }
      if (!hits) return null;
      const actions = hits.map((r) => r.action);
      const severity = hits.reduce<PolicySeverity>((s, r) => maxSeverity(s, r.severity), 'info');
      const first = hits.find((r) => r.action.type === 'block') ?? hits.find((r) => r.action.type === 'alert') ?? hits[0]!;
      const message = first.message ?? `Query matched rule "${first.name}" of policy "${definition.name}"`;
      const alert = alertFrom(actions, `Query policy "${definition.name}" rule "${first.name}" matched`, message);
      return {
        ...base(definition),
        ...outcomeOf(actions),
        severity,
        matched_conditions: hits.map((r) => ({ type: 'query_pattern', reason: `rule "${r.name}": the query matches /${r.pattern.source}/` })),
        actions: dedupeActions(actions),
        rule_name: first.name,
        message,
        ...(alert ? { alert } : {}),
      };
    },
  };
}

function dedupeActions(actions: ExecutedAction[]): ExecutedAction[] {
  const byType = new Map<string, ExecutedAction>();
  for (const a of actions) {
    const seen = byType.get(a.type);
    if (!seen) byType.set(a.type, { ...a });
    else {
      if (a.severity) seen.severity = maxSeverity(seen.severity ?? 'info', a.severity);
      if (a.channels) seen.channels = [...new Set([...(seen.channels ?? []), ...a.channels])];
    }
  }
  return [...byType.values()];
}

const COLUMN_PATTERN = /^(\*|[A-Za-z_][A-Za-z0-9_$]*)(\.([A-Za-z_][A-Za-z0-9_$]*|\*))?$/;

/** Whether a query references a protected-column pattern; shared by equal patterns, memoized per event. */
export interface ColumnReference {
  test(view: EventView): boolean;
  stamp: number;
  hit: boolean;
}

const columnReferences = new Map<string, ColumnReference>();

/** `col`, `*.col`, `table.col`, `table.*`: when does a query reference it? (textual, not a SQL parser) */
function columnMatcher(pattern: string): ColumnReference {
  const lower = pattern.toLowerCase();
  let reference = columnReferences.get(lower);
  if (!reference) {
    if (columnReferences.size >= 10_000) columnReferences.clear();
    reference = { test: columnTest(lower), stamp: -1, hit: false };
    columnReferences.set(lower, reference);
  }
  return reference;
}

function columnTest(lower: string): (view: EventView) => boolean {
  const [first, second] = lower.split('.') as [string, string | undefined];
  // Substring checks first: most queries name none of the protected identifiers, and then the
  // identifier set of the query is never built.
  if (second === undefined || first === '*') {
    const column = second ?? first;
    const literal = sharedLiteral(column);
    return (view) => view.contains(literal) && view.queryIdentifiers.has(column);
  }
  const firstLiteral = sharedLiteral(first);
  if (second === '*') return (view) => view.contains(firstLiteral) && view.queryIdentifiers.has(first);
  const secondLiteral = sharedLiteral(second);
  return (view) => {
    if (!view.contains(secondLiteral) || !view.contains(firstLiteral)) return false;
    const ids = view.queryIdentifiers;
    return ids.has(`${first}.${second}`) || (ids.has(first) && ids.has(second));
  };
}

function compileDataProtection(definition: PolicyDefinition, config: DataProtectionConfig, issue: Issue): CompiledPolicy | undefined {
  checkUniqueNames(config.rules, issue);
  const rules = config.rules.map((rule, i) => {
    if (!rule.columns?.length && !rule.classifications?.length) issue(`rules[${i}]`, 'needs columns, classifications or both');
    (rule.columns ?? []).forEach((column, j) => {
      if (!COLUMN_PATTERN.test(column) || column === '*' || column === '*.*') {
        issue(`rules[${i}].columns[${j}]`, 'must be `column`, `table.column`, `*.column` or `table.*`');
      }
    });
    if (rule.method !== 'partial' && (rule.show_first !== undefined || rule.show_last !== undefined)) {
      issue(`rules[${i}].method`, 'show_first and show_last apply to the partial method only');
    }
    return {
      rule,
      columns: (rule.columns ?? []).map((c) => ({ text: c, reference: columnMatcher(c) })),
      classes: new Set((rule.classifications ?? []).map((c) => c.toLowerCase())),
    };
  });
  const exempt = exemptions(config);
  const extra = (config.actions ?? []).map((a) => toExecuted(a, 'medium'));
  const actions: ExecutedAction[] = [{ type: 'mask' }, ...extra];
  const outcome = outcomeOf(actions);
  const severity = extra.reduce<PolicySeverity>((s, a) => maxSeverity(s, a.severity ?? 'medium'), extra.length ? 'info' : 'low');
  const alert = alertFrom(actions, `Protected data accessed under policy "${definition.name}"`);
  // Always true for valid column patterns (identifiers): checked rather than assumed.
  const columnsDigitSafe = rules.every(({ columns }) => columns.every((c) => c.text.toLowerCase().split('.').every((part) => part === '*' || isDigitSafeLiteral(part))));
  return {
    definition,
    // Column references read digit-safe literals and the query's identifiers (shape.ts, 1 and 3);
    // classifications come from details.
    shapeStable: (view) => columnsDigitSafe && view.event.details === undefined,
    evaluate(view) {
      const event = view.event;
      if (exempt(event)) return null;
      const eventClasses = classificationsOf(event);
      const matched: MatchedCondition[] = [];
      let masking: MaskingInstruction[] | undefined;
      for (const { rule, columns, classes } of rules) {
        // Arrays only once something matched: most events reference no protected column.
        let hitColumns: string[] | undefined;
        if (event.query) {
          for (const column of columns) if (view.references(column.reference)) (hitColumns ??= []).push(column.text);
        }
        let hitClasses: string[] | undefined;
        for (const c of eventClasses) if (classes.has(c)) (hitClasses ??= []).push(c);
        if (!hitColumns && !hitClasses) continue;
        if (hitColumns) matched.push({ type: 'protected_column', reason: `rule "${rule.name}": the query references ${hitColumns.join(', ')}` });
        if (hitClasses) matched.push({ type: 'classification', reason: `rule "${rule.name}": the data is classified ${hitClasses.join(', ')}` });
        const instruction: MaskingInstruction = { rule: rule.name, method: rule.method, columns: hitColumns ?? [], classifications: hitClasses ?? [] };
        if (rule.method === 'partial') {
          instruction.show_first = rule.show_first ?? 0;
          instruction.show_last = rule.show_last ?? 4;
        }
        (masking ??= []).push(instruction);
      }
      if (!masking) return null;
      const who = event.user ? `user "${event.user}"` : 'an unknown user';
      return {
        ...base(definition),
        ...outcome,
        severity,
        matched_conditions: matched,
        actions,
        rule_name: masking[0]!.rule,
        message: `Protected data masked for ${who}`,
        masking,
        ...(alert ? { alert } : {}),
      };
    },
  };
}

const NO_CLASSES: readonly string[] = [];

function classificationsOf(event: EngineEvent): readonly string[] {
  const raw = event.details?.classifications ?? event.details?.classification;
  if (typeof raw === 'string') return [raw.toLowerCase()];
  if (Array.isArray(raw)) return raw.filter((c): c is string => typeof c === 'string').map((c) => c.toLowerCase());
  return NO_CLASSES;
}

function fieldValue(event: EngineEvent, field: string): unknown {
  if (field.startsWith('details.')) {
    let value: unknown = event.details;
    for (const key of field.slice(8).split('.')) {
      if (value === null || typeof value !== 'object') return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  }
  return (event as unknown as Record<string, unknown>)[field];
}

type FieldTest = (event: EngineEvent) => boolean;

function compileField(condition: FieldCondition, path: string, issue: Issue): FieldTest | undefined {
  const { field, operator, value } = condition;
  if (!field.startsWith('details.') && !(EventFields as readonly string[]).includes(field)) {
    issue(`${path}.field`, `must be one of ${EventFields.join(', ')} or details.<key>`);
    return undefined;
  }
  const get = (event: EngineEvent) => fieldValue(event, field);
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  switch (operator) {
    case 'exists':
      if (value !== undefined && typeof value !== 'boolean') issue(`${path}.value`, 'must be a boolean or omitted for exists');
      return (event) => (get(event) !== undefined && get(event) !== null) === (value ?? true);
    case 'equals':
    case 'not_equals': {
      if (!scalar(value)) {
        issue(`${path}.value`, 'must be a string, number or boolean');
        return undefined;
      }
      const equal = (event: EngineEvent) => get(event) === value;
      return operator === 'equals' ? equal : (event) => !equal(event);
    }
    case 'in': {
      if (!Array.isArray(value) || !value.every(scalar) || value.length > 1000) {
        issue(`${path}.value`, 'must be an array of at most 1000 strings, numbers or booleans');
        return undefined;
      }
      const set = new Set<unknown>(value);
      return (event) => set.has(get(event));
    }
    case 'contains': {
      if (typeof value !== 'string') {
        issue(`${path}.value`, 'must be a string');
        return undefined;
      }
      const needle = value.toLowerCase();
      return (event) => {
        const v = get(event);
        return typeof v === 'string' ? v.toLowerCase().includes(needle) : Array.isArray(v) && v.includes(value);
      };
    }
    case 'matches': {
      if (typeof value !== 'string') {
        issue(`${path}.value`, 'must be an RE2 regular expression');
        return undefined;
      }
      try {
        const pattern = compilePattern(value);
        return (event) => {
          const v = get(event);
          return typeof v === 'string' && patternMatches(pattern, v, foldForPrefilter(v));
        };
      } catch (error) {
        issue(`${path}.value`, (error as Error).message);
        return undefined;
      }
    }
    default: {
      if (typeof value !== 'number') {
        issue(`${path}.value`, 'must be a number');
        return undefined;
      }
      const cmp = { gt: (a: number) => a > value, gte: (a: number) => a >= value, lt: (a: number) => a < value, lte: (a: number) => a <= value }[operator];
      return (event) => {
        const v = get(event);
        return typeof v === 'number' && cmp(v);
      };
    }
  }
}

function typeMatcher(patterns: string[], issue: Issue): ((type: string) => boolean) | undefined {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  let all = false;
  patterns.forEach((p, i) => {
    if (p === '*') all = true;
    else if (p.endsWith('.*')) {
      const prefix = p.slice(0, -1);
      if (!AuditEventTypes.some((t) => t.startsWith(prefix))) issue(`conditions.event_types[${i}]`, `"${p}" matches no event type`);
      prefixes.push(prefix);
    } else if ((AuditEventTypes as readonly string[]).includes(p)) exact.add(p);
    else issue(`conditions.event_types[${i}]`, `"${p}" is not an event type of the events catalog`);
  });
  if (all || !patterns.length) return undefined;
  if (!prefixes.length) return (type) => exact.has(type);
  return (type) => {
    if (exact.has(type)) return true;
    for (const prefix of prefixes) if (type.startsWith(prefix)) return true;
    return false;
  };
}

function compileAlerting(definition: PolicyDefinition, config: AlertingConfig, issue: Issue): CompiledPolicy | undefined {
  const { conditions, alert } = config;
  const types = typeMatcher(conditions.event_types ?? [], issue);
  const severities = conditions.severities?.length ? new Set<string>(conditions.severities) : undefined;
  const users = conditions.users?.length ? new Set(conditions.users) : undefined;
  const fields = (conditions.fields ?? []).map((f, i) => ({ condition: f, test: compileField(f, `conditions.fields[${i}]`, issue) }));
  const threshold = conditions.threshold;
  const windowMs = threshold ? threshold.window_minutes * 60_000 : 0;
  const groupBy = threshold?.group_by ?? [];
  const instruction: AlertInstruction = {
    type: alert.type ?? (threshold ? 'threshold_breach' : 'policy_violation'),
    severity: alert.severity,
    title: alert.title ?? `Alerting policy "${definition.name}" triggered`,
    message: alert.message,
    channels: alert.channels ?? [],
  };
  const actions: ExecutedAction[] = [{ type: 'alert', severity: alert.severity, ...(alert.channels?.length ? { channels: alert.channels } : {}) }];
  const readsQuery = (conditions.fields ?? []).some((f) => f.field === 'query');
  return {
    definition,
    shapeStable(view) {
      if (types && !types(view.event.type)) return true;
      // A threshold counts events; details and the query may hold anything.
      return !threshold && !readsQuery && view.event.details === undefined;
    },
    evaluate(view, thresholds) {
      const event = view.event;
      // Every condition is checked before anything is built: most events fail the first one.
      if (types && !types(event.type)) return null;
      if (severities && (!event.severity || !severities.has(event.severity))) return null;
      if (users && (!event.user || !users.has(event.user))) return null;
      for (const { test } of fields) if (!test?.(event)) return null;
      const matched: MatchedCondition[] = [];
      if (types) matched.push({ type: 'event_type', reason: `event type ${event.type} is watched` });
      if (severities) matched.push({ type: 'severity', reason: `severity ${event.severity} is watched` });
      if (users) matched.push({ type: 'user', reason: `user "${event.user}" is watched` });
      for (const { condition } of fields) {
        matched.push({ type: 'field', reason: `${condition.field} ${condition.operator}${condition.value === undefined ? '' : ` ${JSON.stringify(condition.value)}`}` });
      }
      if (threshold) {
        const group = groupBy.map((g) => `${g}=${String(fieldValue(event, g) ?? '')}`).join(',');
        const key = `${definition.id}|${group}`;
        const count = thresholds ? thresholds.hit(key, event.timestamp, windowMs) : 1;
        if (count < threshold.count) return null;
        thresholds?.reset(key);
        const scope = group ? ` for ${group}` : '';
        matched.push({ type: 'threshold', reason: `${count} matching events${scope} within ${threshold.window_minutes} minutes (threshold ${threshold.count})` });
      }
      return {
        ...base(definition),
        outcome: 'violation',
        action_taken: 'alerted',
        severity: alert.severity,
        matched_conditions: matched,
        actions,
        message: alert.message ?? instruction.title,
        alert: instruction,
      };
    },
  };
}
