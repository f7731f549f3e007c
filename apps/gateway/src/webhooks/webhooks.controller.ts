import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiExtension,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
  ApiBadRequestResponse,
} from '@nestjs/swagger';
import {
  type CreatedWebhookFormA,
  type CreatedWebhookFormB,
  type CreateWebhookRequest,
  type DeliveryIdRequest,
  type DeliveryResponse,
  type ListDeliveriesRequest,
  type RedeliverRequest,
  RpcPatterns,
  type TestDeliveryResponse,
  type TestWebhookRequest,
  type UpdateWebhookRequest,
  type WebhookIdRequest,
  type WebhookPage,
  type WebhookPageRequest,
  type WebhookResponse,
  patternNeedsLogScope,
} from '@vigil/contracts';
import { hasScope, insufficientScope, RequireScope } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { RpcClients } from '../rpc/rpc-clients';
import {
  CreateWebhookDto,
  DeliveryView,
  ListDeliveriesQueryDto,
  PageQueryDto,
  RedeliverDto,
  TestWebhookDto,
  UpdateWebhookDto,
  WebhookView,
} from './webhooks.dto';

const READ = 'read:alerts';
const WRITE = 'write:alerts';
const LOGS = 'read:logs';

/** Audit log event types reach a subscriber's URL: subscribing to them also needs `read:logs`. */
function requireLogScopeFor(principal: Principal, events: string[] | undefined): void {
  if (!events || hasScope(principal, LOGS)) return;
  const audit = events.find(patternNeedsLogScope);
  if (audit !== undefined) throw insufficientScope(LOGS, `Subscribing to "${audit}" (audit log events) needs the scope "${LOGS}" as well as "${WRITE}".`);
}

/** /v1/webhooks: thin; the delivery service owns subscriptions, deliveries and their rules. */
@ApiTags('webhooks')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ description: 'Missing or invalid credentials (problem document).' })
@ApiForbiddenResponse({ description: 'The credential lacks the scope (problem document).' })
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  @Post()
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Create a webhook subscription', description: 'Subscribing to audit log event types (`*`, or a type or pattern of the `database`, `user`, `data` or `vigil` families) also needs `read:logs` (403 `insufficient_scope` naming it otherwise). With `secret`: form A (answer: id, url, events, status, created_at). Without: form B (answer includes the generated `secret`, shown only here). Deliveries of both forms carry the X-Service-* headers of their form and the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature`, keyed by the UTF-8 bytes of the secret (see the `webhooks` section of this document).' })
  @ApiCreatedResponse({ description: 'Created.' })
  @ApiBadRequestResponse({ description: 'Malformed body, missing field, unknown field, or an unparseable URL.' })
  @ApiUnprocessableEntityResponse({ description: 'Unknown event type (`unknown_event_type`) or a URL that is not https:// on a public address (`webhook_url_not_allowed`).' })
  create(@Body() body: CreateWebhookDto, @Req() req: { user: Principal }): Promise<CreatedWebhookFormA | CreatedWebhookFormB> {
    requireLogScopeFor(req.user, body.events);
    return this.rpc.delivery.call<CreateWebhookRequest, CreatedWebhookFormA | CreatedWebhookFormB>(RpcPatterns.webhooks.create, {
      url: body.url,
      events: body.events,
      ...(body.secret !== undefined ? { secret: body.secret } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
    });
  }

  @Get()
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'List webhook subscriptions (newest first; secrets are never returned)' })
  @ApiOkResponse({ description: '`{data, pagination}`.' })
  list(@Query() query: PageQueryDto): Promise<WebhookPage<WebhookResponse>> {
    return this.rpc.delivery.call<WebhookPageRequest, WebhookPage<WebhookResponse>>(RpcPatterns.webhooks.list, {
      page: query.page ?? 1,
      per_page: query.per_page ?? 20,
    });
  }

  @Get(':webhook_id')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Get one webhook subscription (its form included, its secret never)' })
  @ApiOkResponse({ type: WebhookView })
  @ApiNotFoundResponse({ description: '`webhook_not_found`.' })
  get(@Param('webhook_id') id: string): Promise<WebhookResponse> {
    return this.rpc.delivery.call<WebhookIdRequest, WebhookResponse>(RpcPatterns.webhooks.get, { id });
  }

  @Patch(':webhook_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Update `events`, `active`, `url` or `description`', description: 'A new url, or `active: true`, clears a failing flag and sends the held deliveries. A url change keeps the signing secret (a signing key, never sent to the receiver); subscriptions store no other credential. New `events` naming audit log event types (`*`, or a type or pattern of the `database`, `user`, `data` or `vigil` families) also need `read:logs` (403 `insufficient_scope` naming it otherwise).' })
  @ApiOkResponse({ type: WebhookView })
  @ApiNotFoundResponse({ description: '`webhook_not_found`.' })
  @ApiUnprocessableEntityResponse({ description: 'Unknown event type or URL not allowed.' })
  update(@Param('webhook_id') id: string, @Body() body: UpdateWebhookDto, @Req() req: { user: Principal }): Promise<WebhookResponse> {
    requireLogScopeFor(req.user, body.events);
    return this.rpc.delivery.call<UpdateWebhookRequest, WebhookResponse>(RpcPatterns.webhooks.update, {
      id,
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events !== undefined ? { events: body.events } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
    });
  }

  @Delete(':webhook_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Delete a webhook subscription and its delivery history' })
  @ApiOkResponse({ description: '`{deleted: true, id}`.' })
  @ApiNotFoundResponse({ description: '`webhook_not_found`.' })
  delete(@Param('webhook_id') id: string): Promise<{ deleted: boolean; id: string }> {
    return this.rpc.delivery.call<WebhookIdRequest, { deleted: boolean; id: string }>(RpcPatterns.webhooks.delete, { id });
  }

  @Post(':webhook_id/test')
  @HttpCode(202)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Send a test delivery', description: 'Queued at once; one attempt; the payload carries `test: true`. Follow it in the deliveries list.' })
  @ApiAcceptedResponse({ description: '`{delivery_id, event_id, event_type, status}`.' })
  @ApiNotFoundResponse({ description: '`webhook_not_found`.' })
  @ApiUnprocessableEntityResponse({ description: '`unknown_event_type`.' })
  test(@Param('webhook_id') id: string, @Body() body: TestWebhookDto): Promise<TestDeliveryResponse> {
    return this.rpc.delivery.call<TestWebhookRequest, TestDeliveryResponse>(RpcPatterns.webhooks.test, { id, event_type: body.event_type });
  }

  @Get(':webhook_id/deliveries')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Delivery history: attempts, status codes, latency, errors, next attempt time (newest first)' })
  @ApiOkResponse({ description: '`{data: DeliveryView[], pagination}`.' })
  @ApiNotFoundResponse({ description: '`webhook_not_found`.' })
  deliveries(@Param('webhook_id') id: string, @Query() query: ListDeliveriesQueryDto): Promise<WebhookPage<DeliveryResponse>> {
    return this.rpc.delivery.call<ListDeliveriesRequest, WebhookPage<DeliveryResponse>>(RpcPatterns.webhooks.deliveries, {
      id,
      page: query.page ?? 1,
      per_page: query.per_page ?? 20,
      ...(query.status ? { status: query.status } : {}),
    });
  }

  @Get(':webhook_id/deliveries/:delivery_id')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'One delivery with all its attempts' })
  @ApiOkResponse({ type: DeliveryView })
  @ApiNotFoundResponse({ description: '`webhook_not_found` or `webhook_delivery_not_found`.' })
  delivery(@Param('webhook_id') id: string, @Param('delivery_id') deliveryId: string): Promise<DeliveryResponse> {
    return this.rpc.delivery.call<DeliveryIdRequest, DeliveryResponse>(RpcPatterns.webhooks.delivery, { id, delivery_id: deliveryId });
  }

  @Post(':webhook_id/deliveries/:delivery_id/redeliver')
  @HttpCode(202)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Send one delivery again', description: 'Same event id, body and `webhook-id`, new X-Service-Delivery-ID and timestamps, the retry schedule from its start. A delivery pending or in flight is left as it is.' })
  @ApiAcceptedResponse({ type: DeliveryView })
  @ApiNotFoundResponse({ description: '`webhook_not_found` or `webhook_delivery_not_found`.' })
  redeliverOne(@Param('webhook_id') id: string, @Param('delivery_id') deliveryId: string): Promise<DeliveryResponse> {
    return this.rpc.delivery.call<DeliveryIdRequest, DeliveryResponse>(RpcPatterns.webhooks.redeliverOne, { id, delivery_id: deliveryId });
  }

  @Post(':webhook_id/redeliver')
  @HttpCode(202)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Send again every delivery a receiver missed', description: 'Deliveries in the given states (default failed and held), optionally created within [since, until).' })
  @ApiAcceptedResponse({ description: '`{redelivered, delivery_ids}`.' })
  @ApiNotFoundResponse({ description: '`webhook_not_found`.' })
  redeliver(@Param('webhook_id') id: string, @Body() body: RedeliverDto): Promise<{ redelivered: number; delivery_ids: string[] }> {
    return this.rpc.delivery.call<RedeliverRequest, { redelivered: number; delivery_ids: string[] }>(RpcPatterns.webhooks.redeliver, {
      id,
      ...(body.statuses ? { statuses: body.statuses } : {}),
      ...(body.since ? { since: body.since } : {}),
      ...(body.until ? { until: body.until } : {}),
    });
  }
}
