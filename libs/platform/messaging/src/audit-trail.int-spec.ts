import { Topics } from '@vigil/contracts';
import { createServiceDataSource, runMigrations } from '@vigil/database';
import { createLogger, withRequestOrigin } from '@vigil/platform';
import { createTestDatabase, type TestDatabase, waitFor } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { AuditTrail } from './audit-trail';
import { FIXTURE_SCHEMA, fixtureMigrations } from './fixtures/messaging-fixture.shared';
import { MemoryBus } from './memory-bus';
import { OutboxRelay, OutboxWriter } from './outbox';

/** vigil.* events share the fate of the change they record: the service's outbox, same transaction. */
describe('AuditTrail on PostgreSQL', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let trail: AuditTrail;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({ url: db.url, schema: FIXTURE_SCHEMA, migrations: fixtureMigrations, poolSize: 3, applicationName: 'test' });
    await dataSource.initialize();
    await runMigrations(dataSource, FIXTURE_SCHEMA);
    trail = new AuditTrail(new OutboxWriter(FIXTURE_SCHEMA), 'policy', () => `evt_test_${++n}`);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  const outbox = () => dataSource.query(`SELECT message_id, topic, value FROM ${FIXTURE_SCHEMA}.outbox ORDER BY seq`);
  const origin = { actor: { kind: 'user' as const, id: 'usr_1' }, source_ip: '198.51.100.4', user_agent: 'ua' };

  it('writes the event with the change when it commits, and nothing when it rolls back', async () => {
    await dataSource.query(`DELETE FROM ${FIXTURE_SCHEMA}.outbox`);
    await withRequestOrigin(origin, () =>
      dataSource.transaction((manager) => trail.record(manager, { type: 'vigil.policy.enabled', target: { type: 'policy', id: 'pol_1' }, before: { enabled: false }, after: { enabled: true } })),
    );
    await expect(
      withRequestOrigin(origin, () =>
        dataSource.transaction(async (manager) => {
          await trail.record(manager, { type: 'vigil.policy.deleted', target: { type: 'policy', id: 'pol_2' } });
          throw new Error('the change failed');
        }),
      ),
    ).rejects.toThrow('the change failed');
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ message_id: 'evt_test_1', topic: Topics.adminAudit });
    expect(JSON.parse(rows[0].value)).toMatchObject({ id: 'evt_test_1', type: 'vigil.policy.enabled', data: { actor: origin.actor, source_ip: '198.51.100.4', changes: { before: { enabled: false }, after: { enabled: true } } } });
  });

  it('keeps a committed event in the outbox while the bus is down and publishes it, same id, once it is back', async () => {
    await dataSource.query(`DELETE FROM ${FIXTURE_SCHEMA}.outbox`);
    await dataSource.transaction((manager) => trail.record(manager, { type: 'vigil.webhook.deleted', target: { type: 'webhook', id: 'wh_1' } }));
    const bus = new MemoryBus();
    const failing = { ...bus, kind: bus.kind, publish: () => Promise.reject(new Error('broker down')) } as unknown as MemoryBus;
    const down = new OutboxRelay({ dataSource, schema: FIXTURE_SCHEMA, bus: failing, logger: createLogger('test', 'silent'), pollMs: 50 });
    await expect(down.relayOnce()).rejects.toThrow('broker down');
    expect(await outbox()).toHaveLength(1);
    const received: string[] = [];
    await bus.subscribe({ groupId: 'ingest', topics: [Topics.adminAudit], handler: async (messages) => void received.push(...messages.map((m) => JSON.parse(m.value).id)) });
    const up = new OutboxRelay({ dataSource, schema: FIXTURE_SCHEMA, bus, logger: createLogger('test', 'silent'), pollMs: 50 });
    expect(await up.relayOnce()).toBe(1);
    await waitFor(() => received.length > 0, 5000, 'published');
    expect(received).toEqual([`evt_test_${n}`]);
    expect(await outbox()).toHaveLength(0);
  });
});
