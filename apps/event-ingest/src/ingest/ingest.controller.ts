import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { type IngestRequest, type IngestResponse, RpcPatterns } from '@vigil/contracts';
import { currentRequestOrigin, DomainException, RpcPayload } from '@vigil/platform';
import { IngestService } from './ingest.service';

@Controller()
export class IngestController {
  constructor(@Inject(IngestService) private readonly ingest: IngestService) {}

  @MessagePattern(RpcPatterns.events.ingest)
  async ingestBatch(@RpcPayload() request: IngestRequest): Promise<IngestResponse> {
    if (!Array.isArray(request?.records)) throw DomainException.validation([{ field: 'events', message: 'must be an array' }]);
    const records = this.ingest.validate(request.records);
    // The credential the gateway authenticated (never anything from the body).
    const actor = currentRequestOrigin()?.actor;
    const ingestedBy = actor && actor.id && actor.kind !== 'anonymous' && actor.kind !== 'system' ? { kind: actor.kind, id: actor.id } : null;
    const ids = await this.ingest.ingest(records, ingestedBy);
    return { accepted: ids.length, ids };
  }
}
