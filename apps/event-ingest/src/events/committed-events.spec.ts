import { CommittedEvents } from './committed-events';
import type { StoredEvent } from './events.repository';

function stored(seq: number): StoredEvent {
  return {
    id: `evt_${seq}`,
    type: 'database.query',
    severity: 'info',
    database_id: 'db_a',
    timestamp: '2026-11-21T10:00:00.000Z',
    processed_at: '2026-11-21T10:00:00.001Z',
    details: { user: 'u' },
    context: { policy_id: null, rule_id: null, risk_score: 10 },
    producer_id: null,
    seq: String(seq),
    operation: 'SELECT',
    correlation_id: seq % 2 ? 'corr' : null,
  };
}

describe('CommittedEvents (the relay read-back saving)', () => {
  it('hands out the consecutive run after the mark, in the published shape', () => {
    const window = new CommittedEvents({ EVENTS_RELAY_BATCH: 100 });
    window.add([stored(11), stored(12), stored(13)]);
    const run = window.take('10', 100);
    expect(run.map((r) => r.seq)).toEqual(['11', '12', '13']);
    // Exactly the fields the table read gives: no seq, operation or correlation id inside the event.
    expect(Object.keys(run[0]!.event).sort()).toEqual(['context', 'database_id', 'details', 'id', 'ingested_by', 'processed_at', 'producer_id', 'severity', 'timestamp', 'type']);
    expect(run[0]!.correlationId).toBe('corr');
    expect(window.take('10', 2).map((r) => r.seq)).toEqual(['11', '12']);
  });

  it('stops at the first sequence it does not hold (another replica stored it): the relay reads the table', () => {
    const window = new CommittedEvents({ EVENTS_RELAY_BATCH: 100 });
    window.add([stored(1), stored(2), stored(4), stored(5)]);
    expect(window.take('0', 100).map((r) => r.seq)).toEqual(['1', '2']);
    expect(window.take('2', 100)).toEqual([]);
    expect(window.take('3', 100).map((r) => r.seq)).toEqual(['4', '5']);
  });

  it('forgets what was published and stays within its capacity, oldest out first', () => {
    const window = new CommittedEvents({ EVENTS_RELAY_BATCH: 2 }); // capacity 10
    window.add(Array.from({ length: 8 }, (_, i) => stored(i + 1)));
    window.forget('5');
    expect(window.size).toBe(3);
    expect(window.take('5', 10).map((r) => r.seq)).toEqual(['6', '7', '8']);
    window.add(Array.from({ length: 12 }, (_, i) => stored(i + 9)));
    expect(window.size).toBe(10);
    expect(window.take('5', 10)).toEqual([]);
    expect(window.take('10', 100).map((r) => r.seq)).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
  });
});
