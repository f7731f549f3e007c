import { type AlertSeverity, AlertSeverityOrder } from '@vigil/contracts';
import type { NewAlert } from './alert-sources';
import { type AlertRow, MAX_EVENT_IDS } from './alerts.repository';

const rank = (severity: string) => AlertSeverityOrder.indexOf(severity as AlertSeverity);

/** An alert raised by the batch, in its state at the end of the batch. */
export interface AlertInsert {
  row: AlertRow;
  /** The first and the latest occurrence as received (event time, full precision). */
  first_seen_at: string;
  last_seen_at: string;
  escalated: boolean;
}

/** An alert that was open before the batch and took occurrences from it. */
export interface AlertUpdate {
  row: AlertRow;
  /** Occurrences folded in by the batch. */
  added: number;
  /** The latest folded occurrence as received; the stored last_seen_at stays if it is later. */
  last_seen_at: string;
  escalated: boolean;
}

/** A lifecycle change to announce and route, with the alert as it was at that point. */
export interface AlertChange {
  type: 'alert.created' | 'alert.escalated';
  row: AlertRow;
  previous_severity?: AlertSeverity;
}

export interface AlertBatchPlan {
  inserts: AlertInsert[];
  updates: AlertUpdate[];
  /** In the order the occurrences came. */
  changes: AlertChange[];
}

interface Working {
  row: AlertRow;
  isNew: boolean;
  lastSeenMs: number;
  firstSeen: string;
  /** The latest occurrence folded by the batch, as received ('' before the first). */
  lastSeen: string;
  added: number;
  escalated: boolean;
}

/**
 * Decides a consumed batch of alerts at once, exactly as raising them one after the other would:
 * an occurrence folds into the newest unresolved alert with its key when that alert was last seen
 * within `windowMs` before the occurrence (event time), otherwise it raises a new alert (which later
 * occurrences in the batch may fold into). A worse occurrence escalates. `open` holds the newest
 * unresolved alert per key before the batch, locked by the caller; nothing here touches the database.
 */
export function planAlertBatch(open: Map<string, AlertRow>, incoming: NewAlert[], windowMs: number, newAlertId: () => string, now: Date = new Date()): AlertBatchPlan {
  const current = new Map<string, Working>();
  for (const [key, row] of open) current.set(key, { row, isNew: false, lastSeenMs: row.last_seen_at.getTime(), firstSeen: '', lastSeen: '', added: 0, escalated: false });
  const touched: Working[] = [];
  const changes: AlertChange[] = [];
  const frozen = (row: AlertRow): AlertRow => ({ ...row, event_ids: [...row.event_ids], channels: [...row.channels] });

  for (const alert of incoming) {
    const at = Date.parse(alert.occurred_at);
    const existing = current.get(alert.dedup_key);
    if (!existing || existing.lastSeenMs < at - windowMs) {
      const row: AlertRow = {
        id: newAlertId(),
        dedup_key: alert.dedup_key,
        type: alert.type,
        severity: alert.severity,
        status: 'open',
        title: alert.title,
        description: alert.description,
        database_id: alert.database_id,
        policy_id: alert.policy_id,
        policy_name: alert.policy_name,
        event_ids: alert.event_ids.slice(-MAX_EVENT_IDS),
        channels: [...alert.channels],
        occurrences: 1,
        context: alert.context,
        raw_event: alert.raw_event ?? null,
        first_seen_at: new Date(at),
        last_seen_at: new Date(at),
        acknowledged_at: null,
        resolved_at: null,
        escalated_at: null,
        created_at: now,
        updated_at: now,
      };
      const working: Working = { row, isNew: true, lastSeenMs: at, firstSeen: alert.occurred_at, lastSeen: alert.occurred_at, added: 1, escalated: false };
      current.set(alert.dedup_key, working);
      touched.push(working);
      changes.push({ type: 'alert.created', row: frozen(row) });
      continue;
    }
    const { row } = existing;
    if (!existing.isNew && existing.added === 0) touched.push(existing);
    existing.added++;
    if (at > existing.lastSeenMs) {
      existing.lastSeenMs = at;
      row.last_seen_at = new Date(at);
    }
    if (!existing.lastSeen || at > Date.parse(existing.lastSeen)) existing.lastSeen = alert.occurred_at;
    row.occurrences++;
    row.event_ids = [...row.event_ids, ...alert.event_ids].slice(-MAX_EVENT_IDS);
    row.channels = [...new Set([...row.channels, ...alert.channels])];
    row.context = alert.context;
    row.raw_event = alert.raw_event ?? null;
    row.updated_at = now;
    if (rank(alert.severity) > rank(row.severity)) {
      const previous = row.severity as AlertSeverity;
      row.severity = alert.severity;
      row.escalated_at = now;
      existing.escalated = true;
      changes.push({ type: 'alert.escalated', row: frozen(row), previous_severity: previous });
    }
  }

  const inserts: AlertInsert[] = [];
  const updates: AlertUpdate[] = [];
  for (const w of touched) {
    if (w.isNew) inserts.push({ row: w.row, first_seen_at: w.firstSeen, last_seen_at: w.lastSeen, escalated: w.escalated });
    else updates.push({ row: w.row, added: w.added, last_seen_at: w.lastSeen, escalated: w.escalated });
  }
  return { inserts, updates, changes };
}
