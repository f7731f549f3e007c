import type { AlertSeverity } from '@vigil/contracts';
import { planAlertBatch } from './alert-batch';
import type { NewAlert } from './alert-sources';
import { type AlertRow, MAX_EVENT_IDS } from './alerts.repository';

const WINDOW = 10 * 60_000;
const NOW = new Date('2026-03-01T12:00:00.000Z');

function occurrence(key: string, at: string, over: Partial<NewAlert> = {}): NewAlert {
  return {
    dedup_key: key,
    type: 'anomaly_detection',
    severity: 'medium',
    title: `title ${key}`,
    description: 'description',
    database_id: 'db_a',
    policy_id: null,
    policy_name: null,
    event_ids: [`evt_${key}_${at}`],
    channels: [],
    occurred_at: at,
    context: { source: { database: 'db_a', db_type: null, host: null, port: null }, actor: { user: key, client_ip: null, application: null }, event: { query_type: null, object: null, rows_affected: null, duration_ms: null }, policy: { id: null, name: null }, query: null },
    raw_event: { at },
    ...over,
  };
}

function openRow(key: string, lastSeen: string, over: Partial<AlertRow> = {}): AlertRow {
  const base = occurrence(key, lastSeen);
  return {
    id: `alt_open_${key}`,
    dedup_key: key,
    type: base.type,
    severity: base.severity,
    status: 'open',
    title: base.title,
    description: base.description,
    database_id: base.database_id,
    policy_id: null,
    policy_name: null,
    event_ids: ['evt_old'],
    channels: ['pager'],
    occurrences: 3,
    context: base.context,
    raw_event: null,
    first_seen_at: new Date('2026-03-01T11:00:00.000Z'),
    last_seen_at: new Date(lastSeen),
    acknowledged_at: null,
    resolved_at: null,
    escalated_at: null,
    created_at: new Date('2026-03-01T11:00:00.000Z'),
    updated_at: new Date('2026-03-01T11:00:00.000Z'),
    ...over,
  };
}

function ids() {
  let n = 0;
  return () => `alt_new_${++n}`;
}

describe('planAlertBatch (a consumed batch decided as if its alerts came one by one)', () => {
  it('raises one alert per new key and folds later occurrences of a key raised earlier in the same batch', () => {
    const plan = planAlertBatch(new Map(), [
      occurrence('a', '2026-03-01T11:59:00.000Z'),
      occurrence('b', '2026-03-01T11:59:01.000Z'),
      occurrence('a', '2026-03-01T11:59:02.000Z', { channels: ['ops'] }),
    ], WINDOW, ids(), NOW);

    expect(plan.changes.map((c) => [c.type, c.row.id])).toEqual([['alert.created', 'alt_new_1'], ['alert.created', 'alt_new_2']]);
    expect(plan.updates).toEqual([]);
    expect(plan.inserts.map((i) => [i.row.id, i.row.occurrences, i.first_seen_at, i.last_seen_at])).toEqual([
      ['alt_new_1', 2, '2026-03-01T11:59:00.000Z', '2026-03-01T11:59:02.000Z'],
      ['alt_new_2', 1, '2026-03-01T11:59:01.000Z', '2026-03-01T11:59:01.000Z'],
    ]);
    expect(plan.inserts[0]!.row.event_ids).toEqual(['evt_a_2026-03-01T11:59:00.000Z', 'evt_a_2026-03-01T11:59:02.000Z']);
    expect(plan.inserts[0]!.row.channels).toEqual(['ops']);
    // The created change carries the alert as it was when raised, not its state at the end of the batch.
    expect(plan.changes[0]!.row.occurrences).toBe(1);
    expect(plan.changes[0]!.row.event_ids).toEqual(['evt_a_2026-03-01T11:59:00.000Z']);
  });

  it('folds into the open alert within the window and keeps its stored last occurrence when the new one is older', () => {
    const open = new Map([['a', openRow('a', '2026-03-01T11:58:00.000Z')]]);
    const plan = planAlertBatch(open, [occurrence('a', '2026-03-01T11:55:00.000Z'), occurrence('a', '2026-03-01T11:57:00.000Z', { channels: ['pager', 'ops'] })], WINDOW, ids(), NOW);

    expect(plan.inserts).toEqual([]);
    expect(plan.changes).toEqual([]);
    expect(plan.updates).toHaveLength(1);
    const update = plan.updates[0]!;
    expect(update).toMatchObject({ added: 2, last_seen_at: '2026-03-01T11:57:00.000Z', escalated: false });
    expect(update.row).toMatchObject({ id: 'alt_open_a', occurrences: 5, channels: ['pager', 'ops'], severity: 'medium' });
    expect(update.row.last_seen_at.toISOString()).toBe('2026-03-01T11:58:00.000Z');
    expect(update.row.event_ids).toEqual(['evt_old', 'evt_a_2026-03-01T11:55:00.000Z', 'evt_a_2026-03-01T11:57:00.000Z']);
  });

  it('raises a new alert when the open one was last seen before the window, and folds the rest of the batch into the new one', () => {
    const open = new Map([['a', openRow('a', '2026-03-01T11:40:00.000Z')]]);
    const plan = planAlertBatch(open, [occurrence('a', '2026-03-01T11:50:00.001Z'), occurrence('a', '2026-03-01T11:51:00.000Z')], WINDOW, ids(), NOW);

    expect(plan.updates).toEqual([]);
    expect(plan.inserts.map((i) => [i.row.id, i.row.occurrences])).toEqual([['alt_new_1', 2]]);
    expect(plan.changes.map((c) => c.type)).toEqual(['alert.created']);
  });

  it('folds an occurrence exactly at the edge of the window (last seen = occurrence - window)', () => {
    const open = new Map([['a', openRow('a', '2026-03-01T11:40:00.000Z')]]);
    const plan = planAlertBatch(open, [occurrence('a', '2026-03-01T11:50:00.000Z')], WINDOW, ids(), NOW);
    expect(plan.inserts).toEqual([]);
    expect(plan.updates.map((u) => u.row.occurrences)).toEqual([4]);
  });

  it('with a window of 0 folds only occurrences that are not later than the last one', () => {
    const open = new Map([['a', openRow('a', '2026-03-01T11:40:00.000Z')]]);
    const plan = planAlertBatch(open, [occurrence('a', '2026-03-01T11:40:00.000Z'), occurrence('a', '2026-03-01T11:40:00.001Z')], 0, ids(), NOW);
    expect(plan.updates.map((u) => u.added)).toEqual([1]);
    expect(plan.inserts.map((i) => i.row.id)).toEqual(['alt_new_1']);
  });

  it('escalates on each worse occurrence, announcing the previous severity, and never lowers the severity', () => {
    const open = new Map([['a', openRow('a', '2026-03-01T11:58:00.000Z', { severity: 'low' })]]);
    const plan = planAlertBatch(open, [
      occurrence('a', '2026-03-01T11:58:10.000Z', { severity: 'high' }),
      occurrence('a', '2026-03-01T11:58:20.000Z', { severity: 'medium' }),
      occurrence('a', '2026-03-01T11:58:30.000Z', { severity: 'critical' }),
      occurrence('b', '2026-03-01T11:58:40.000Z', { severity: 'low' }),
      occurrence('b', '2026-03-01T11:58:50.000Z', { severity: 'high' }),
    ], WINDOW, ids(), NOW);

    expect(plan.changes.map((c) => [c.type, c.row.id, c.row.severity, c.previous_severity])).toEqual([
      ['alert.escalated', 'alt_open_a', 'high', 'low'],
      ['alert.escalated', 'alt_open_a', 'critical', 'high'],
      ['alert.created', 'alt_new_1', 'low', undefined],
      ['alert.escalated', 'alt_new_1', 'high', 'low'],
    ]);
    expect(plan.updates).toMatchObject([{ added: 3, escalated: true, row: { severity: 'critical' as AlertSeverity, occurrences: 6, escalated_at: NOW } }]);
    expect(plan.inserts).toMatchObject([{ escalated: true, row: { severity: 'high', occurrences: 2 } }]);
    // Each escalation is routed with the alert as it was then (the first one with 2 event ids, not 4).
    expect(plan.changes[0]!.row.event_ids).toHaveLength(2);
    expect(plan.changes[1]!.row.event_ids).toHaveLength(4);
  });

  it('keeps the newest event ids only', () => {
    const open = new Map([['a', openRow('a', '2026-03-01T11:58:00.000Z', { event_ids: Array.from({ length: MAX_EVENT_IDS }, (_, i) => `evt_${i}`) })]]);
    const plan = planAlertBatch(open, [occurrence('a', '2026-03-01T11:58:01.000Z', { event_ids: ['evt_new_1', 'evt_new_2'] })], WINDOW, ids(), NOW);
    const kept = plan.updates[0]!.row.event_ids;
    expect(kept).toHaveLength(MAX_EVENT_IDS);
    expect(kept[0]).toBe('evt_2');
    expect(kept.slice(-2)).toEqual(['evt_new_1', 'evt_new_2']);
  });
});
