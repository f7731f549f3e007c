import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
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
  type AlertCounts,
  type AlertCountsRequest,
  type AlertIdRequest,
  type AlertListRequest,
  type AlertPage,
  type AlertResponse,
  type EscalateAlertRequest,
  RpcPatterns,
  type TestAlertRequest,
  type TestAlertResponse,
} from '@vigil/contracts';
import { RequireScope } from '../auth/auth.guard';
import { RpcClients } from '../rpc/rpc-clients';
import { AlertCountsView, AlertFiltersQueryDto, AlertPageView, AlertView, EscalateAlertDto, ListAlertsQueryDto, TestAlertDto, TestAlertView } from './alerts.dto';

const READ = 'read:alerts';
const WRITE = 'write:alerts';
/** A test alert runs with the destination's retries (bounded at 150 s by delivery); the call waits for it. */
const TEST_RPC_TIMEOUT_MS = 180_000;

const list = (value: string | undefined) => (value ? value.split(',').map((v) => v.trim()).filter(Boolean) : undefined);

/** The list's filters as the delivery service takes them (each comma-separated value a list). */
function filtersOf(query: AlertFiltersQueryDto): AlertCountsRequest {
  const request: AlertCountsRequest = {};
  if (query.start_date) request.start_date = query.start_date;
  if (query.end_date) request.end_date = query.end_date;
  if (query.database_id) request.database_id = query.database_id;
  const severity = list(query.severity);
  const status = list(query.status);
  const type = list(query.type);
  if (severity) request.severity = severity;
  if (status) request.status = status;
  if (type) request.type = type;
  return request;
}

/** /v1/alerts: thin; the delivery service owns alerts and their lifecycle. */
@ApiTags('alerts')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ description: 'Missing or invalid credentials (problem document).' })
@ApiForbiddenResponse({ description: 'The credential lacks the scope (problem document).' })
@Controller('v1/alerts')
export class AlertsController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  @Get()
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'List alerts (newest first)', description: 'Filters: start_date, end_date (creation time), severity, status, type (comma-separated), database_id.' })
  @ApiOkResponse({ type: AlertPageView })
  list(@Query() query: ListAlertsQueryDto): Promise<AlertPage<AlertResponse>> {
    const request: AlertListRequest = { ...filtersOf(query), page: query.page ?? 1, per_page: query.per_page ?? 20 };
    return this.rpc.delivery.call<AlertListRequest, AlertPage<AlertResponse>>(RpcPatterns.alerts.list, request);
  }

  @Get('counts')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({
    summary: 'Count alerts',
    description: 'How many alerts match the list\'s filters (start_date, end_date, severity, status, type, database_id): in all, by severity and by status, in one call (e.g. open alerts by severity: `?status=open`).',
  })
  @ApiOkResponse({ type: AlertCountsView })
  counts(@Query() query: AlertFiltersQueryDto): Promise<AlertCounts> {
    return this.rpc.delivery.call<AlertCountsRequest, AlertCounts>(RpcPatterns.alerts.counts, filtersOf(query));
  }

  @Post('test')
  @HttpCode(200)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({
    summary: 'Send a test alert to an alert destination',
    description: 'Sends a sample alert (`test: true`) through the real delivery path (template, authentication, safe egress, success codes, retries) now, and answers the outcome: success, status code, duration, error and every attempt. A failed delivery is a 200 with `success: false`.',
  })
  @ApiOkResponse({ type: TestAlertView })
  @ApiNotFoundResponse({ description: '`alert_destination_not_found`.' })
  test(@Body() body: TestAlertDto): Promise<TestAlertResponse> {
    return this.rpc.delivery.call<TestAlertRequest, TestAlertResponse>(RpcPatterns.alerts.test, { destination_id: body.destination_id }, TEST_RPC_TIMEOUT_MS);
  }

  @Get(':alert_id')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Get one alert' })
  @ApiOkResponse({ type: AlertView })
  @ApiNotFoundResponse({ description: '`alert_not_found`.' })
  get(@Param('alert_id') id: string): Promise<AlertResponse> {
    return this.rpc.delivery.call<AlertIdRequest, AlertResponse>(RpcPatterns.alerts.get, { id });
  }

  @Post(':alert_id/acknowledge')
  @HttpCode(200)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Acknowledge an open alert', description: 'open -> acknowledged; announced to webhooks as `alert.resolved` with `status: acknowledged`.' })
  @ApiOkResponse({ type: AlertView })
  @ApiNotFoundResponse({ description: '`alert_not_found`.' })
  @ApiConflictResponse({ description: '`alert_transition_not_allowed`.' })
  acknowledge(@Param('alert_id') id: string): Promise<AlertResponse> {
    return this.rpc.delivery.call<AlertIdRequest, AlertResponse>(RpcPatterns.alerts.acknowledge, { id });
  }

  @Post(':alert_id/resolve')
  @HttpCode(200)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Resolve an alert', description: 'open or acknowledged -> resolved; announced as `alert.resolved`.' })
  @ApiOkResponse({ type: AlertView })
  @ApiNotFoundResponse({ description: '`alert_not_found`.' })
  @ApiConflictResponse({ description: '`alert_transition_not_allowed`.' })
  resolve(@Param('alert_id') id: string): Promise<AlertResponse> {
    return this.rpc.delivery.call<AlertIdRequest, AlertResponse>(RpcPatterns.alerts.resolve, { id });
  }

  @Post(':alert_id/escalate')
  @HttpCode(200)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Escalate an alert to a higher severity', description: 'Default one step up; the alert is sent again to the destinations that accept the new severity; announced as `alert.escalated`.' })
  @ApiOkResponse({ type: AlertView })
  @ApiNotFoundResponse({ description: '`alert_not_found`.' })
  @ApiConflictResponse({ description: '`alert_transition_not_allowed` (resolved) or `alert_severity_not_higher`.' })
  @ApiUnprocessableEntityResponse({ description: '`alert_severity_not_higher`: not an alert severity.' })
  escalate(@Param('alert_id') id: string, @Body() body: EscalateAlertDto): Promise<AlertResponse> {
    return this.rpc.delivery.call<EscalateAlertRequest, AlertResponse>(RpcPatterns.alerts.escalate, { id, ...(body.severity ? { severity: body.severity } : {}) });
  }
}
