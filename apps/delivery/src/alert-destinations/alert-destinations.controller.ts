import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type AlertDeliveryResponse,
  type AlertDestinationInput,
  type AlertDestinationResponse,
  type AlertIdRequest,
  type AlertPage,
  type DestinationDeliveriesRequest,
  RpcPatterns,
  type TestAlertRequest,
  type TestAlertResponse,
  type UpdateAlertDestinationRequest,
  type WebhookPageRequest,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { AlertDestinationsService } from './alert-destinations.service';

/** The gateway's calls for /v1/alert-destinations and POST /v1/alerts/test. */
@Controller()
export class AlertDestinationsController {
  constructor(@Inject(AlertDestinationsService) private readonly destinations: AlertDestinationsService) {}

  @MessagePattern(RpcPatterns.alertDestinations.create)
  create(@RpcPayload() request: AlertDestinationInput): Promise<AlertDestinationResponse> {
    return this.destinations.create(request);
  }

  @MessagePattern(RpcPatterns.alertDestinations.list)
  list(@RpcPayload() request: WebhookPageRequest): Promise<AlertPage<AlertDestinationResponse>> {
    return this.destinations.list(request.page, request.per_page);
  }

  @MessagePattern(RpcPatterns.alertDestinations.get)
  get(@RpcPayload() request: AlertIdRequest): Promise<AlertDestinationResponse> {
    return this.destinations.get(request.id);
  }

  @MessagePattern(RpcPatterns.alertDestinations.update)
  update(@RpcPayload() request: UpdateAlertDestinationRequest): Promise<AlertDestinationResponse> {
    return this.destinations.update(request.id, request.changes);
  }

  @MessagePattern(RpcPatterns.alertDestinations.delete)
  delete(@RpcPayload() request: AlertIdRequest): Promise<{ deleted: boolean; id: string }> {
    return this.destinations.delete(request.id);
  }

  @MessagePattern(RpcPatterns.alertDestinations.deliveries)
  deliveries(@RpcPayload() request: DestinationDeliveriesRequest): Promise<AlertPage<AlertDeliveryResponse>> {
    return this.destinations.deliveriesOf(request);
  }

  @MessagePattern(RpcPatterns.alerts.test)
  test(@RpcPayload() request: TestAlertRequest): Promise<TestAlertResponse> {
    return this.destinations.test(request.destination_id);
  }
}
