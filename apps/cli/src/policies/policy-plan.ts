import { pathOf, POLICY_FIELDS, type PolicySpec } from './policy-file.ts';

export interface CurrentPolicy extends PolicySpec {
  id: string;
}

/** One changed value, at its path inside the policy (`enabled`, `config.rules[0].pattern`). */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export type PlanItem =
  | { action: 'create'; name: string; body: PolicySpec }
  | { action: 'update'; name: string; id: string; changes: FieldChange[]; body: Partial<PolicySpec> }
  | { action: 'delete'; name: string; id: string };

export interface Plan {
  /** Creates, then updates, then deletes, each by name. */
  items: PlanItem[];
  unchanged: string[];
  /** On the server, not in the file, and kept because `--prune` was not given. */
  unmanaged: string[];
}

/**
 * What it takes to make the server's policies match the file, matched by name. An update sends
 * only the top-level fields that differ (the API leaves omitted fields as they are); `databases`
 * compare as sets, since their order means nothing.
 */
export function planPolicies(desired: PolicySpec[], current: CurrentPolicy[], options: { prune: boolean }): Plan {
  const byName = new Map(current.map((p) => [p.name, p]));
  const wanted = new Set(desired.map((p) => p.name));
  const creates: PlanItem[] = [];
  const updates: PlanItem[] = [];
  const unchanged: string[] = [];
  for (const spec of sortByName(desired)) {
    const existing = byName.get(spec.name);
    if (!existing) {
      creates.push({ action: 'create', name: spec.name, body: spec });
      continue;
    }
    const changes: FieldChange[] = [];
    const body: Partial<PolicySpec> = {};
    for (const field of POLICY_FIELDS) {
      const from = existing[field];
      const to = spec[field];
      if (field === 'databases' ? sameSet(from as string[], to as string[]) : deepEqual(from, to)) continue;
      (body as Record<string, unknown>)[field] = to;
      changes.push(...diffValues(from, to, [field]));
    }
    if (changes.length) updates.push({ action: 'update', name: spec.name, id: existing.id, changes, body });
    else unchanged.push(spec.name);
  }
  const extra = sortByName(current.filter((p) => !wanted.has(p.name)));
  const deletes: PlanItem[] = options.prune ? extra.map((p) => ({ action: 'delete', name: p.name, id: p.id })) : [];
  return { items: [...creates, ...updates, ...deletes], unchanged, unmanaged: options.prune ? [] : extra.map((p) => p.name) };
}

/**
 * The leaves that differ between two JSON values. Mappings are compared key by key; lists of the
 * same length element by element; anything else (a list that grew or shrank, a type change) is
 * one change of the whole value.
 */
export function diffValues(from: unknown, to: unknown, segments: (string | number)[] = []): FieldChange[] {
  if (deepEqual(from, to)) return [];
  if (isObject(from) && isObject(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    return keys.flatMap((key) => diffValues(from[key], to[key], [...segments, key]));
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    return from.flatMap((item, i) => diffValues(item, to[i], [...segments, i]));
  }
  return [{ field: pathOf(segments), from, to }];
}

/** JSON equality: key order does not matter, list order does. `undefined` equals a missing key. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!deepEqual(a[key], b[key])) return false;
    return true;
  }
  return false;
}

/** The plan as a reader sees it: `+ create`, `~ update` with each changed field, `- delete`. */
export function describePlan(plan: Plan): string[] {
  const lines: string[] = [];
  for (const item of plan.items) {
    if (item.action === 'create') lines.push(`+ create ${item.name} (${item.body.type}${item.body.enabled ? ', enabled' : ''})`);
    else if (item.action === 'delete') lines.push(`- delete ${item.name} (${item.id})`);
    else {
      lines.push(`~ update ${item.name} (${item.id})`);
      for (const change of item.changes) lines.push(`    ${change.field}: ${show(change.from)} -> ${show(change.to)}`);
    }
  }
  for (const name of plan.unmanaged) lines.push(`  keep   ${name} (not in the file; --prune would delete it)`);
  return lines;
}

export function summarizePlan(plan: Plan): string {
  const count = (action: PlanItem['action']) => plan.items.filter((i) => i.action === action).length;
  if (!plan.items.length) return `No changes: ${plan.unchanged.length} polic${plan.unchanged.length === 1 ? 'y matches' : 'ies match'} the file.`;
  return `${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete, ${plan.unchanged.length} unchanged.`;
}

const show = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));
const sameSet = (a: string[], b: string[]) => deepEqual([...new Set(a)].sort(), [...new Set(b)].sort());
const sortByName = <T extends { name: string }>(items: T[]) => [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
