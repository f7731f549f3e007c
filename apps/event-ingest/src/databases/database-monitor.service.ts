import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  type AuditEvent,
  type DatabaseConnectionState,
  type DatabaseStatusChanged,
  type EventEnvelope,
  policyChangedValidator,
  Topics,
} from '@vigil/contracts';
import { OutboxWriter, jsonWithHeaderId, MessagingRuntime } from '@vigil/messaging';
import { CONFIG, LOGGER, type Logger } from '@vigil/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { type ActivityOutcome, type DatabaseActivity, DatabasesRepository } from './databases.repository';

const MONITOR_LOCK = `hashtext('event_ingest.database-monitor')`;

const WEBHOOK_TYPE: Record<DatabaseConnectionState, string | null> = {
  connected: 'database.connected',
  disconnected: 'database.disconnected',
  error: 'database.error',
  unknown: null,
};

/** Sums a batch of stored events per database (pure; see databases.spec.ts). */
export function summariseActivity(events: Pick<AuditEvent, 'type' | 'severity' | 'database_id' | 'timestamp' | 'details'>[]): DatabaseActivity[] {
  const byDatabase = new Map<string, { activity: DatabaseActivity; firstMs: number; lastMs: number }>();
  for (const event of events) {
    const at = Date.parse(event.timestamp);
    let entry = byDatabase.get(event.database_id);
    if (!entry) {
      entry = {
        activity: { database_id: event.database_id, first: event.timestamp, last: event.timestamp, info: 0, warning: 0, critical: 0, error: null },
        firstMs: at,
        lastMs: at,
      };
      byDatabase.set(event.database_id, entry);
    }
    const a = entry.activity;
    if (at < entry.firstMs) {
      entry.firstMs = at;
      a.first = event.timestamp;
    }
    if (at > entry.lastMs) {
      entry.lastMs = at;
      a.last = event.timestamp;
    }
    a[event.severity] += 1;
    const error = (event.details as Record<string, unknown>).error;
    if (event.type === 'database.disconnect' && typeof error === 'string' && error) a.error = error.slice(0, 500);
  }
  return [...byDatabase.values()].map((e) => e.activity);
}

/**
 * Watches each database's event flow (docs/reports.md#connection-events):
 * - events arrive for a database not `connected` -> `database.connected` (in the ingest transaction);
 * - an agent reports `database.disconnect` with `details.error` -> `database.error`;
 * - a connected database silent for DATABASE_SILENCE_SECONDS -> `database.disconnected` (sweep).
 * Also registers databases named by policies as discovered (consumer of policy.events.v1).
 */
@Injectable()
export class DatabaseMonitor implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DatabasesRepository) private readonly repository: DatabasesRepository,
    @Inject(OutboxWriter) private readonly outbox: OutboxWriter,
    @Inject(MessagingRuntime) private readonly messaging: MessagingRuntime,
    @Inject(CONFIG) private readonly config: EventIngestConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit() {
    this.messaging.addConsumer<string[]>({
      name: 'event-ingest.database-discovery',
      topics: [Topics.policyEvents],
      decode: (message) => {
        const decoded = jsonWithHeaderId(message, (v) => policyChangedValidator.validate(v));
        return decoded.ok ? { ok: true, messageId: decoded.messageId, value: decoded.value.data.policy.databases.filter((d) => d.startsWith('db_')) } : decoded;
      },
      handle: async (manager, messages) => {
        await this.repository.discover(manager, [...new Set(messages.flatMap((m) => m.value))]);
      },
    });
  }

  onApplicationBootstrap() {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'database monitor sweep failed'))
        .finally(() => (this.sweeping = undefined));
    }, this.config.DATABASE_MONITOR_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown() {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** The ingest hook: one upsert for the batch, plus the status-change messages, in its transaction. */
  async record(manager: EntityManager, events: AuditEvent[]): Promise<void> {
    const changes = await this.repository.recordActivity(manager, summariseActivity(events));
    await this.announce(manager, changes, (c) => (c.current === 'error' ? 'agent_reported_error' : 'events_received'));
  }

  /** Declares silent databases disconnected; one instance at a time. */
  async sweep(now = new Date()): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = (await manager.query(`SELECT pg_try_advisory_xact_lock(${MONITOR_LOCK}) AS locked`)) as { locked: boolean }[];
      if (!locked) return 0;
      const silent = await this.repository.markSilent(manager, new Date(now.getTime() - this.config.DATABASE_SILENCE_SECONDS * 1000));
      await this.announce(manager, silent, () => 'no_events');
      return silent.length;
    });
  }

  private async announce(manager: EntityManager, changes: ActivityOutcome[], reason: (c: ActivityOutcome) => string): Promise<void> {
    const changedAt = new Date().toISOString();
    const envelopes: EventEnvelope<DatabaseStatusChanged>[] = [];
    for (const change of changes) {
      const type = WEBHOOK_TYPE[change.current];
      if (!type) continue;
      const data: DatabaseStatusChanged = {
        database_id: change.id,
        name: change.name,
        database_type: change.type,
        environment: change.environment,
        status: change.status,
        connection_status: change.current,
        previous_connection_status: change.previous,
        reason: reason(change),
        last_event_at: change.last_event_at ? new Date(change.last_event_at).toISOString() : null,
        changed_at: changedAt,
      };
      if (change.current === 'error' && change.last_error) data.message = change.last_error;
      envelopes.push({ id: randomUUID(), type, schema_version: 1, occurred_at: changedAt, key: change.id, data });
    }
    await this.outbox.enqueue(manager, Topics.databaseStatus, envelopes);
  }
}
