import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import {
  type EventFilters,
  type EventPositionRequest,
  type EventPositionResponse,
  type ReplayEventsRequest,
  type ReplayEventsResponse,
  RpcPatterns,
} from '@vigil/contracts';
import { CommonErrorCode, CONFIG, DomainException, Gauge, LOGGER, type Logger, Registry } from '@vigil/platform';
import type { GatewayConfig } from '../../gateway.service-definition';
import type { Principal } from '../../auth/principal';
import { RevocationsSubscriber } from '../../auth/revocations.subscriber';
import { RateLimiter } from '../../rate-limit/rate-limiter';
import { RpcClients } from '../../rpc/rpc-clients';
import { EventsApiErrorCode } from '../event-filters';
import { type CredentialEnd, expiryEnd, revocationEnds, revokedEnd, watchExpiry } from './credential-watch';
import { EventStreamHub } from './event-stream.hub';
import { StreamLimits } from './stream-limits';
import { type SseSink, StreamSession } from './stream-session';

/** Opens SSE streams: quota per credential, resume position, registration with the hub. */
@Injectable()
export class EventStreamService implements BeforeApplicationShutdown {
  private readonly limits: StreamLimits;
  private readonly logger: Logger;
  /** The credential each open stream was opened with: a revocation or expiry closes the stream. */
  private readonly credentials = new Map<StreamSession, Principal>();

  constructor(
    @Inject(EventStreamHub) private readonly hub: EventStreamHub,
    @Inject(RpcClients) private readonly rpc: RpcClients,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(Registry) metrics: Registry,
    @Inject(RateLimiter) rateLimiter: RateLimiter,
    @Inject(RevocationsSubscriber) private readonly revocations: RevocationsSubscriber,
  ) {
    // Revocations reach every replica (auth.credential-revocations.v1): each closes its own streams.
    revocations.onRevoked((revoked) => {
      for (const [session, principal] of this.credentials) {
        const end = revocationEnds(principal, revoked);
        if (end) this.end(session, end);
      }
    });
    this.logger = logger.child({ component: 'event-stream' });
    this.limits = new StreamLimits({
      perCredential: config.STREAM_MAX_PER_CREDENTIAL,
      redis: rateLimiter.sharedRedis,
      prefix: `vigil:${config.KAFKA_TOPIC_PREFIX}`,
      logger: this.logger,
    });
    new Gauge({
      name: 'vigil_sse_connections',
      help: 'Open Server-Sent Events streams on this gateway replica',
      registers: [metrics],
      collect() {
        this.set(hub.size);
      },
    });
  }

  /**
   * Everything that can refuse the stream happens here, before any byte is sent, so refusals
   * are ordinary problem documents (429, 400, 503). Returns a function that starts streaming.
   */
  async open(principal: Principal, filters: EventFilters, lastEventId: string | undefined): Promise<(sink: SseSink) => StreamSession> {
    const credentialId = principal.credentialId;
    const release = await this.limits.acquire(credentialId);
    try {
      if (!(await this.hub.ready(5000))) {
        throw new DomainException(503, EventsApiErrorCode.StreamUnavailable, 'The event stream is starting; try again shortly.', undefined, { 'Retry-After': '2' });
      }
      let after: bigint | undefined;
      if (lastEventId !== undefined) {
        const position = await this.rpc.events.call<EventPositionRequest, EventPositionResponse>(RpcPatterns.events.position, { id: lastEventId });
        if (position.seq === null) {
          throw new DomainException(
            400,
            EventsApiErrorCode.UnknownLastEventId,
            `No stored event has the id "${lastEventId}" (it may be past retention); reconnect without Last-Event-ID to start live.`,
            [{ field: 'Last-Event-ID', message: 'is not the id of a stored event' }],
          );
        }
        after = BigInt(position.seq);
      }
      return (sink) => {
        let stopWatching: () => void = () => undefined;
        const session: StreamSession = new StreamSession(sink, {
          filters,
          after,
          maxBufferBytes: this.config.STREAM_BUFFER_BYTES,
          closeGraceMs: this.config.STREAM_CLOSE_GRACE_MS,
          maxQueuedDuringReplay: 10_000,
          replay: (request) => this.rpc.events.call<ReplayEventsRequest, ReplayEventsResponse>(RpcPatterns.events.replay, request),
          position: () => this.hub.position ?? 0n,
          logger: this.logger,
          onClose: (reason) => {
            this.hub.remove(session);
            this.credentials.delete(session);
            stopWatching();
            release();
            if (reason !== 'client_closed') this.logger.info({ credential_id: credentialId, reason }, 'event stream closed by the server');
          },
        });
        this.hub.add(session);
        this.credentials.set(session, principal);
        // A stream lives no longer than its credential (access token exp, API key expires_at).
        stopWatching = watchExpiry(principal.expiresAtMs, () => this.end(session, expiryEnd(principal)));
        void session.start();
        // A revocation that arrived between the authentication and now found no stream to close.
        if (this.revocations.revokedSince(principal)) {
          this.end(session, principal.kind === 'api_key' ? revokedEnd('api_key_revoked') : revokedEnd('session_revoked'));
        }
        return session;
      };
    } catch (error) {
      release();
      if (error instanceof DomainException) throw error;
      throw new DomainException(503, CommonErrorCode.ServiceUnavailable, 'The event stream is unavailable.', undefined, { 'Retry-After': '2' });
    }
  }

  private end(session: StreamSession, end: CredentialEnd) {
    session.close(end.reason, end.detail, undefined, 'stream.closed');
  }

  /**
   * Streams never end on their own, and the HTTP server waits for open connections before it
   * closes: end every stream first (clients reconnect with Last-Event-ID, to another replica).
   */
  async beforeApplicationShutdown() {
    this.hub.closeAll('shutting_down', 'This server is shutting down; reconnect with Last-Event-ID to resume.', 1000);
    await this.limits.close();
  }
}
