import { type DynamicModule, Module } from '@nestjs/common';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { accessControllers, accessProviders } from './auth/access.providers';
import { DatabasesController } from './databases/databases.controller';
import { IntegrityController } from './integrity/integrity.controller';
import { EventsController } from './events/events.controller';
import { PoliciesController } from './policies/policies.controller';
import { EventStreamHub } from './events/stream/event-stream.hub';
import { EventStreamService } from './events/stream/event-stream.service';
import { ReportSchedulesController } from './reports/report-schedules.controller';
import { ReportsController } from './reports/reports.controller';
import { RpcClients } from './rpc/rpc-clients';
import { WebhooksController } from './webhooks/webhooks.controller';
import { AlertsController } from './alerts/alerts.controller';
import { AlertDestinationsController } from './alert-destinations/alert-destinations.controller';

@Module({})
export class GatewayModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: GatewayModule,
      imports: [PlatformModule.forService(context), MessagingModule.forService()],
      controllers: [...accessControllers, EventsController, WebhooksController, PoliciesController, AlertsController, AlertDestinationsController, DatabasesController, ReportsController, ReportSchedulesController, IntegrityController],
      providers: [RpcClients, ...accessProviders, EventStreamHub, EventStreamService],
    };
  }
}
