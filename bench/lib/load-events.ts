import type { DataSource } from 'typeorm';

const DAY = 86_400_000;

/**
 * Loads `rows` synthetic events spread evenly over the `days` days before `now` straight into
 * event_ingest (server-side INSERT ... SELECT over generate_series, the cheapest way in: no client
 * round trip per row), beside ingest: daily partitions through the owner's function, the sequence
 * and relay positions, the hourly counts ingest keeps, the databases registry ingest fills (50
 * discovered databases with their counters), then VACUUM ANALYZE as autovacuum would have done.
 * 60 % database.query, the rest spread over the 12 catalog types; 50 databases, 1000 users.
 * The event log (integrity) does not hold these events: run the system with INTEGRITY_LOG=false.
 */
export async function loadSyntheticEvents(dataSource: DataSource, options: { rows: number; days: number; now?: number }): Promise<void> {
  const { rows, days } = options;
  const now = options.now ?? Date.now();
  for (let d = -days; d <= 1; d++) {
    const from = new Date(Math.floor((now + d * DAY) / DAY) * DAY);
    await dataSource.query(`SELECT event_ingest.create_event_partition($1::date)`, [from.toISOString().slice(0, 10)]);
  }
  const chunk = 25_000; // each statement stays well under the 30 s statement timeout
  for (let start = 1; start <= rows; start += chunk) {
    const end = Math.min(rows, start + chunk - 1);
    await dataSource.query(
      `INSERT INTO event_ingest.events (seq, id, type, severity, database_id, "timestamp", processed_at, user_name, source_ip, session_id,
         risk_score, details, operation)
       SELECT g, 'evt_' || lpad(g::text, 26, '0'), t.type, CASE WHEN g % 97 = 0 THEN 'critical' ELSE t.severity END, 'db_' || (g % 50),
         to_timestamp(($1::bigint - (g::bigint * $2::bigint / $3::bigint)) / 1000.0), now(), 'user_' || (g % 1000), '10.0.' || (g % 200) || '.' || (g % 250),
         'sess_' || (g % 20000), 10,
         jsonb_build_object('user', 'user_' || (g % 1000), 'source_ip', '10.0.' || (g % 200) || '.' || (g % 250), 'query', 'SELECT * FROM t WHERE id = ' || g),
         'SELECT'
       FROM generate_series($4::bigint, $5::bigint) g
       JOIN (VALUES (0, 'database.query', 'info'), (1, 'database.connection', 'info'), (2, 'database.disconnect', 'info'),
                    (3, 'security.threat_detected', 'critical'), (4, 'security.anomaly', 'warning'), (5, 'security.privilege_escalation', 'critical'),
                    (6, 'policy.violation', 'warning'), (7, 'policy.match', 'info'), (8, 'data.sensitive_access', 'warning'),
                    (9, 'data.export', 'warning'), (10, 'user.login_failed', 'warning'), (11, 'user.login_success', 'info'))
         AS t(k, type, severity) ON t.k = (CASE WHEN g % 10 < 6 THEN 0 ELSE g % 12 END)`,
      [now, days * DAY, rows, start, end],
    );
  }
  await dataSource.query(`UPDATE event_ingest.event_sequence SET last_seq = $1`, [rows]);
  await dataSource.query(`UPDATE event_ingest.event_relay SET published_seq = $1`, [rows]);
  // The hourly counts ingest keeps, filled as the migration does (a day per statement).
  for (let d = -days; d <= 1; d++) {
    const from = new Date(Math.floor((now + d * DAY) / DAY) * DAY);
    await dataSource.query(
      `INSERT INTO event_ingest.event_counts (hour, database_id, type, severity, events)
       SELECT date_trunc('hour', "timestamp", 'UTC'), database_id, type, severity, count(*) FROM event_ingest.events
       WHERE "timestamp" >= $1 AND "timestamp" < $2 GROUP BY 1, 2, 3, 4`,
      [from.toISOString(), new Date(from.getTime() + DAY).toISOString()],
    );
  }
  // The registry as ingest leaves it: every database seen, discovered, with its counters.
  await dataSource.query(
    `INSERT INTO event_ingest.databases (id, name, status, first_event_at, last_event_at, event_count, info_count, warning_count, critical_count,
                                         connection_status, connection_status_changed_at)
     SELECT database_id, database_id, 'discovered', min(hour), max(hour), sum(events),
            COALESCE(sum(events) FILTER (WHERE severity = 'info'), 0), COALESCE(sum(events) FILTER (WHERE severity = 'warning'), 0),
            COALESCE(sum(events) FILTER (WHERE severity = 'critical'), 0),
            'connected', now()
     FROM event_ingest.event_counts GROUP BY database_id ON CONFLICT DO NOTHING`,
  );
  // Steady state: autovacuum has long processed past days (visibility map set, so counts can
  // answer from the indexes). One partition per statement, within the statement timeout.
  for (const { name } of (await dataSource.query(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'event_ingest.events'::regclass`,
  )) as { name: string }[]) {
    await dataSource.query(`VACUUM (ANALYZE) event_ingest."${name}"`);
  }
  await dataSource.query(`ANALYZE event_ingest.events`);
}
