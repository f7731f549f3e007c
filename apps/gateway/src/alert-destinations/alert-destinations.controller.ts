import { Body, Controller, Delete, Get, Inject, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtension,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  type AlertDeliveryResponse,
  type AlertDestinationInput,
  type AlertDestinationResponse,
  type AlertIdRequest,
  type AlertPage,
  type DestinationDeliveriesRequest,
  RpcPatterns,
  type UpdateAlertDestinationRequest,
  type WebhookPageRequest,
} from '@vigil/contracts';
import { RequireScope } from '../auth/auth.guard';
import { RpcClients } from '../rpc/rpc-clients';
import {
  AlertDeliveryPage,
  AlertDestinationPage,
  AlertDestinationView,
  CreateAlertDestinationDto,
  DestinationDeliveriesQueryDto,
  DestinationPageQueryDto,
  UpdateAlertDestinationDto,
} from './alert-destinations.dto';

const READ = 'read:alerts';
const WRITE = 'write:alerts';
const INVALID = 'Settings out of bounds or inconsistent (`invalid_alert_destination`, every offending field in `errors[].field`), a template that does not compile or render valid JSON (`invalid_payload_template`, with the line), or a URL that is not allowed (`alert_destination_url_not_allowed`).';

const CONFLICT_ON_UPDATE =
  '`alert_destination_name_taken`, or `alert_destination_secrets_unreadable`: the stored secrets do not open (sealed for another destination, or with a key no longer configured; docs/operations.md#secrets-at-rest) and the request does not move the destination to a new url.';

/** Only the fields the client sent (null included: it resets a field or clears a secret). */
function changesOf(body: UpdateAlertDestinationDto): AlertDestinationInput {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as AlertDestinationInput;
}

/** /v1/alert-destinations: thin; the delivery service owns destinations, their rules and their deliveries. */
@ApiTags('alert-destinations')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ description: 'Missing or invalid credentials (problem document).' })
@ApiForbiddenResponse({ description: 'The credential lacks the scope (problem document).' })
@Controller('v1/alert-destinations')
export class AlertDestinationsController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  @Post()
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Create an alert destination (generic HTTP destination)', description: 'Omitted settings take their defaults (each property names its own). Secret fields are write-only and stored encrypted.' })
  @ApiCreatedResponse({ type: AlertDestinationView })
  @ApiBadRequestResponse({ description: 'Malformed body, a missing `name` or `url`, an unknown field, or a wrong JSON type.' })
  @ApiConflictResponse({ description: '`alert_destination_name_taken`.' })
  @ApiUnprocessableEntityResponse({ description: INVALID })
  create(@Body() body: CreateAlertDestinationDto): Promise<AlertDestinationResponse> {
    return this.rpc.delivery.call<AlertDestinationInput, AlertDestinationResponse>(RpcPatterns.alertDestinations.create, changesOf(body));
  }

  @Get()
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'List alert destinations (newest first; secrets never returned)' })
  @ApiOkResponse({ type: AlertDestinationPage })
  list(@Query() query: DestinationPageQueryDto): Promise<AlertPage<AlertDestinationResponse>> {
    return this.rpc.delivery.call<WebhookPageRequest, AlertPage<AlertDestinationResponse>>(RpcPatterns.alertDestinations.list, { page: query.page ?? 1, per_page: query.per_page ?? 20 });
  }

  @Get(':destination_id')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Get one alert destination (secrets never returned; `secrets_set` names those with a value)' })
  @ApiOkResponse({ type: AlertDestinationView })
  @ApiNotFoundResponse({ description: '`alert_destination_not_found`.' })
  get(@Param('destination_id') id: string): Promise<AlertDestinationResponse> {
    return this.rpc.delivery.call<AlertIdRequest, AlertDestinationResponse>(RpcPatterns.alertDestinations.get, { id });
  }

  @Put(':destination_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Update an alert destination', description: 'Fields sent change, fields omitted stay; `null` resets a setting to its default or clears a secret. Same as PATCH.' })
  @ApiOkResponse({ type: AlertDestinationView })
  @ApiNotFoundResponse({ description: '`alert_destination_not_found`.' })
  @ApiConflictResponse({ description: CONFLICT_ON_UPDATE })
  @ApiUnprocessableEntityResponse({ description: INVALID })
  put(@Param('destination_id') id: string, @Body() body: UpdateAlertDestinationDto): Promise<AlertDestinationResponse> {
    return this.update(id, body);
  }

  @Patch(':destination_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Update an alert destination', description: 'Fields sent change, fields omitted stay; `null` resets a setting to its default or clears a secret.' })
  @ApiOkResponse({ type: AlertDestinationView })
  @ApiNotFoundResponse({ description: '`alert_destination_not_found`.' })
  @ApiConflictResponse({ description: CONFLICT_ON_UPDATE })
  @ApiUnprocessableEntityResponse({ description: INVALID })
  patch(@Param('destination_id') id: string, @Body() body: UpdateAlertDestinationDto): Promise<AlertDestinationResponse> {
    return this.update(id, body);
  }

  @Delete(':destination_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Delete an alert destination and its delivery history' })
  @ApiOkResponse({ description: '`{deleted: true, id}`.' })
  @ApiNotFoundResponse({ description: '`alert_destination_not_found`.' })
  delete(@Param('destination_id') id: string): Promise<{ deleted: boolean; id: string }> {
    return this.rpc.delivery.call<AlertIdRequest, { deleted: boolean; id: string }>(RpcPatterns.alertDestinations.delete, { id });
  }

  @Get(':destination_id/deliveries')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Delivery history of a destination: each alert sent, its attempts, status codes, latency and errors (newest first)' })
  @ApiOkResponse({ type: AlertDeliveryPage })
  @ApiNotFoundResponse({ description: '`alert_destination_not_found`.' })
  deliveries(@Param('destination_id') id: string, @Query() query: DestinationDeliveriesQueryDto): Promise<AlertPage<AlertDeliveryResponse>> {
    return this.rpc.delivery.call<DestinationDeliveriesRequest, AlertPage<AlertDeliveryResponse>>(RpcPatterns.alertDestinations.deliveries, {
      id,
      page: query.page ?? 1,
      per_page: query.per_page ?? 20,
      ...(query.status ? { status: query.status } : {}),
    });
  }

  private update(id: string, body: UpdateAlertDestinationDto): Promise<AlertDestinationResponse> {
    return this.rpc.delivery.call<UpdateAlertDestinationRequest, AlertDestinationResponse>(RpcPatterns.alertDestinations.update, { id, changes: changesOf(body) });
  }
}
