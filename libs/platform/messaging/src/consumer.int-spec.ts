import { deadLetterTopic, MessageHeaders } from '@vigil/contracts';
import { createServiceDataSource, runMigrations } from '@vigil/database';
import { createLogger, Registry } from '@vigil/platform';
import { createTestDatabase, type TestDatabase, waitFor } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import type { IncomingMessage } from './bus';
import { InboxConsumer } from './consumer';
import { consumerFixtureOptions, FIXTURE_SCHEMA, fixtureEnvelopes, fixtureMigrations } from './fixtures/messaging-fixture.shared';
import { MemoryBus } from './memory-bus';

const logger = createLogger('test', 'silent');

describe('InboxConsumer on PostgreSQL', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({ url: db.url, schema: FIXTURE_SCHEMA, migrations: fixtureMigrations, poolSize: 5, applicationName: 'test' });
    await dataSource.initialize();
    await runMigrations(dataSource, FIXTURE_SCHEMA);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  const asMessage = (e: ReturnType<typeof fixtureEnvelopes>[number]) => ({ key: e.key, value: JSON.stringify(e), headers: { [MessageHeaders.messageId]: e.id } });

  it('applies a message delivered twice once, and counts it as applied once and duplicate twice', async () => {
    const bus = new MemoryBus();
    const metrics = new Registry();
    const consumer = new InboxConsumer({ bus, dataSource, schema: FIXTURE_SCHEMA, logger, metrics }, consumerFixtureOptions('twice', 'twice-group'));
    const [envelope] = fixtureEnvelopes(1, 5000);
    const message: IncomingMessage = { topic: 'twice', partition: 0, offset: '0', ...asMessage(envelope!) };
    await consumer.processBatch([message]);
    await consumer.processBatch([{ ...message, offset: '1' }, message]);
    expect(await dataSource.query(`SELECT applied FROM fixture.effects WHERE message_id = 'msg-5000'`)).toEqual([{ applied: 1 }]);
    const text = await metrics.metrics();
    expect(text).toContain('vigil_consumer_messages_total{consumer="twice-group",topic="twice",outcome="applied"} 1');
    // The second batch holds the message twice: one inbox check, both counted as duplicates.
    expect(text).toContain('vigil_consumer_messages_total{consumer="twice-group",topic="twice",outcome="duplicate"} 2');
  });

  it('treats a run of handler failures as systemic: dead-letters no more than the threshold, then waits and resumes when fixed', async () => {
    const bus = new MemoryBus();
    const dead: IncomingMessage[] = [];
    await bus.subscribe({ groupId: 'dlq-tap', topics: [deadLetterTopic('systemic')], handler: async (m) => void dead.push(...m) });
    let broken = true;
    const options = consumerFixtureOptions('systemic', 'systemic-group');
    const consumer = new InboxConsumer(
      { bus, dataSource, schema: FIXTURE_SCHEMA, logger },
      {
        ...options,
        maxAttempts: 1,
        systemicFailureThreshold: 3,
        handle: async (manager, messages) => {
          if (broken) throw new Error('bad deploy');
          await options.handle(manager, messages);
        },
      },
    );
    await consumer.start();
    const envelopes = fixtureEnvelopes(8, 6000);
    void bus.publish([{ topic: 'systemic', messages: envelopes.map(asMessage) }]).catch(() => undefined);
    await waitFor(() => dead.length >= 3, 20_000, 'first dead letters');
    await new Promise((r) => setTimeout(r, 1500));
    expect(dead).toHaveLength(3);

    broken = false;
    // The batch was never committed, so all of it comes again: the three dead-lettered at the onset
    // are applied too (a later replay of their dead letters is de-duplicated by the inbox).
    const applied = async () => dataSource.query(`SELECT applied FROM fixture.effects WHERE message_id >= 'msg-6000' AND message_id < 'msg-7000'`);
    await waitFor(async () => (await applied()).length === 8, 30_000, 'the held messages applied');
    expect((await applied()).every((r: { applied: number }) => r.applied === 1)).toBe(true);
    expect(dead).toHaveLength(3);
    await consumer.stop();
    await bus.close();
  });
});
