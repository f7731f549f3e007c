import { Topics } from '@vigil/contracts';
import { type KafkaBus } from '@vigil/messaging';
import { type WebhookReceiver } from '@vigil/testing';
import { type DistributedSystem } from './distributed-processes';

/** Database ids of one scenario: records spread over several keys, so over several partitions. */
export const KEYS_PER_SCENARIO = 6;
/** Every how many records one is a statement the scenario's policy flags (a violation each). */
export const VIOLATION_EVERY = 5;

export interface LoadFigures {
  /** Records the producers were told were accepted: HTTP 202 (after retries of the same producer ids), Kafka acks. */
  accepted: number;
  http: number;
  kafka: number;
  /** Records whose statement the policy flags. */
  flagged: number;
  /** Failed attempts (HTTP errors, refused connections, Kafka publish errors), each retried. */
  failedAttempts: number;
  /** Failed attempts by what they got: an HTTP status, `network` or `kafka`. */
  failures: Record<string, number>;
}

/** One failed HTTP attempt as the load producer saw it, to set beside the services' logs. */
export interface FailedAttempt {
  at: number;
  status: number;
  /** The gateway's X-Correlation-ID: the services log it on every line of that request. */
  correlationId: string | null;
  /** The start of the answer (a problem document: code, detail, error_id). */
  body: string;
}

export interface Load {
  /** Failed HTTP attempts answered with a status (5xx included), in order; at most 200 kept. */
  failedHttp(): FailedAttempt[];
  /** Stops after the batches in hand are accepted; `abandon` gives up on them (a failed scenario). */
  stop(abandon?: boolean): Promise<LoadFigures>;
  figures(): LoadFigures;
  /** The time of the first HTTP 202 at or after `since` (epoch ms), once there is one. */
  firstAcceptedAfter(since: number): number | undefined;
  /** The producer id of the first HTTP record accepted at or after `since`. */
  firstRecordAfter(since: number): string | undefined;
}

/**
 * Steady load on one scenario's database ids: an HTTP producer (batches of 5 through the gateway,
 * a failed request retried with the same producer ids until it is answered 202) and an
 * `audit.ingest` producer (batches of 5, retried until acknowledged), each about every `everyMs`
 * (1 s: about 10 records a second in all, which the deployment keeps up with on a busy 2-core
 * machine, so the recovery measured is the fault's, not a backlog's).
 * Every fifth record is a `DROP TABLE` the scenario's policy flags.
 */
export function startLoad(system: DistributedSystem, bus: KafkaBus, token: () => string, prefix: string, everyMs = 1000): Load {
  let running = true;
  /** Set by a stop that should not wait for a failing batch (a scenario that failed). */
  let stopping = false;
  const figures: LoadFigures = { accepted: 0, http: 0, kafka: 0, flagged: 0, failedAttempts: 0, failures: {} };
  const failed = (what: string) => {
    figures.failedAttempts++;
    figures.failures[what] = (figures.failures[what] ?? 0) + 1;
  };
  const accepts: { at: number; producerId: string }[] = [];
  const failedHttp: FailedAttempt[] = [];
  let counter = 0;
  const record = (channel: 'h' | 'k') => {
    const n = counter++;
    const flagged = n % VIOLATION_EVERY === 0;
    return {
      flagged,
      body: {
        id: `${prefix}-${channel}-${n}`,
        type: 'database.query',
        database_id: `db_${prefix}_${n % KEYS_PER_SCENARIO}`,
        details: { user: `u${n % 7}`, query: flagged ? `DROP TABLE t_${n}` : `SELECT ${n}` },
      },
    };
  };
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const httpLoop = async () => {
    while (running) {
      const batch = Array.from({ length: 5 }, () => record('h'));
      // Retried until accepted: the producer ids make a retry of a batch that was stored store nothing
      // new. A stop gives up on a batch not accepted (only a failing scenario stops that way).
      for (;;) {
        if (!running && stopping) return;
        try {
          const response = await fetch(`${system.gatewayUrl}/v1/events/ingest`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
            body: JSON.stringify({ events: batch.map((r) => r.body) }),
            signal: AbortSignal.timeout(10_000),
          });
          const text = await response.text();
          if (response.status === 202) break;
          failed(String(response.status));
          if (failedHttp.length < 200) failedHttp.push({ at: Date.now(), status: response.status, correlationId: response.headers.get('x-correlation-id'), body: text.slice(0, 600) });
        } catch {
          // Refused, reset or timed out: retried.
          failed('network');
        }
        await pause(200);
      }
      const at = Date.now();
      figures.http += batch.length;
      figures.accepted += batch.length;
      figures.flagged += batch.filter((r) => r.flagged).length;
      accepts.push({ at, producerId: batch[0]!.body.id });
      await pause(everyMs);
    }
  };
  const kafkaLoop = async () => {
    while (running) {
      const batch = Array.from({ length: 5 }, () => record('k'));
      for (;;) {
        if (!running && stopping) return;
        try {
          await bus.publish([{ topic: Topics.auditIngest, messages: batch.map((r) => ({ key: r.body.database_id, value: JSON.stringify(r.body), headers: {} })) }]);
          break;
        } catch {
          failed('kafka');
          await pause(200);
        }
      }
      figures.kafka += batch.length;
      figures.accepted += batch.length;
      figures.flagged += batch.filter((r) => r.flagged).length;
      await pause(everyMs);
    }
  };
  const loops = Promise.all([httpLoop(), kafkaLoop()]);
  return {
    figures: () => ({ ...figures, failures: { ...figures.failures } }),
    failedHttp: () => [...failedHttp],
    stop: async (abandon = false) => {
      running = false;
      stopping = abandon;
      await loops;
      return { ...figures, failures: { ...figures.failures } };
    },
    firstAcceptedAfter: (since) => accepts.find((a) => a.at >= since)?.at,
    firstRecordAfter: (since) => accepts.find((a) => a.at >= since)?.producerId,
  };
}

export interface Reconciliation {
  accepted: number;
  storedRows: number;
  storedDistinct: number;
  violationEvents: number;
  violationEventsDistinct: number;
  violations: number;
  violationsDistinct: number;
  deliveryRows: number;
  deliveryRowsSucceeded: number;
  /** Every copy the receiver got of the scenario's events. */
  copiesReceived: number;
  eventsReceived: number;
  /** Alerts raised by the violations (folded per database and user), their occurrences, and the event ids they list (all and distinct). */
  alerts: number;
  alertOccurrences: number;
  alertEventIds: number;
  alertEventIdsDistinct: number;
  alertDeliveries: number;
  alertDeliveriesSucceeded: number;
  /** Every copy of the scenario's alerts the receiver got, and how many alerts they were. */
  alertCopiesReceived: number;
  alertsReceived: number;
}

/**
 * Counts one scenario's effects in the database and at the receiver: stored records (rows and
 * distinct producer ids), the policy's violation events and violations, the webhook deliveries
 * and every copy received.
 */
export async function reconcile(
  system: DistributedSystem,
  receiver: WebhookReceiver,
  paths: { hook: string; alerts: string },
  prefix: string,
  policyId: string,
  accepted: number,
): Promise<Reconciliation> {
  const q = <T>(sql: string, params: unknown[]) => system.db.query<T>(sql, params);
  const [stored] = await q<{ rows: number; ids: number }>(
    `SELECT count(*)::int AS rows, count(DISTINCT producer_id)::int AS ids FROM event_ingest.events WHERE producer_id LIKE $1 AND type = 'database.query'`,
    [`${prefix}-%`],
  );
  const [violationEvents] = await q<{ rows: number; ids: number }>(
    `SELECT count(*)::int AS rows, count(DISTINCT details->>'triggering_event_id')::int AS ids FROM event_ingest.events
      WHERE policy_id = $1 AND type = 'policy.violation' AND database_id LIKE $2`,
    [policyId, `db_${prefix}_%`],
  );
  const [violations] = await q<{ rows: number; ids: number }>(
    `SELECT count(*)::int AS rows, count(DISTINCT event_id)::int AS ids FROM policy.violations WHERE policy_id = $1 AND database_id LIKE $2`,
    [policyId, `db_${prefix}_%`],
  );
  const eventIds = new Set(
    (await q<{ id: string }>(`SELECT id FROM event_ingest.events WHERE producer_id LIKE $1 AND type = 'database.query'`, [`${prefix}-%`])).map((r) => r.id),
  );
  const [deliveries] = await q<{ rows: number; succeeded: number }>(
    `SELECT count(*)::int AS rows, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded FROM delivery.webhook_deliveries WHERE NOT test AND event_id = ANY($1::text[])`,
    [[...eventIds]],
  );
  const inScenario = `db_${prefix}_%`;
  const [alerts] = await q<{ alerts: number; occurrences: number }>(
    `SELECT count(*)::int AS alerts, coalesce(sum(occurrences), 0)::int AS occurrences FROM delivery.alerts WHERE policy_id = $1 AND database_id LIKE $2`,
    [policyId, inScenario],
  );
  const [alertEventIds] = await q<{ ids: number; distinct: number }>(
    `SELECT count(*)::int AS ids, count(DISTINCT e)::int AS distinct FROM delivery.alerts, unnest(event_ids) AS e WHERE policy_id = $1 AND database_id LIKE $2`,
    [policyId, inScenario],
  );
  const alertIds = new Set((await q<{ id: string }>(`SELECT id FROM delivery.alerts WHERE policy_id = $1 AND database_id LIKE $2`, [policyId, inScenario])).map((r) => r.id));
  const [alertDeliveries] = await q<{ rows: number; succeeded: number }>(
    `SELECT count(*)::int AS rows, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded FROM delivery.alert_deliveries WHERE NOT test AND alert_id = ANY($1::text[])`,
    [[...alertIds]],
  );
  const alertCopies = receiver.on(paths.alerts).map((r) => JSON.parse(r.body).alert_id as string).filter((id) => alertIds.has(id));
  const copies = receiver.on(paths.hook).map((r) => JSON.parse(r.body).id as string).filter((id) => eventIds.has(id));
  return {
    accepted,
    storedRows: stored!.rows,
    storedDistinct: stored!.ids,
    violationEvents: violationEvents!.rows,
    violationEventsDistinct: violationEvents!.ids,
    violations: violations!.rows,
    violationsDistinct: violations!.ids,
    deliveryRows: deliveries!.rows,
    deliveryRowsSucceeded: deliveries!.succeeded,
    copiesReceived: copies.length,
    eventsReceived: new Set(copies).size,
    alerts: alerts!.alerts,
    alertOccurrences: alerts!.occurrences,
    alertEventIds: alertEventIds!.ids,
    alertEventIdsDistinct: alertEventIds!.distinct,
    alertDeliveries: alertDeliveries!.rows,
    alertDeliveriesSucceeded: alertDeliveries!.succeeded,
    alertCopiesReceived: alertCopies.length,
    alertsReceived: new Set(alertCopies).size,
  };
}
