import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, testRpcCredentials, waitFor } from '@vigil/testing';
import { type RunningService, startService } from '@vigil/platform';
import { eventIngestService, ReportsWorker } from '@vigil/service/event-ingest';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Report schedules with two event-ingest instances (docs/reports.md#schedules): both poll the same
 * schema on a real broker, as two replicas would; every slot yields exactly one report.
 */
describe('report schedules with two instances', () => {
  let system: TestSystem;
  let second: RunningService | undefined;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'kafka', env: { REPORTS_POLL_MS: '100' } });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    second = await startService(eventIngestService, {
      DATABASE_URL: system.db.url,
      DATABASE_ALLOW_PRIVILEGED_ROLE: 'true',
      // The installation's key: it opens the checkpoint signing key the first instance made.
      VIGIL_ENCRYPTION_KEYS: readFileSync(join(system.dataDir, 'encryption.key'), 'utf8').trim(),
      KAFKA_BROKERS: system.kafka!.brokers.join(','),
      KAFKA_TOPIC_PREFIX: system.kafka!.prefix,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      METRICS_PORT: '0',
      RPC_HOST: '127.0.0.1',
      RPC_PORT: String(await freePort()),
      REPORTS_POLL_MS: '100',
      // It consumes audit.ingest beside the first instance, and stores nothing before it has the policies.
      POLICY_RPC_ADDRESS: `127.0.0.1:${system.services.find((s) => s.name === 'policy')!.context.config.RPC_PORT}`,
      // Reports read their alert figures from the system's delivery service.
      DELIVERY_RPC_ADDRESS: `127.0.0.1:${system.services.find((s) => s.name === 'delivery')!.context.config.RPC_PORT}`,
        }, { rpcCredentials: testRpcCredentials('event-ingest') });
  }, 180_000);

  afterAll(async () => {
    await second?.stop();
    await system?.close();
  });

  it('runs each slot once: a slot already due and the next real one', async () => {
    const created = await api('POST', '/v1/report-schedules', { name: 'every minute', type: 'pci_dss', cron: '* * * * *', timezone: 'Europe/Berlin', period_days: 1 });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({ enabled: true, timezone: 'Europe/Berlin', period_days: 1, last_run_at: null });
    const firstSlot = new Date(created.body.next_run_at);
    expect(firstSlot.getTime() % 60_000).toBe(0);
    expect(firstSlot.getTime()).toBeGreaterThan(Date.now());

    // Both instances find this slot due at the same moment and race for it.
    const dueSlot = new Date(firstSlot.getTime() - 120_000);
    await system.db.query(`UPDATE event_ingest.report_schedules SET next_run_at = $2 WHERE id = $1`, [id, dueSlot]);
    const reportsOf = async () => (await api('GET', `/v1/reports?schedule_id=${id}&per_page=100`)).body.data as { id: string; period_end: string; status: string }[];
    await waitFor(async () => (await reportsOf()).length >= 1, 10_000, 'the due slot ran');
    await waitFor(async () => (await reportsOf()).length >= 2, 75_000, 'the next slot ran');
    // No sleep before counting: each instance finishes a pass begun after both reports were seen,
    // so any report either could still make for these slots is committed before the count. With
    // the schedule row no longer locked (no FOR UPDATE SKIP LOCKED in claimDueSchedules) and the
    // report's slot left out of its unique key, both instances run the due slot and this count
    // fails (four reports: each slot twice).
    for (const instance of [system.services.find((s) => s.name === 'event-ingest')!, second!]) await instance.app.get(ReportsWorker).settle();

    const reports = await reportsOf();
    expect(reports.map((r) => r.period_end).sort()).toEqual([dueSlot.toISOString(), firstSlot.toISOString()]);
    const done = await waitFor(async () => {
      const all = await reportsOf();
      return all.every((r) => r.status === 'completed') ? all : undefined;
    }, 30_000, 'both reports generated');
    expect(done).toHaveLength(2);
    const schedule = (await api('GET', `/v1/report-schedules/${id}`)).body;
    expect(new Date(schedule.next_run_at).getTime()).toBeGreaterThan(firstSlot.getTime());
    expect(reports.map((r) => r.id)).toContain(schedule.last_report_id);

    const disabled = await api('PATCH', `/v1/report-schedules/${id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, next_run_at: null });
    expect((await api('DELETE', `/v1/report-schedules/${id}`)).body).toEqual({ deleted: true, id });
  }, 150_000);
});
