import { randomBytes } from 'node:crypto';
import { checkCheckpoint, signCheckpoint } from '@vigil/integrity';
import { AuditTrail, OutboxWriter } from '@vigil/messaging';
import { newId } from '@vigil/domain';
import { createLogger } from '@vigil/platform';
import { openEventIngestDatabase, type EventIngestTestDatabase } from '../testing/event-ingest-database';
import { SigningKeys } from './signing-keys.service';

/**
 * Checkpoint signing keys on a real PostgreSQL: generated on first start and sealed, rotated when
 * INTEGRITY_KEY_ROTATION_DAYS have passed (the schedule; on demand is the API's test), every key
 * kept published with its validity, and a key the configured encryption keys cannot open refused.
 */
describe('checkpoint signing keys', () => {
  const DAY = 86_400_000;
  const encryptionKey = randomBytes(32).toString('base64');
  let database: EventIngestTestDatabase;

  beforeAll(async () => {
    database = await openEventIngestDatabase('signing-keys-test');
  });

  afterAll(async () => {
    await database?.close();
  });

  const keysFor = (days: number, encryption = [encryptionKey]) =>
    new SigningKeys(
      database.dataSource,
      { VIGIL_ENCRYPTION_KEYS: encryption, INTEGRITY_KEY_ROTATION_DAYS: days },
      createLogger('test', 'silent'),
      new AuditTrail(new OutboxWriter('event_ingest'), 'event-ingest', () => newId('event')),
    );
  const rotations = () =>
    database.dataSource.query<{ reason: string; actor: string; before: string; after: string }[]>(
      `SELECT value::jsonb #>> '{data,reason}' AS reason, value::jsonb #>> '{data,actor,kind}' AS actor,
              value::jsonb #>> '{data,changes,before,key_id}' AS before, value::jsonb #>> '{data,changes,after,key_id}' AS after
         FROM event_ingest.outbox WHERE value::jsonb ->> 'type' = 'vigil.integrity_key.rotated' ORDER BY seq`,
    );

  it('makes one key on first start, then rotates on the schedule only once the active key is old enough', async () => {
    const keys = keysFor(30);
    await keys.onModuleInit();
    await keysFor(30).onModuleInit(); // a second replica starting finds the key
    const [first] = await keys.list();
    expect(await keys.list()).toHaveLength(1);
    expect(first).toMatchObject({ status: 'active', valid_until: null });
    const createdAt = Date.parse(first!.valid_from);

    expect(await keys.rotateIfDue(new Date(createdAt + 29 * DAY))).toBe(false);
    expect(await keysFor(0).rotateIfDue(new Date(createdAt + 365 * DAY))).toBe(false); // 0: on demand only
    expect(await keys.list()).toHaveLength(1);

    const signedBefore = signCheckpoint({ tree_size: 5, root_hash: 'ab'.repeat(32), timestamp: new Date().toISOString(), key_id: first!.key_id }, (await keys.signingKey()).privateKey);
    expect(await keys.rotateIfDue(new Date(createdAt + 31 * DAY))).toBe(true);
    const published = await keys.list();
    expect(published).toHaveLength(2);
    const [retired, active] = published;
    expect(retired).toMatchObject({ key_id: first!.key_id, status: 'retired' });
    expect(retired!.valid_until).not.toBeNull();
    expect(active).toMatchObject({ status: 'active', valid_until: null });
    expect((await keys.signingKey()).keyId).toBe(active!.key_id);
    // The retired key still verifies what it signed while valid.
    expect(checkCheckpoint(signedBefore, published)).toMatchObject({ ok: true });
    expect(await rotations()).toEqual([{ reason: 'scheduled', actor: 'system', before: first!.key_id, after: active!.key_id }]);
    // The new key is young: nothing more to do.
    expect(await keys.rotateIfDue(new Date(Date.parse(active!.valid_from) + 29 * DAY))).toBe(false);
  });

  it('stops the start when the stored key cannot be opened with the configured encryption keys', async () => {
    await expect(keysFor(30, [randomBytes(32).toString('base64')]).onModuleInit()).rejects.toThrow();
  });
});
