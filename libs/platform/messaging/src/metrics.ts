import { Counter, Gauge, type Registry } from '@vigil/platform';

export interface MessagingMetrics {
  consumed: Counter<'consumer' | 'topic' | 'outcome'>;
  lag: Gauge<'group' | 'topic' | 'partition'>;
  published: Counter<'schema'>;
}

const byRegistry = new WeakMap<Registry, MessagingMetrics>();

/** Metrics of the bus, consumers and outbox, created once per service registry. */
export function messagingMetrics(registry: Registry): MessagingMetrics {
  let metrics = byRegistry.get(registry);
  if (!metrics) {
    metrics = {
      consumed: new Counter({
        name: 'vigil_consumer_messages_total',
        help: 'Messages handled by consumers, by outcome: applied, duplicate (already in the inbox), dead_lettered',
        labelNames: ['consumer', 'topic', 'outcome'],
        registers: [registry],
      }),
      lag: new Gauge({
        name: 'vigil_consumer_lag',
        help: 'Messages between the committed offset and the end of the partition, as of the batch in hand or the last one committed',
        labelNames: ['group', 'topic', 'partition'],
        registers: [registry],
      }),
      published: new Counter({
        name: 'vigil_outbox_published_total',
        help: 'Messages published from the outbox',
        labelNames: ['schema'],
        registers: [registry],
      }),
    };
    byRegistry.set(registry, metrics);
  }
  return metrics;
}

/** Outbox backlog and the age of its oldest row, read from the database when scraped. */
export function registerOutboxGauges(registry: Registry, schema: string, backlog: () => Promise<{ count: number; oldestAgeSeconds: number }>) {
  let last: Promise<{ count: number; oldestAgeSeconds: number }> | undefined;
  const read = () => (last ??= backlog().finally(() => setTimeout(() => (last = undefined), 500)));
  new Gauge({
    name: 'vigil_outbox_backlog',
    help: 'Messages waiting in the outbox',
    labelNames: ['schema'],
    registers: [registry],
    async collect() {
      const { count } = await read().catch(() => ({ count: -1, oldestAgeSeconds: -1 }));
      this.set({ schema }, count);
    },
  });
  new Gauge({
    name: 'vigil_outbox_oldest_age_seconds',
    help: 'Age of the oldest message waiting in the outbox (0 when empty)',
    labelNames: ['schema'],
    registers: [registry],
    async collect() {
      const { oldestAgeSeconds } = await read().catch(() => ({ count: -1, oldestAgeSeconds: -1 }));
      this.set({ schema }, oldestAgeSeconds);
    },
  });
}
