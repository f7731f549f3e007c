import { Body, Controller, Delete, Get, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiExtension, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type CreateReportScheduleRequest,
  ReportListLimits,
  type ReportScheduleResponse,
  type ReportSchedulePage,
  RpcPatterns,
  type UpdateReportScheduleRequest,
} from '@vigil/contracts';
import { RequireScope } from '../auth/auth.guard';
import { RpcClients } from '../rpc/rpc-clients';
import { CreateReportScheduleDto, DeletedDto, PageQueryDto, ReportScheduleDto, ReportSchedulePageDto, UpdateReportScheduleDto } from './reports.dto';

const SCOPE = 'read:reports';
/** Creating, changing and deleting schedules needs write:reports (reading them read:reports). */
const WRITE = 'write:reports';

@ApiTags('reports')
@ApiBearerAuth()
@ApiResponse({ status: 400, description: 'Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters' })
@ApiResponse({ status: 401, description: 'Missing or invalid credential' })
@ApiResponse({ status: 403, description: 'Insufficient scope (read:reports to read; write:reports to create, change or delete)' })
@ApiResponse({ status: 429, description: 'Rate limited' })
@Controller('v1/report-schedules')
export class ReportSchedulesController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  @Post()
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Create a schedule: a cron expression read in an IANA time zone; each slot produces one report' })
  @ApiCreatedResponse({ type: ReportScheduleDto })
  @ApiResponse({ status: 409, description: 'A schedule with this name exists' })
  @ApiResponse({ status: 422, description: 'Invalid cron expression or unknown time zone (errors[].field cron / timezone)' })
  create(@Body() body: CreateReportScheduleDto): Promise<ReportScheduleResponse> {
    return this.rpc.events.call<CreateReportScheduleRequest, ReportScheduleResponse>(RpcPatterns.reports.schedulesCreate, { ...body });
  }

  @Get()
  @RequireScope(SCOPE)
  @ApiExtension('x-required-scope', SCOPE)
  @ApiOperation({ summary: 'List schedules by name' })
  @ApiOkResponse({ type: ReportSchedulePageDto })
  list(@Query() query: PageQueryDto): Promise<ReportSchedulePage> {
    return this.rpc.events.call(RpcPatterns.reports.schedulesList, { page: query.page ?? 1, per_page: query.per_page ?? ReportListLimits.defaultPerPage });
  }

  @Get(':schedule_id')
  @RequireScope(SCOPE)
  @ApiExtension('x-required-scope', SCOPE)
  @ApiOperation({ summary: 'Get one schedule with its next and last run' })
  @ApiOkResponse({ type: ReportScheduleDto })
  @ApiResponse({ status: 404, description: 'No schedule with this id' })
  get(@Param('schedule_id') id: string): Promise<ReportScheduleResponse> {
    return this.rpc.events.call(RpcPatterns.reports.schedulesGet, { id });
  }

  @Patch(':schedule_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Change the given fields; a new cron, time zone or enabled state recomputes next_run_at' })
  @ApiOkResponse({ type: ReportScheduleDto })
  @ApiResponse({ status: 404, description: 'No schedule with this id' })
  @ApiResponse({ status: 409, description: 'A schedule with this name exists' })
  @ApiResponse({ status: 422, description: 'Invalid cron expression or unknown time zone' })
  update(@Param('schedule_id') id: string, @Body() body: UpdateReportScheduleDto): Promise<ReportScheduleResponse> {
    return this.rpc.events.call<UpdateReportScheduleRequest, ReportScheduleResponse>(RpcPatterns.reports.schedulesUpdate, { id, changes: { ...body } });
  }

  @Delete(':schedule_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Delete a schedule; its reports stay' })
  @ApiOkResponse({ type: DeletedDto })
  @ApiResponse({ status: 404, description: 'No schedule with this id' })
  delete(@Param('schedule_id') id: string): Promise<{ deleted: boolean; id: string }> {
    return this.rpc.events.call(RpcPatterns.reports.schedulesDelete, { id });
  }
}
