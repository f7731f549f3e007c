import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type CreatedWebhookFormA,
  type CreatedWebhookFormB,
  type CreateWebhookRequest,
  type DeliveryIdRequest,
  type DeliveryResponse,
  type ListDeliveriesRequest,
  type WebhookPage,
  type WebhookPageRequest,
  type RedeliverRequest,
  RpcPatterns,
  type TestDeliveryResponse,
  type TestWebhookRequest,
  type UpdateWebhookRequest,
  type WebhookIdRequest,
  type WebhookResponse,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { WebhooksService } from './webhooks.service';

/** The gateway's calls for /v1/webhooks (shapes were validated there; meaning is checked here). */
@Controller()
export class WebhooksController {
  constructor(@Inject(WebhooksService) private readonly webhooks: WebhooksService) {}

  @MessagePattern(RpcPatterns.webhooks.create)
  create(@RpcPayload() request: CreateWebhookRequest): Promise<CreatedWebhookFormA | CreatedWebhookFormB> {
    return this.webhooks.create(request);
  }

  @MessagePattern(RpcPatterns.webhooks.list)
  list(@RpcPayload() request: WebhookPageRequest): Promise<WebhookPage<WebhookResponse>> {
    return this.webhooks.list(request.page, request.per_page);
  }

  @MessagePattern(RpcPatterns.webhooks.get)
  get(@RpcPayload() request: WebhookIdRequest): Promise<WebhookResponse> {
    return this.webhooks.get(request.id);
  }

  @MessagePattern(RpcPatterns.webhooks.update)
  update(@RpcPayload() request: UpdateWebhookRequest): Promise<WebhookResponse> {
    return this.webhooks.update(request);
  }

  @MessagePattern(RpcPatterns.webhooks.delete)
  delete(@RpcPayload() request: WebhookIdRequest): Promise<{ deleted: boolean; id: string }> {
    return this.webhooks.delete(request.id);
  }

  @MessagePattern(RpcPatterns.webhooks.test)
  test(@RpcPayload() request: TestWebhookRequest): Promise<TestDeliveryResponse> {
    return this.webhooks.test(request.id, request.event_type);
  }

  @MessagePattern(RpcPatterns.webhooks.deliveries)
  deliveries(@RpcPayload() request: ListDeliveriesRequest): Promise<WebhookPage<DeliveryResponse>> {
    return this.webhooks.deliveriesOf(request);
  }

  @MessagePattern(RpcPatterns.webhooks.delivery)
  delivery(@RpcPayload() request: DeliveryIdRequest): Promise<DeliveryResponse> {
    return this.webhooks.delivery(request.id, request.delivery_id);
  }

  @MessagePattern(RpcPatterns.webhooks.redeliverOne)
  redeliverOne(@RpcPayload() request: DeliveryIdRequest): Promise<DeliveryResponse> {
    return this.webhooks.redeliverOne(request.id, request.delivery_id);
  }

  @MessagePattern(RpcPatterns.webhooks.redeliver)
  redeliver(@RpcPayload() request: RedeliverRequest): Promise<{ redelivered: number; delivery_ids: string[] }> {
    return this.webhooks.redeliver(request);
  }
}
