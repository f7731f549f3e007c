import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { TopicSpecs, type TopicSpec } from '@vigil/contracts';
import { DATABASE_SCHEMA } from '@vigil/database';
import { SERVICE_CONTEXT, type ServiceContext } from '@vigil/platform';
import { DataSource } from 'typeorm';
import type { MessageBus } from './bus';
import { InboxConsumer, type InboxConsumerOptions } from './consumer';
import { KafkaBus } from './kafka-bus';
import { describeKafkaSecurity, kafkaSecurity } from './kafka-security';
import { assertKafkajsInternals } from './kafkajs-pin';
import { sharedMemoryBus } from './memory-bus';
import { OutboxRelay, OutboxWriter } from './outbox';
import { AuditTrail } from './audit-trail';

export const MESSAGE_BUS = Symbol('MESSAGE_BUS');

export function createBus(context: ServiceContext): MessageBus {
  // Every service, on either bus: an install that does not match the pinned kafkajs is refused at
  // once (here, in CI and on the laptop too) rather than when a deployment switches to Kafka.
  assertKafkajsInternals();
  const { config, logger } = context;
  if (config.KAFKA_BROKERS?.length) {
    const security = kafkaSecurity(config, context.name);
    logger.info({ brokers: config.KAFKA_BROKERS, kafka_security: describeKafkaSecurity(security) }, 'Kafka client');
    return new KafkaBus({
      brokers: config.KAFKA_BROKERS,
      clientId: `${config.KAFKA_CLIENT_ID}-${context.name}`,
      prefix: config.KAFKA_TOPIC_PREFIX,
      logger,
      metrics: context.metrics,
      security,
    });
  }
  return sharedMemoryBus();
}

/**
 * Owns the service's messaging lifecycle: consumers start after every module is ready and stop
 * first at shutdown (committing what they finished); the relay stops next, draining the outbox;
 * the bus closes last.
 */
@Injectable()
export class MessagingRuntime implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly consumers: InboxConsumer<unknown>[] = [];
  readonly relay: OutboxRelay | undefined;

  constructor(
    @Inject(MESSAGE_BUS) readonly bus: MessageBus,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
    @Optional() @Inject(DataSource) private readonly dataSource?: DataSource,
    @Optional() @Inject(DATABASE_SCHEMA) private readonly schema?: string,
  ) {
    if (dataSource && schema) {
      this.relay = new OutboxRelay({ dataSource, schema, bus, logger: context.logger.child({ component: 'outbox' }), pollMs: context.config.OUTBOX_POLL_MS, metrics: context.metrics, tracer: context.tracer });
    }
  }

  /** Registers a consumer; call from a feature's onModuleInit. */
  addConsumer<T>(options: InboxConsumerOptions<T>): InboxConsumer<T> {
    if (!this.dataSource || !this.schema) throw new Error('consumers need DatabaseModule in the service');
    const consumer = new InboxConsumer<T>({ bus: this.bus, dataSource: this.dataSource, schema: this.schema, logger: this.context.logger, metrics: this.context.metrics, tracer: this.context.tracer }, options);
    this.consumers.push(consumer as InboxConsumer<unknown>);
    return consumer;
  }

  async onApplicationBootstrap() {
    if (this.bus instanceof KafkaBus) await this.bus.verifyAccess();
    for (const consumer of this.consumers) await consumer.start();
    await this.relay?.start();
  }

  async onModuleDestroy() {
    await this.context.shutdown.step('consumers stop (batches in hand finish, offsets committed)', () => Promise.all(this.consumers.map((c) => c.stop())));
  }

  async beforeApplicationShutdown() {
    if (this.relay) await this.context.shutdown.step('outbox relay drain', () => this.relay!.stop());
  }

  async onApplicationShutdown() {
    if (this.bus.kind === 'kafka') await this.context.shutdown.step('Kafka clients disconnect', () => this.bus.close());
  }
}

@Global()
@Module({})
export class MessagingModule {
  /**
   * `newEventId` (`() => newId('event')`) enables the service's AuditTrail: the services that own
   * state changed through the API record their vigil.* events with it.
   */
  static forService(options: { topics?: readonly TopicSpec[]; newEventId?: () => string } = {}): DynamicModule {
    return {
      module: MessagingModule,
      providers: [
        {
          provide: MESSAGE_BUS,
          inject: [SERVICE_CONTEXT],
          useFactory: async (context: ServiceContext) => {
            const bus = createBus(context);
            await bus.ensureTopics(options.topics ?? TopicSpecs);
            context.readiness.register('broker', () => bus.ping());
            return bus;
          },
        },
        {
          provide: OutboxWriter,
          inject: [{ token: DATABASE_SCHEMA, optional: true }],
          useFactory: (schema?: string) => (schema ? new OutboxWriter(schema) : undefined),
        },
        {
          provide: AuditTrail,
          inject: [SERVICE_CONTEXT, { token: OutboxWriter, optional: true }],
          useFactory: (context: ServiceContext, outbox?: OutboxWriter) =>
            outbox && options.newEventId ? new AuditTrail(outbox, context.name, options.newEventId) : undefined,
        },
        MessagingRuntime,
      ],
      exports: [MESSAGE_BUS, OutboxWriter, AuditTrail, MessagingRuntime],
    };
  }
}
