import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@vigil/database';
import { newId } from '@vigil/domain';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { eventIngestDatabase } from './database/event-ingest.database';
import { DatabasesModule } from './databases/databases.module';
import { EnforcementModule } from './enforcement/enforcement.module';
import { EventsController } from './events/events.controller';
import { EventPartitions } from './events/event-partitions.service';
import { CommittedEvents } from './events/committed-events';
import { EventsRelay } from './events/events.relay';
import { EventsRepository } from './events/events.repository';
import { EventsService } from './events/events.service';
import { PartitionsRepository } from './events/partitions.repository';
import { AuditIngestConsumer } from './ingest/audit-ingest.consumer';
import { IngestController } from './ingest/ingest.controller';
import { IngestService } from './ingest/ingest.service';
import { CommittedLeaves } from './integrity/committed-leaves';
import { IntegrityController } from './integrity/integrity.controller';
import { IntegrityService } from './integrity/integrity.service';
import { SigningKeys } from './integrity/signing-keys.service';
import { TreeBuilder } from './integrity/tree-builder.service';
import { TreeRepository } from './integrity/tree.repository';
import { VerificationJobs } from './integrity/verification.service';
import { ReportsModule } from './reports/reports.module';

@Module({})
export class EventIngestModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: EventIngestModule,
      imports: [
        PlatformModule.forService(context),
        DatabaseModule.forService(eventIngestDatabase),
        MessagingModule.forService({ newEventId: () => newId('event') }),
        EnforcementModule,
        DatabasesModule,
        ReportsModule,
      ],
      controllers: [IngestController, EventsController, IntegrityController],
      providers: [EventsRepository, CommittedEvents, EventsService, EventsRelay, PartitionsRepository, EventPartitions, IngestService, AuditIngestConsumer,
        TreeRepository, CommittedLeaves, SigningKeys, TreeBuilder, IntegrityService, VerificationJobs],
    };
  }
}
