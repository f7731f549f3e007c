import { readdirSync } from 'node:fs';
import { createTestDatabase, type TestDatabase, testServerUrl, waitFor } from '@vigil/testing';
import { Client } from 'pg';
import { type DistributedSystem, startDistributedSystem } from './testing/distributed-processes';
import { expectExact, explainFailure, type FaultBench, type FaultRow, HOOK, prepareFaultBench } from './testing/fault-scenario';
import { type PrivateKafka, startPrivateKafka } from './testing/private-kafka';

/**
 * Faults of the Kafka broker and of the pg-proxy's capture path, on the distributed deployment
 * (every service its own process, real PostgreSQL) running on a broker of this suite's own
 * (testing/private-kafka.ts: scripts/kafka.sh on free ports, every client reaching it through a
 * relay the broker advertises). The shared broker is never touched.
 *
 * `npm test` (CI) runs every scenario: the broker killed (kill -9) and restarted, the broker
 * unreachable for 30 s with the pg-proxy's spill space full (fail-closed), the broker hung (SIGSTOP)
 * for 30 s, and kill -9 of pg-proxy (docs/operations.md#faults).
 */

/** Recovery bounds (docs/operations.md#faults): generous, a busy 2-core machine starts a broker in about a minute. */
const BOUNDS = {
  /** First HTTP ingest answered 202 after the fault ended (HTTP ingest does not wait on the broker). */
  httpMs: 30_000,
  /** First record accepted after the fault ended delivered to the webhook (includes the broker's restart and the backlog). */
  endToEndMs: 180_000,
  /** First statement through pg-proxy admitted again after the broker came back. */
  proxyMs: 60_000,
};

const PROXY_DATABASE_ID = 'db_faults_proxy';

/**
 * Statements through pg-proxy on one session, one every `everyMs`, each with its own number in
 * its text, counted by outcome: run (`ok`), refused by the proxy (SQLSTATE 53000: capture full and
 * fail-closed) or anything else. A lost connection is reopened.
 */
function startProxyClient(url: string, tag: string, everyMs = 100) {
  let running = true;
  const sent: { n: number; outcome: string; at: number }[] = [];
  let client: Client | undefined;
  const loop = (async () => {
    for (let n = 0; running; n++) {
      try {
        if (!client) {
          client = new Client({ connectionString: url, application_name: `faults-${tag}`, query_timeout: 30_000 });
          client.on('error', () => undefined);
          await client.connect();
        }
      } catch (error) {
        sent.push({ n, outcome: `connect:${(error as { code?: string }).code ?? 'network'}`, at: Date.now() });
        await client?.end().catch(() => undefined);
        client = undefined;
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      const outcome = await client.query(`SELECT ${n} AS ${tag}`).then(
        () => 'ok',
        (error: { code?: string }) => error.code ?? 'network',
      );
      sent.push({ n, outcome, at: Date.now() });
      if (outcome === 'network') {
        await client.end().catch(() => undefined);
        client = undefined;
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
    await client?.end().catch(() => undefined);
  })();
  const count = (outcome: string) => sent.filter((s) => s.outcome === outcome).length;
  return {
    sent,
    count,
    firstOkAfter: (since: number) => sent.find((s) => s.at >= since && s.outcome === 'ok')?.at,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

describe('faults of the Kafka broker and of pg-proxy on the distributed deployment', () => {
  let broker: PrivateKafka;
  let system: DistributedSystem;
  let bench: FaultBench;
  let audited: TestDatabase;
  const proxyRows: string[] = [];

  beforeAll(async () => {
    broker = await startPrivateKafka();
    audited = await createTestDatabase();
    system = await startDistributedSystem({
      kafka: broker.kafka,
      env: { ALERT_RATE_WINDOW_MS: '1000' },
      proxy: {
        databases: { [audited.name]: PROXY_DATABASE_ID },
        // A small capture buffer and spill space, fail-closed: a broker outage fills both in seconds.
        env: { PROXY_BUFFER_MAX_RECORDS: '10', PROXY_SPILL_MAX_BYTES: '8192', PROXY_FAIL_MODE: 'closed', PROXY_PUBLISH_TIMEOUT_MS: '3000' },
      },
    });
    bench = await prepareFaultBench(system);
  }, 900_000);

  afterAll(async () => {
    if (bench?.rows.length) process.stdout.write(`\n${bench.table()}\n${proxyRows.join('\n')}\n`);
    await bench?.close();
    await system?.close();
    await audited?.drop();
    await broker?.close();
  }, 120_000);

  function expectRecovered(row: FaultRow) {
    explainFailure(row, () => {
      expect(row.httpRecoveryMs).toBeLessThanOrEqual(BOUNDS.httpMs);
      expect(row.endToEndRecoveryMs).toBeLessThanOrEqual(BOUNDS.endToEndMs);
    });
  }

  const proxyUrl = () => {
    const url = new URL(testServerUrl());
    url.hostname = '127.0.0.1';
    url.port = String(system.replica('pg-proxy').proxyPort);
    url.pathname = `/${audited.name}`;
    return url.toString();
  };

  /**
   * The proxy client's statements stored as `database.query` records (rows, distinct producer ids,
   * distinct statements, refused ones), their webhook deliveries and the copies received. Waits
   * first for a last statement, sent after the client stopped: records are published in order on
   * one key, so once it is stored every copy of an earlier record (a publish retried after a
   * timeout) has been consumed too; then until every stored record's delivery settled.
   */
  async function reconcileProxy(tag: string) {
    const end = new Client({ connectionString: proxyUrl() });
    await end.connect();
    await end.query(`SELECT 'end' AS ${tag}_end`);
    await end.end();
    const q = <T>(sql: string, params: unknown[]) => system.db.query<T>(sql, params);
    await waitFor(
      async () => (await q(`SELECT 1 FROM event_ingest.events WHERE database_id = $1 AND position($2 in details->>'query') > 0`, [PROXY_DATABASE_ID, `${tag}_end`])).length > 0,
      180_000,
      'the last proxy statement stored',
    );
    const ofTag = `database_id = $1 AND type = 'database.query' AND details->>'query' ~ $2`;
    const pattern = `^SELECT [0-9]+ AS ${tag}$`;
    const counted = await waitFor(async () => {
      const [stored] = await q<{ rows: number; ids: number; statements: number; refused: number }>(
        `SELECT count(*)::int AS rows, count(DISTINCT producer_id)::int AS ids, count(DISTINCT details->>'query')::int AS statements,
                count(*) FILTER (WHERE details->>'blocked' = 'true')::int AS refused
           FROM event_ingest.events WHERE ${ofTag}`,
        [PROXY_DATABASE_ID, pattern],
      );
      const ids = (await q<{ id: string }>(`SELECT id FROM event_ingest.events WHERE ${ofTag}`, [PROXY_DATABASE_ID, pattern])).map((r) => r.id);
      const [deliveries] = await q<{ rows: number; succeeded: number }>(
        `SELECT count(*)::int AS rows, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded FROM delivery.webhook_deliveries WHERE NOT test AND event_id = ANY($1::text[])`,
        [ids],
      );
      const idSet = new Set(ids);
      const copies = bench.receiver.on(HOOK).map((r) => JSON.parse(r.body).id as string).filter((id) => idSet.has(id));
      const result = { ...stored!, deliveryRows: deliveries!.rows, deliveryRowsSucceeded: deliveries!.succeeded, received: new Set(copies).size, copies: copies.length };
      return result.deliveryRows >= result.ids && result.deliveryRowsSucceeded === result.deliveryRows && result.received >= result.ids && result;
    }, 240_000, 'the proxy statements delivered');
    const numbers = new Set(
      (await q<{ query: string }>(`SELECT DISTINCT details->>'query' AS query FROM event_ingest.events WHERE ${ofTag}`, [PROXY_DATABASE_ID, pattern])).map((r) => Number(r.query.split(' ')[1])),
    );
    return { ...counted, numbers };
  }

  it('the broker killed (kill -9) mid-load and restarted: nothing lost, nothing applied twice, recovery within the bound', async () => {
    const row = await bench.scenario('kill -9 Kafka broker', async () => {
      await broker.kill();
      await new Promise((r) => setTimeout(r, 5000));
      const restartedAt = Date.now();
      await broker.start();
      return restartedAt;
    });
    expectExact(row, { copiesMayRepeat: true });
    expectRecovered(row);
  }, 900_000);

  it('the broker unreachable for 30 s with pg-proxy spilling: the full spill refuses statements (fail-closed, 53000), every capture stored once after', async () => {
    const tag = `p_${Date.now().toString(36)}`;
    const proxy = startProxyClient(proxyUrl(), tag);
    let spilled = 0;
    let refusedDuringCut = 0;
    let okBeforeFull = 0;
    let proxyRecoveredAt: number | undefined;
    let faultEnded = 0;
    try {
      await waitFor(() => proxy.count('ok') >= 20, 60_000, 'statements through the proxy before the fault');
      const row = await bench.scenario('Kafka broker unreachable 30 s, pg-proxy spill full', async () => {
        const cutAt = Date.now();
        const okAtCut = proxy.count('ok');
        broker.relay.cut();
        // The proxy buffers, spills, and once both are full refuses (fail-closed).
        await waitFor(() => proxy.count('53000') >= 10, 60_000, 'statements refused with 53000 once the spill is full');
        spilled = readdirSync(system.replica('pg-proxy').spillDir!).filter((n) => n.endsWith('.jsonl')).length;
        okBeforeFull = proxy.count('ok') - okAtCut;
        const left = 30_000 - (Date.now() - cutAt);
        if (left > 0) await new Promise((r) => setTimeout(r, left));
        refusedDuringCut = proxy.count('53000');
        broker.relay.restore();
        faultEnded = Date.now();
        return faultEnded;
      });
      proxyRecoveredAt = await waitFor(() => proxy.firstOkAfter(faultEnded), BOUNDS.proxyMs * 2, 'a statement through the proxy admitted again');
      await proxy.stop();
      const others = proxy.sent.filter((s) => s.outcome !== 'ok' && s.outcome !== '53000');
      const sent = proxy.count('ok') + proxy.count('53000');
      const counted = await reconcileProxy(tag);
      const line = `proxy: ${proxy.sent.length} statements (${proxy.count('ok')} run, ${proxy.count('53000')} refused with 53000, ${others.length} other), ${okBeforeFull} run during the cut before it filled, ${spilled} spill segments at full; stored ${counted.rows} rows / ${counted.ids} distinct (${counted.refused} refused), ${counted.deliveryRows} webhook deliveries / ${counted.copies} copies; first statement admitted ${((proxyRecoveredAt - faultEnded) / 1000).toFixed(1)} s after the broker returned`;
      proxyRows.push(line);
      process.stdout.write(`faults: ${line}\n`);
      explainFailure(row, () => {
        expect(others).toEqual([]);
        // Every statement sent, run or refused, stored once and delivered once.
        const { numbers: _, copies, refused, ...exact } = counted;
        expect(exact).toEqual({ rows: sent, ids: sent, statements: sent, deliveryRows: sent, deliveryRowsSucceeded: sent, received: sent });
        expect(refused).toBe(proxy.count('53000'));
        expect(copies).toBeGreaterThanOrEqual(sent);
        expect(spilled).toBeGreaterThan(0);
        expect(refusedDuringCut).toBeGreaterThanOrEqual(10);
        expect(proxyRecoveredAt! - faultEnded).toBeLessThanOrEqual(BOUNDS.proxyMs);
      });
      expectExact(row, { copiesMayRepeat: true });
      expectRecovered(row);
    } finally {
      await proxy.stop();
    }
  }, 900_000);

  it('the broker hung (SIGSTOP) for 30 s mid-load: nothing lost or applied twice, recovery within the bound', async () => {
    const row = await bench.scenario('Kafka broker hung 30 s', async () => {
      broker.pause();
      await new Promise((r) => setTimeout(r, 30_000));
      broker.resume();
      return Date.now();
    });
    expectExact(row, { copiesMayRepeat: true });
    expectRecovered(row);
  }, 900_000);

  it('kill -9 of pg-proxy mid-load and restart: nothing applied twice; what the proxy had not published yet is counted', async () => {
    const tag = `k_${Date.now().toString(36)}`;
    const proxy = startProxyClient(proxyUrl(), tag);
    try {
      await waitFor(() => proxy.count('ok') >= 20, 60_000, 'statements through the proxy before the fault');
      const replica = system.replica('pg-proxy');
      const row = await bench.scenario('kill -9 pg-proxy', async () => {
        await system.kill(replica);
        await new Promise((r) => setTimeout(r, 2000));
        const restartedAt = Date.now();
        await system.start(replica);
        return restartedAt;
      });
      await proxy.stop();
      const counted = await reconcileProxy(tag);
      const ran = proxy.sent.filter((s) => s.outcome === 'ok');
      const lost = ran.filter((s) => !counted.numbers.has(s.n)).length;
      const failed = proxy.sent.filter((s) => s.outcome !== 'ok');
      const line = `proxy kill -9: ${proxy.sent.length} statements (${ran.length} run, ${failed.length} failed: ${[...new Set(failed.map((s) => s.outcome))].join(', ')}); stored ${counted.rows} rows / ${counted.ids} distinct / ${counted.statements} statements; run but not stored (in the killed proxy's memory): ${lost}; ${counted.deliveryRows} webhook deliveries / ${counted.copies} copies`;
      proxyRows.push(line);
      process.stdout.write(`faults: ${line}\n`);
      expectExact(row);
      expectRecovered(row);
      // Nothing stored or delivered twice; a record the killed process held in memory is lost (docs/proxy.md).
      explainFailure(row, () =>
        expect({ rows: counted.rows, ids: counted.ids, deliveryRows: counted.deliveryRows }).toEqual({ rows: counted.statements, ids: counted.statements, deliveryRows: counted.statements }),
      );
    } finally {
      await proxy.stop();
    }
  }, 900_000);
});
