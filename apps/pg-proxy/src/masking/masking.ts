import { createHash } from 'node:crypto';
import type { MaskingMethod } from '@vigil/policy-engine';
import type { ActiveMaskRule } from '../enforcement/enforcer';
import type { FieldDescription } from '../protocol/messages';

/** Types whose values are text in both formats (binary text is its UTF-8 bytes): masked in place. */
const TEXT_TYPES = new Set([25, 1043, 1042, 19, 705, 18]);

export interface ColumnMask {
  rule: ActiveMaskRule;
  /** Qualified column name, for the record. */
  column: string;
  /** Non-text types become NULL: a `***` where a client expects an integer or JSON breaks it. */
  textual: boolean;
}

/** Masks one value by the rule's method (docs/proxy.md#masking). */
export function maskValue(value: Buffer | null, method: MaskingMethod, showFirst: number, showLast: number, textual: boolean): Buffer | null {
  if (value === null || method === 'null' || !textual) return null;
  const text = value.toString('utf8');
  switch (method) {
    case 'redact':
      return Buffer.from('***');
    case 'hash':
      return Buffer.from(createHash('sha256').update(value).digest('hex'));
    case 'partial': {
      const chars = [...text];
      if (chars.length <= showFirst + showLast) return Buffer.from('*'.repeat(chars.length));
      return Buffer.from(chars.slice(0, showFirst).join('') + '*'.repeat(chars.length - showFirst - showLast) + (showLast ? chars.slice(-showLast).join('') : ''));
    }
  }
}

export interface TableNames {
  schema: string;
  table: string;
  columns: Map<number, string>;
}

/**
 * The masks of a result's columns, identified by source table OID and attribute number (what
 * RowDescription carries, whatever alias the query gave), or for computed columns (table OID 0)
 * by the protected columns the expression reads.
 */
export function planMasks(
  fields: FieldDescription[],
  rules: ActiveMaskRule[],
  tables: Map<number, TableNames | null>,
  computed: { rule: ActiveMaskRule; column: string } | undefined,
): (ColumnMask | undefined)[] | undefined {
  if (!rules.length) return undefined;
  let any = false;
  const plan = fields.map((field) => {
    const textual = TEXT_TYPES.has(field.typeOid);
    if (field.tableOid === 0 || field.column <= 0) {
      if (!computed) return undefined;
      any = true;
      return { rule: computed.rule, column: `${field.name} (computed from ${computed.column})`, textual };
    }
    const names = tables.get(field.tableOid);
    const column = names?.columns.get(field.column);
    if (!names || !column) return undefined;
    const table = names.table.toLowerCase();
    const col = column.toLowerCase();
    const rule = rules.find((r) => (r.table === '*' || r.table === table) && (r.column === '*' || r.column === col));
    if (!rule) return undefined;
    any = true;
    return { rule, column: `${names.table}.${column}`, textual };
  });
  return any ? plan : undefined;
}

/** For computed output expressions: the first rule protecting a column the expressions read. */
export function computedRule(rules: ActiveMaskRule[], computedRefs: string[], objects: string[]): { rule: ActiveMaskRule; column: string } | undefined {
  if (!computedRefs.length) return undefined;
  const tables = new Set(objects.map((o) => o.split('.').pop()!.toLowerCase()));
  for (const rule of rules) {
    if (rule.column === '*') {
      if (tables.has(rule.table)) return { rule, column: `${rule.table}.*` };
      continue;
    }
    if (computedRefs.includes(rule.column) && (rule.table === '*' || tables.has(rule.table))) return { rule, column: rule.column };
  }
  return undefined;
}

/** Rewrites the values of one DataRow; returns the masked count. */
export function maskRow(values: (Buffer | null)[], plan: (ColumnMask | undefined)[]): number {
  let masked = 0;
  for (let i = 0; i < values.length; i++) {
    const mask = plan[i];
    if (!mask || mask.rule.shadow) continue;
    values[i] = maskValue(values[i]!, mask.rule.method, mask.rule.showFirst, mask.rule.showLast, mask.textual);
    masked++;
  }
  return masked;
}
