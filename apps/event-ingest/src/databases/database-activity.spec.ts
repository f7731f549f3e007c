import type { AuditEvent } from '@vigil/contracts';
import { summariseActivity } from './database-monitor.service';

describe('database activity of an ingest batch', () => {
  it('sums per database: first and last event time, counts per severity, an agent-reported error', () => {
    const activity = summariseActivity([
      { type: 'database.query', severity: 'info', database_id: 'db_a', timestamp: '2025-01-01T10:00:00.000Z', details: {} },
      { type: 'security.threat_detected', severity: 'critical', database_id: 'db_a', timestamp: '2025-01-01T09:00:00.000Z', details: {} },
      { type: 'database.disconnect', severity: 'info', database_id: 'db_b', timestamp: '2025-01-01T11:00:00.000Z', details: { error: 'stream lost' } as AuditEvent['details'] },
      { type: 'database.disconnect', severity: 'info', database_id: 'db_a', timestamp: '2025-01-01T11:00:00.000Z', details: {} },
    ]);
    expect(activity).toEqual([
      { database_id: 'db_a', first: '2025-01-01T09:00:00.000Z', last: '2025-01-01T11:00:00.000Z', info: 2, warning: 0, critical: 1, error: null },
      { database_id: 'db_b', first: '2025-01-01T11:00:00.000Z', last: '2025-01-01T11:00:00.000Z', info: 1, warning: 0, critical: 0, error: 'stream lost' },
    ]);
  });
});
