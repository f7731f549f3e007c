import { createHash } from 'node:crypto';
import type { MaskingMethod } from '@vigil/policy-engine';
import type { ActiveMaskRule } from '../enforcement/enforcer';
import type { FieldDescription } from '../protocol/messages';
import type { ProtectionView, Taint } from './protection';

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

/** A rule applied to a whole value whose parts are unknown: `partial` would show the end of a row or document, so it becomes `redact`. */
function wholeValue(rule: ActiveMaskRule): ActiveMaskRule {
  return rule.method === 'partial' ? { ...rule, method: 'redact' } : rule;
}

/**
 * The masks of a result's columns (docs/proxy.md#masking). A field naming a table column (source
 * table OID and attribute number in RowDescription, whatever alias the query gave) is masked when
 * a rule protects that column; a field of a view or materialized view that reads protected
 * columns, of a statistics catalog, or of a relation the catalog does not know, is masked whole.
 * Any other field (computed, whole rows, function results) is masked whole when the statement is
 * tainted (protection.ts), and passes only when it is proven clean.
 */
export function planMasks(fields: FieldDescription[], view: ProtectionView, taint: Taint | undefined): (ColumnMask | undefined)[] | undefined {
  let any = false;
  const plan = fields.map((field): ColumnMask | undefined => {
    const textual = TEXT_TYPES.has(field.typeOid);
    if (field.tableOid === 0 || field.column <= 0) {
      if (!taint) return undefined;
      any = true;
      return { rule: wholeValue(taint.rule), column: `${field.name} (computed; reads ${taint.reason})`, textual };
    }
    const relation = view.snapshot.relations.get(field.tableOid);
    if (!relation || view.unknown) {
      any = true;
      return { rule: wholeValue(view.fallback), column: `${field.name} (relation ${field.tableOid} unknown)`, textual };
    }
    const column = relation.columns.get(field.column) ?? String(field.column);
    const whole = view.wholeRelations.get(field.tableOid);
    if (whole) {
      any = true;
      return { rule: wholeValue(whole), column: `${relation.table}.${column}`, textual };
    }
    const rule = view.columns.get(field.tableOid)?.get(field.column);
    if (!rule) return undefined;
    any = true;
    return { rule, column: `${relation.table}.${column}`, textual };
  });
  return any ? plan : undefined;
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
