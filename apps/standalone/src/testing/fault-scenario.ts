import { randomBytes } from 'node:crypto';
import { Topics } from '@vigil/contracts';
import { KafkaBus, kafkaSecurityFromEnv } from '@vigil/messaging';
import { createLogger } from '@vigil/platform';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@vigil/testing';
import { type DistributedSystem } from './distributed-processes';
import { KEYS_PER_SCENARIO, type Load, type LoadFigures, reconcile, type Reconciliation, startLoad } from './fault-load';
import { http, login } from './http';
import { keepServiceLogs, serviceLogReport } from './service-logs';

export const HOOK = '/faults';
export const ALERTS = '/alerts';
const PATHS = { hook: HOOK, alerts: ALERTS };

export interface FaultRow {
  scenario: string;
  figures: LoadFigures;
  result: Reconciliation;
  /** From the end of the fault to the first HTTP ingest answered 202. */
  httpRecoveryMs: number;
  /** From the end of the fault until the first record accepted after it reached the webhook receiver. */
  endToEndRecoveryMs: number;
}

export interface FaultBench {
  system: DistributedSystem;
  bus: KafkaBus;
  receiver: WebhookReceiver;
  token: () => string;
  policyId: string;
  rows: FaultRow[];
  /**
   * One scenario: load starts, records are seen stored, the fault runs and ends (answering when it
   * ended), the load runs until a record accepted after that reaches the receiver, then stops and
   * everything is reconciled.
   */
  scenario(name: string, fault: (during: { load: Load; storedSoFar: () => Promise<number>; prefix: string }) => Promise<number>): Promise<FaultRow>;
  /** The rows as a Markdown table (docs/operations.md#faults). */
  table(): string;
  close(): Promise<void>;
}

/**
 * What every fault scenario runs against, on a started distributed system: a load bus, a webhook
 * subscribed to every record and an alert destination (both on a local receiver counting every
 * copy), and a `query_control` policy flagging `DROP TABLE` with an alert, in force.
 */
export async function prepareFaultBench(system: DistributedSystem): Promise<FaultBench> {
  const receiver = await startWebhookReceiver();
  const bus = new KafkaBus({ brokers: system.kafka.brokers, clientId: 'faults-load', prefix: system.kafka.prefix, logger: createLogger('test', 'error'), security: kafkaSecurityFromEnv(system.kafka.env) });
  try {
    const token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });
    expect((await api('POST', '/v1/webhooks', { url: `${receiver.url}${HOOK}`, events: ['database.query'] })).status).toBe(201);
    expect((await api('POST', '/v1/alert-destinations', { name: 'faults', url: `${receiver.url}${ALERTS}`, rate_limit: 100 })).status).toBe(201);
    const policy = await api('POST', '/v1/policies', {
      name: 'faults: drops',
      type: 'query_control',
      databases: ['*'],
      enabled: true,
      config: { rules: [{ name: 'no drops', pattern: '\\bDROP\\s+TABLE\\b', action: 'alert', severity: 'high' }] },
    });
    expect(policy.status).toBe(201);
    const policyId: string = policy.body.id;
    // In force once a flagged probe record gets its violation event.
    await waitFor(async () => {
      const id = `probe-${randomBytes(4).toString('hex')}`;
      await bus.publish([{ topic: Topics.auditIngest, messages: [{ key: 'db_probe', value: JSON.stringify({ id, type: 'database.query', database_id: 'db_probe', details: { query: 'DROP TABLE probe' } }), headers: {} }] }]);
      return waitFor(async () => {
        const [stored] = await system.db.query<{ id: string }>(`SELECT id FROM event_ingest.events WHERE producer_id = $1`, [id]);
        if (!stored) return undefined;
        return (await system.db.query(`SELECT 1 FROM event_ingest.events WHERE policy_id = $1 AND details->>'triggering_event_id' = $2`, [policyId, stored.id])).length > 0;
      }, 20_000, 'probe stored');
    }, 60_000, 'the policy in force');
    return bench(system, bus, receiver, () => token, policyId);
  } catch (error) {
    await bus.close().catch(() => undefined);
    await receiver.close();
    throw error;
  }
}

/** What a failed assertion on a row reports: the system it ran on, when it began, the HTTP attempts that failed. */
const ofRow = new WeakMap<FaultRow, { system: DistributedSystem; began: number; load: Load }>();

/**
 * The services' side of a failed scenario: every process's whole output kept under
 * tmp/fault-logs/, and its warnings, errors, lines of the failed HTTP attempts and last lines
 * (testing/service-logs.ts), written out and answered for the failure message.
 */
function reportServices(system: DistributedSystem, name: string, began: number, load: Load): string {
  const logs = system.logs();
  let kept: string;
  try {
    kept = `every process's whole output: ${keepServiceLogs(logs, name)}`;
  } catch (error) {
    kept = `(the outputs could not be written: ${(error as Error).message})`;
  }
  const report = `--- services during scenario ${name}; ${kept} ---\n${serviceLogReport(logs, { since: began, failedHttp: load.failedHttp() })}`;
  process.stdout.write(`faults: ${name}: ${report}\n`);
  return report;
}

/**
 * Runs assertions on a scenario's row; when one fails, the services' report (reportServices) is
 * printed and added to the failure. expectExact runs its checks this way; a suite wraps its own
 * (recovery bounds, the proxy's counts) in it too.
 */
export function explainFailure(row: FaultRow, assertions: () => void): void {
  try {
    assertions();
  } catch (error) {
    const context = ofRow.get(row);
    if (!context) throw error;
    const report = reportServices(context.system, row.scenario, context.began, context.load);
    if (error instanceof Error) {
      error.message = `${error.message}\n\n${report}`;
      throw error;
    }
    throw new Error(`${String(error)}\n\n${report}`);
  }
}

function bench(system: DistributedSystem, bus: KafkaBus, receiver: WebhookReceiver, token: () => string, policyId: string): FaultBench {
  const rows: FaultRow[] = [];
  const scenario: FaultBench['scenario'] = async (name, fault) => {
    const prefix = `${name.replace(/[^a-z0-9]/g, '')}${randomBytes(3).toString('hex')}`;
    const began = Date.now();
    const load = startLoad(system, bus, token, prefix);
    try {
      const storedSoFar = async () =>
        (await system.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.events WHERE producer_id LIKE $1`, [`${prefix}-%`]))[0]!.n;
      await waitFor(async () => load.figures().http >= 25 && (await storedSoFar()) >= 60, 60_000, 'records accepted over HTTP and stored before the fault');
      const faultEnded = await fault({ load, storedSoFar, prefix });
      const httpRecovered = await waitFor(() => load.firstAcceptedAfter(faultEnded), 180_000, 'an HTTP record accepted after the fault');
      const firstAfter = load.firstRecordAfter(faultEnded)!;
      const delivered = await waitFor(async () => {
        const [event] = await system.db.query<{ id: string }>(`SELECT id FROM event_ingest.events WHERE producer_id = $1`, [firstAfter]);
        return event && receiver.on(HOOK).find((r) => JSON.parse(r.body).id === event.id)?.receivedAt;
      }, 240_000, 'the first record accepted after the fault delivered');
      // Load goes on for a while after recovery too.
      await new Promise((r) => setTimeout(r, 2000));
      const figures = await load.stop();
      // Markers behind each key's records on audit.ingest: once they are stored, every redelivered
      // copy of an audit.ingest record has been consumed (and stored, had it been stored twice).
      const markers = Array.from({ length: KEYS_PER_SCENARIO }, (_, i) => ({ key: `db_${prefix}_${i}`, value: JSON.stringify({ id: `marker-${prefix}-${i}`, type: 'database.query', database_id: `db_${prefix}_${i}` }), headers: {} }));
      await bus.publish([{ topic: Topics.auditIngest, messages: markers }]);
      await waitFor(
        async () => (await system.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.events WHERE producer_id LIKE $1`, [`marker-${prefix}-%`]))[0]!.n === KEYS_PER_SCENARIO,
        120_000,
        'the markers',
      );
      // Drained: every delivery settled (none pending or in flight, so no copy is still to come).
      const result = await waitFor(
        async () => {
          const counted = await reconcile(system, receiver, PATHS, prefix, policyId, figures.accepted);
          const settled =
            counted.storedDistinct >= figures.accepted &&
            counted.violationsDistinct >= figures.flagged &&
            counted.violationEventsDistinct >= figures.flagged &&
            counted.deliveryRowsSucceeded === counted.deliveryRows &&
            counted.deliveryRows >= figures.accepted &&
            counted.eventsReceived >= figures.accepted &&
            counted.alertOccurrences >= figures.flagged &&
            counted.alertDeliveries > 0 &&
            counted.alertDeliveriesSucceeded === counted.alertDeliveries &&
            counted.alertDeliveries >= counted.alerts &&
            counted.alertsReceived >= counted.alerts;
          return settled && counted;
        },
        420_000,
        `scenario ${name} drained`,
      ).catch(async (error) => {
        const counted = await reconcile(system, receiver, PATHS, prefix, policyId, figures.accepted);
        throw new Error(`${(error as Error).message}\nfigures ${JSON.stringify(figures)}\ncounted ${JSON.stringify(counted)}`);
      });
      const row: FaultRow = { scenario: name, figures, result, httpRecoveryMs: httpRecovered - faultEnded, endToEndRecoveryMs: delivered - faultEnded };
      rows.push(row);
      ofRow.set(row, { system, began, load });
      process.stdout.write(`faults: ${name}: ${JSON.stringify(row)}\n`);
      return row;
    } catch (error) {
      await load.stop(true);
      process.stdout.write(`faults: ${name}: FAILED: ${(error as Error).message}\n`);
      throw new Error(`${(error as Error).message}\n\n${reportServices(system, name, began, load)}`);
    }
  };
  return {
    system,
    bus,
    receiver,
    token,
    policyId,
    rows,
    scenario,
    table: () => table(rows),
    close: async () => {
      await bus.close().catch(() => undefined);
      await receiver.close();
    },
  };
}

/** Nothing lost, nothing stored or applied twice, every record delivered by exactly one delivery row. */
export function expectExact(row: FaultRow, options: { copiesMayRepeat?: boolean } = {}): void {
  explainFailure(row, () => exactCounts(row, options));
}

function exactCounts(row: FaultRow, options: { copiesMayRepeat?: boolean }): void {
  const { figures, result } = row;
  expect(figures.accepted).toBeGreaterThan(0);
  // During a fault a client may be told to retry (503, 504) or lose its connection; never a 500.
  expect(Object.keys(figures.failures).filter((status) => /^5\d\d$/.test(status) && status !== '503' && status !== '504')).toEqual([]);
  expect({
    storedRows: result.storedRows,
    storedDistinct: result.storedDistinct,
    violationEvents: result.violationEvents,
    violationEventsDistinct: result.violationEventsDistinct,
    violations: result.violations,
    violationsDistinct: result.violationsDistinct,
    deliveryRows: result.deliveryRows,
    deliveryRowsSucceeded: result.deliveryRowsSucceeded,
    eventsReceived: result.eventsReceived,
    alertOccurrences: result.alertOccurrences,
    alertEventIds: result.alertEventIds,
    alertDeliveries: result.alertDeliveries,
    alertDeliveriesSucceeded: result.alertDeliveriesSucceeded,
    alertsReceived: result.alertsReceived,
  }).toEqual({
    storedRows: figures.accepted,
    storedDistinct: figures.accepted,
    violationEvents: figures.flagged,
    violationEventsDistinct: figures.flagged,
    violations: figures.flagged,
    violationsDistinct: figures.flagged,
    deliveryRows: figures.accepted,
    deliveryRowsSucceeded: figures.accepted,
    eventsReceived: figures.accepted,
    // One occurrence per violation, each listing its own event ids once.
    alertOccurrences: figures.flagged,
    alertEventIds: result.alertEventIdsDistinct,
    // One send per alert raised (folded occurrences are not sent again), each received.
    alertDeliveries: result.alerts,
    alertDeliveriesSucceeded: result.alerts,
    alertsReceived: result.alerts,
  });
  if (!options.copiesMayRepeat) {
    expect(result.copiesReceived).toBe(figures.accepted);
    expect(result.alertCopiesReceived).toBe(result.alerts);
  }
}

function table(rows: FaultRow[]): string {
  const lines = [
    '| scenario | accepted (HTTP + Kafka) | stored rows / distinct | violations of flagged | alerts (occurrences) / sends / copies | webhook deliveries / copies received | lost | duplicated effects | HTTP recovery | end-to-end recovery |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { scenario, figures, result, httpRecoveryMs, endToEndRecoveryMs } of rows) {
    const lost = figures.accepted - result.storedDistinct;
    const duplicated =
      result.storedRows - result.storedDistinct + (result.violations - result.violationsDistinct) + (result.alertEventIds - result.alertEventIdsDistinct) + (result.deliveryRows - result.eventsReceived);
    lines.push(
      `| ${scenario} | ${figures.accepted} (${figures.http} + ${figures.kafka}) | ${result.storedRows} / ${result.storedDistinct} | ${result.violations} of ${figures.flagged} | ${result.alerts} (${result.alertOccurrences}) / ${result.alertDeliveries} / ${result.alertCopiesReceived} | ${result.deliveryRows} / ${result.copiesReceived} | ${lost} | ${duplicated} | ${(httpRecoveryMs / 1000).toFixed(1)} s | ${(endToEndRecoveryMs / 1000).toFixed(1)} s |`,
    );
  }
  return lines.join('\n');
}
