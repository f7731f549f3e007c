/**
 * Which indexes the webhook workers' claim uses (bench/webhooks, docs/webhooks.md#benchmark).
 *
 * A fresh database with the delivery schema; four queue shapes (a drain of due rows; a retry
 * backlog with a few rows due and live leases; an idle queue with everything due later; one hot
 * endpoint); for each, EXPLAIN ANALYZE of the exact claim statement DeliveriesRepository.claim
 * sends (captured from the repository, not copied), the indexes in its plan, and its execution
 * time with and without `webhook_deliveries_due_global` (dropped in a transaction that is rolled
 * back). FULL=1 prints the plans, SHOW_WITHOUT=1 the index lines of the plan without the index.
 *
 * Run: node -r @swc-node/register bench/webhooks/claim-plans.ts   (PostgreSQL on 127.0.0.1:5432)
 */
import 'reflect-metadata';
import { Client } from 'pg';
import { createServiceDataSource, runMigrations } from '../../libs/platform/database/src';
import { deliveryMigrations } from '../../apps/delivery/src/database/migrations';
import { DeliveriesRepository } from '../../apps/delivery/src/deliveries/deliveries.repository';
import { createTestDatabase } from '../../libs/platform/testing/src';

async function capture(): Promise<{ sql: string; params: unknown[] }> {
  let got: { sql: string; params: unknown[] } | undefined;
  const manager = { query: async (sql: string, params: unknown[]) => { got = { sql, params }; return []; } };
  const repo = new DeliveriesRepository({ manager } as never);
  await repo.claim('owner-x', 256, 64, 60_000);
  return got!;
}

async function main() {
  const db = await createTestDatabase();
  const ds = createServiceDataSource({ url: db.url, schema: 'delivery', migrations: deliveryMigrations, poolSize: 2, applicationName: 'explain' });
  await ds.initialize();
  await runMigrations(ds, 'delivery');
  await ds.destroy();
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  const { sql, params } = await capture();
  const scenarios: { name: string; setup: string[] }[] = [
    {
      name: 'A: drain, 100 endpoints x 100 due now, 50k succeeded',
      setup: [
        `INSERT INTO delivery.webhooks (id, url, events, form, secret_sealed, secret_key_id) SELECT 'wh_' || lpad(i::text, 5, '0'), 'http://x/' || i, '{database.query}', 'B', 's', 'k' FROM generate_series(1, 1000) i`,
        `INSERT INTO delivery.webhook_events (id, type, body_a, body_b) SELECT 'evt_' || i, 'database.query', '{}', '{}' FROM generate_series(1, 2000) i`,
        `INSERT INTO delivery.webhook_deliveries (id, webhook_id, event_id, event_type, status, due_at) SELECT 'whd_s' || i, 'wh_' || lpad((1 + i % 1000)::text, 5, '0'), 'evt_' || (1 + i / 1000), 'database.query', 'succeeded', NULL FROM generate_series(0, 49999) i`,
        `INSERT INTO delivery.webhook_deliveries (id, webhook_id, event_id, event_type, status, due_at) SELECT 'whd_a' || i, 'wh_' || lpad((1 + i % 100)::text, 5, '0'), 'evt_' || (1001 + i / 100), 'database.query', 'pending', now() - interval '1 second' FROM generate_series(0, 9999) i`,
      ],
    },
    {
      name: 'B: retry backlog, 1000 endpoints x 200 pending due in 1 h, 50 due now, 2k live leases',
      setup: [
        `UPDATE delivery.webhook_deliveries SET status = 'succeeded', due_at = NULL WHERE status <> 'succeeded'`,
        `INSERT INTO delivery.webhook_deliveries (id, webhook_id, event_id, event_type, status, due_at) SELECT 'whd_b' || i, 'wh_' || lpad((1 + i % 1000)::text, 5, '0'), 'evt_' || (1 + i / 1000), 'database.query', 'pending', now() + interval '1 hour' FROM generate_series(0, 199999) i ON CONFLICT DO NOTHING`,
        `UPDATE delivery.webhook_deliveries SET due_at = now() - interval '1 second' WHERE id IN (SELECT id FROM delivery.webhook_deliveries WHERE id LIKE 'whd_b%' ORDER BY id LIMIT 50)`,
        `UPDATE delivery.webhook_deliveries SET status = 'in_flight', lease_owner = 'other', due_at = now() + interval '1 minute' WHERE id IN (SELECT id FROM delivery.webhook_deliveries WHERE id LIKE 'whd_b%' ORDER BY id DESC LIMIT 2000)`,
      ],
    },
    {
      name: 'C: idle, nothing due (everything in B due in 1 h)',
      setup: [`UPDATE delivery.webhook_deliveries SET due_at = now() + interval '1 hour' WHERE status = 'pending'`],
    },
    {
      name: 'D: one hot endpoint, 100k due now on wh_00001, 1 due on 99 others',
      setup: [
        `UPDATE delivery.webhook_deliveries SET status = 'succeeded', due_at = NULL, lease_owner = NULL WHERE status <> 'succeeded'`,
        `INSERT INTO delivery.webhook_events (id, type, body_a, body_b) SELECT 'evt_d' || i, 'database.query', '{}', '{}' FROM generate_series(1, 100000) i`,
        `INSERT INTO delivery.webhook_deliveries (id, webhook_id, event_id, event_type, status, due_at) SELECT 'whd_d' || i, 'wh_00001', 'evt_d' || i, 'database.query', 'pending', now() - interval '1 second' FROM generate_series(1, 100000) i`,
        `INSERT INTO delivery.webhook_deliveries (id, webhook_id, event_id, event_type, status, due_at) SELECT 'whd_e' || i, 'wh_' || lpad((1 + i)::text, 5, '0'), 'evt_d' || i, 'database.query', 'pending', now() - interval '1 second' FROM generate_series(1, 99) i`,
      ],
    },
  ];
  const explainSql = `EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) ${sql}`;
  for (const scenario of scenarios) {
    for (const s of scenario.setup) await pg.query(s);
    await pg.query('VACUUM ANALYZE delivery.webhook_deliveries');
    await pg.query('BEGIN');
    const plan = (await pg.query(explainSql, params)).rows.map((r) => r['QUERY PLAN'] as string);
    await pg.query('ROLLBACK');
    const uses = plan.flatMap((l) => [...l.matchAll(/(?:using|Index Scan on) (webhook_deliveries_\w+)/g)].map((m) => m[1]));
    const before = (await pg.query(`SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'webhook_deliveries_due_global'`)).rows[0];
    console.log(`\n== ${scenario.name}\n  indexes in the plan: ${[...new Set(uses)].join(', ')}\n  ${plan.find((l) => l.startsWith('Execution Time'))}  (due_global idx_scan so far ${before.idx_scan})`);
    if (process.env.FULL) console.log(plan.join('\n'));
    // The same query on the same rows without the index (dropped inside a transaction that is rolled back).
    const times: string[] = [];
    for (let i = 0; i < 3; i++) {
      await pg.query('BEGIN');
      await pg.query('DROP INDEX delivery.webhook_deliveries_due_global');
      const without = (await pg.query(explainSql, params)).rows.map((r) => r['QUERY PLAN'] as string);
      await pg.query('ROLLBACK');
      if (i === 0 && process.env.SHOW_WITHOUT) console.log(without.filter((l) => /Index|Seq|Cond|Filter|Removed/.test(l)).slice(0, 14).join('\n'));
      await pg.query('BEGIN');
      const withIt = (await pg.query(explainSql, params)).rows.map((r) => r['QUERY PLAN'] as string);
      await pg.query('ROLLBACK');
      const t = (p: string[]) => p.find((l) => l.startsWith('Execution Time'))!.replace('Execution Time: ', '');
      times.push(`with ${t(withIt)} / without ${t(without)}`);
    }
    console.log(`  3 runs: ${times.join('; ')}`);
  }
  const stats = (await pg.query(`SELECT indexrelname, idx_scan FROM pg_stat_user_indexes WHERE relname = 'webhook_deliveries' ORDER BY 1`)).rows;
  console.log('\nidx_scan after the runs:', stats);
  await pg.end();
  await db.drop();
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
