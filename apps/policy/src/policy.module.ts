import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@vigil/database';
import { newId } from '@vigil/domain';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { policyDatabase } from './database/policy.database';
import { policyEventStoreProvider } from './policies/event-store.provider';
import { PoliciesController } from './policies/policies.controller';
import { PoliciesRepository } from './policies/policies.repository';
import { PoliciesService } from './policies/policies.service';
import { SnapshotSigner } from './signing/snapshot-signer';
import { ViolationsConsumer } from './violations/violations.consumer';
import { ViolationsRepository } from './violations/violations.repository';
import { ViolationsService } from './violations/violations.service';

@Module({})
export class PolicyModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: PolicyModule,
      imports: [
        PlatformModule.forService(context),
        DatabaseModule.forService(policyDatabase),
        MessagingModule.forService({ newEventId: () => newId('event') }),
      ],
      controllers: [PoliciesController],
      providers: [
        policyEventStoreProvider,
        PoliciesRepository,
        PoliciesService,
        SnapshotSigner,
        ViolationsRepository,
        ViolationsService,
        ViolationsConsumer,
      ],
    };
  }
}
