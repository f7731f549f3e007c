import { policyChangedValidator } from '@vigil/contracts';
import { createServiceDataSource, EventStore, runMigrations } from '@vigil/database';
import { newId } from '@vigil/domain';
import { AuditTrail, OutboxWriter } from '@vigil/messaging';
import { createTestDatabase, spawnTs, type TestDatabase } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { policyMigrations } from '../database/migrations';
import { POLICY_SCHEMA } from '../database/schema';
import { ViolationsRepository } from '../violations/violations.repository';
import { ViolationsService } from '../violations/violations.service';
import { PoliciesRepository } from './policies.repository';
import { PoliciesService } from './policies.service';
import { rebuildProjections } from './projection-rebuild';
import { createLogger, SecretBox } from '@vigil/platform';
import type { PolicyConfig } from '../policy.service-definition';
import { SnapshotSigner } from '../signing/snapshot-signer';

/** The read models are projections: rebuilt from the stored events, they come out the same. */
describe('policy read models rebuilt from the event store', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let policies: PoliciesService;
  let violations: ViolationsService;
  const store = new EventStore(POLICY_SCHEMA);

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({ url: db.url, schema: POLICY_SCHEMA, migrations: policyMigrations, poolSize: 4, applicationName: 'rebuild-test' });
    await dataSource.initialize();
    await runMigrations(dataSource, POLICY_SCHEMA);
    const repository = new PoliciesRepository(dataSource);
    const outbox = new OutboxWriter(POLICY_SCHEMA);
    const signer = new SnapshotSigner(dataSource, { VIGIL_ENCRYPTION_KEYS: [SecretBox.generateKey()], POLICY_SIGNING_KEY_ROTATION_DAYS: 90 } as PolicyConfig, createLogger('test', 'silent'));
    await signer.onModuleInit();
    policies = new PoliciesService(dataSource, store, repository, outbox, new AuditTrail(outbox, 'policy', () => newId('event')), signer);
    violations = new ViolationsService(new ViolationsRepository(dataSource), policies);
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const readModels = async () => ({
    policies: await db.query(`SELECT * FROM policy.policies ORDER BY id`),
    stats: await db.query(`SELECT * FROM policy.violation_stats ORDER BY policy_id`),
  });

  it('reproduces the policies and counters after the tables were damaged, in process and through the npm command', async () => {
    const rules = { rules: [{ name: 'r', pattern: 'drop', action: 'block' }] };
    const a = await policies.create({ name: 'a', type: 'query_control', databases: ['db_a'], config: rules });
    const b = await policies.create({ name: 'b', type: 'query_control', databases: ['db_b'], config: rules, enabled: true, description: 'bee' });
    const c = await policies.create({ name: 'c', type: 'query_control', databases: ['*'], config: rules });
    await policies.update(a.id, { description: 'changed', databases: ['db_a', 'db_z'] });
    await policies.setEnabled(a.id, true);
    await policies.setEnabled(b.id, false);
    await policies.delete(c.id);
    await dataSource.transaction((manager) =>
      violations.record(manager, [1, 2, 3].map((i) => ({
        violation: { id: `vio_${i}`, policy_id: i < 3 ? a.id : c.id, timestamp: `2026-01-0${i}T00:00:00.000Z`, user: 'u', database: 'db_a', source_ip: null, query: 'drop', matched_conditions: ['query_pattern'], action_taken: 'blocked', severity: 'high' },
        event_id: `evt_${i}`,
        violation_event_id: `evt_v${i}`,
        policy_version: 1,
        reasons: [],
      }))),
    );
    const before = await readModels();
    expect(before.policies).toHaveLength(3);
    expect(Object.fromEntries(before.stats.map((s) => [s.policy_id, Number(s.violation_count)]))).toEqual({ [a.id]: 2, [c.id]: 1 });

    await db.query(`DELETE FROM policy.policies WHERE id = $1`, [a.id]);
    await db.query(`UPDATE policy.policies SET name = 'wrong', enabled = true WHERE id = $1`, [b.id]);
    await db.query(`UPDATE policy.violation_stats SET violation_count = 99`);
    expect(await readModels()).not.toEqual(before);

    const report = await rebuildProjections(dataSource, store, new PoliciesRepository(dataSource));
    expect(report).toEqual({ events: 7, policies: 3, violation_stats: 2 });
    expect(await readModels()).toEqual(before);

    await db.query(`DELETE FROM policy.policies`);
    const command = spawnTs('apps/policy/src/rebuild-projections.ts', { DATABASE_URL: db.url, LOG_LEVEL: 'info' });
    expect(await command.exited).toBe(0);
    expect(command.output()).toContain('policy read models rebuilt');
    expect(await readModels()).toEqual(before);
  }, 60_000);

  it('replays a stream stored before enforcement_mode existed as enforced, and switches it to shadow and back', async () => {
    const id = 'pol_legacystream00000000000001';
    const rules = { rules: [{ name: 'r', pattern: 'drop', action: 'block' }] };
    // Events exactly as they were stored before the field existed: no enforcement_mode anywhere.
    await dataSource.transaction((manager) =>
      store.append(manager, id, 0, [
        { type: 'policy.created', data: { id, name: 'legacy', type: 'query_control', enabled: true, description: '', databases: ['db_legacy'], config: rules, at: '2026-01-01T00:00:00.000Z' } },
        { type: 'policy.updated', data: { changes: { description: 'older change' }, at: '2026-01-02T00:00:00.000Z' } },
      ]),
    );
    await rebuildProjections(dataSource, store, new PoliciesRepository(dataSource));
    expect(await policies.get(id)).toMatchObject({ name: 'legacy', description: 'older change', enabled: true, enforcement_mode: 'enforce' });
    expect((await policies.snapshots()).find((p) => p.id === id)).toMatchObject({ version: 2, enforcement_mode: 'enforce' });
    expect((await policies.list({ enforcement_mode: 'enforce', database_id: 'db_legacy', page: 1, per_page: 10 })).data.map((p) => p.id)).toEqual([id]);

    const shadow = await policies.update(id, { enforcement_mode: 'shadow' });
    expect(shadow).toMatchObject({ enforcement_mode: 'shadow', description: 'older change', enabled: true });
    expect((await policies.list({ enforcement_mode: 'shadow', database_id: 'db_legacy', page: 1, per_page: 10 })).data.map((p) => p.id)).toEqual([id]);
    expect((await policies.list({ enforcement_mode: 'enforce', database_id: 'db_legacy', page: 1, per_page: 10 })).data).toEqual([]);
    // Setting the mode it already has is no change (no event).
    await policies.update(id, { enforcement_mode: 'shadow' });
    const events = await db.query<{ version: number; type: string; data: { changes: unknown } }>(`SELECT version, type, data FROM policy.event_store WHERE stream_id = $1 ORDER BY version`, [id]);
    expect(events.map((e) => [e.version, e.type])).toEqual([[1, 'policy.created'], [2, 'policy.updated'], [3, 'policy.updated']]);
    expect(events[2]!.data.changes).toEqual({ enforcement_mode: 'shadow' });
    // The announcement carries the mode, and is a valid policy.events.v1 message.
    const [message] = await db.query<{ value: string }>(`SELECT value FROM policy.outbox WHERE message_id = $1`, [`${id}:3`]);
    const announced = policyChangedValidator.validate(JSON.parse(message!.value));
    expect(announced.ok && announced.value.data).toMatchObject({ change: 'policy.updated', policy: { id, version: 3, enforcement_mode: 'shadow' } });

    // The projection rebuilt from the events agrees; and back to enforce.
    await db.query(`UPDATE policy.policies SET enforcement_mode = 'enforce' WHERE id = $1`, [id]);
    await rebuildProjections(dataSource, store, new PoliciesRepository(dataSource));
    expect((await policies.get(id)).enforcement_mode).toBe('shadow');
    expect((await policies.update(id, { enforcement_mode: 'enforce' })).enforcement_mode).toBe('enforce');
    expect((await policies.snapshots()).find((p) => p.id === id)).toMatchObject({ version: 4, enforcement_mode: 'enforce' });
    await expect(db.query(`UPDATE policy.policies SET enforcement_mode = 'maybe' WHERE id = $1`, [id])).rejects.toThrow(/policies_enforcement_mode/);
  }, 60_000);
});
