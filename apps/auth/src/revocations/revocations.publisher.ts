import { Inject, Injectable } from '@nestjs/common';
import { CREDENTIAL_REVOKED_EVENT, type CredentialRevoked, type EventEnvelope, Topics } from '@vigil/contracts';
import { ulid } from '@vigil/domain';
import { OutboxWriter } from '@vigil/messaging';
import type { EntityManager } from 'typeorm';

/**
 * Announces revoked credentials on `auth.credential-revocations.v1` through the outbox, in the
 * transaction that revokes them: every gateway replica evicts its cache or deny-lists the id.
 */
@Injectable()
export class RevocationsPublisher {
  constructor(@Inject(OutboxWriter) private readonly outbox: OutboxWriter) {}

  async publish(manager: EntityManager, revoked: CredentialRevoked[]): Promise<void> {
    const now = new Date().toISOString();
    const envelopes: EventEnvelope<CredentialRevoked>[] = revoked.map((data) => ({
      id: `rev_${ulid()}`,
      type: CREDENTIAL_REVOKED_EVENT,
      schema_version: 1,
      occurred_at: now,
      key: data.id,
      data,
    }));
    await this.outbox.enqueue(manager, Topics.credentialRevocations, envelopes);
  }
}
