import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type CreateReportRequest,
  type CreateReportScheduleRequest,
  type ListReportsRequest,
  type ReportContentRequest,
  type ReportContentResponse,
  type ReportPage,
  type ReportResponse,
  type ReportScheduleResponse,
  type ReportSchedulePage,
  type ReportTypeDescription,
  RpcPatterns,
  type UpdateReportScheduleRequest,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { ReportsService } from './reports.service';

/** RPC handlers for the gateway's /v1/reports and /v1/report-schedules; the gateway validated the shapes. */
@Controller()
export class ReportsController {
  constructor(@Inject(ReportsService) private readonly reports: ReportsService) {}

  @MessagePattern(RpcPatterns.reports.types)
  types(): ReportTypeDescription[] {
    return this.reports.types();
  }

  @MessagePattern(RpcPatterns.reports.create)
  create(@RpcPayload() request: CreateReportRequest): Promise<ReportResponse> {
    return this.reports.create(request);
  }

  @MessagePattern(RpcPatterns.reports.list)
  list(@RpcPayload() request: ListReportsRequest): Promise<ReportPage> {
    return this.reports.list(request);
  }

  @MessagePattern(RpcPatterns.reports.get)
  get(@RpcPayload() request: { id: string }): Promise<ReportResponse> {
    return this.reports.get(String(request?.id ?? ''));
  }

  @MessagePattern(RpcPatterns.reports.content)
  content(@RpcPayload() request: ReportContentRequest): Promise<ReportContentResponse> {
    return this.reports.content(request);
  }

  @MessagePattern(RpcPatterns.reports.delete)
  delete(@RpcPayload() request: { id: string }): Promise<{ deleted: boolean; id: string }> {
    return this.reports.delete(String(request?.id ?? ''));
  }

  @MessagePattern(RpcPatterns.reports.schedulesCreate)
  createSchedule(@RpcPayload() request: CreateReportScheduleRequest): Promise<ReportScheduleResponse> {
    return this.reports.createSchedule(request);
  }

  @MessagePattern(RpcPatterns.reports.schedulesList)
  listSchedules(@RpcPayload() request: { page: number; per_page: number }): Promise<ReportSchedulePage> {
    return this.reports.listSchedules(request.page, request.per_page);
  }

  @MessagePattern(RpcPatterns.reports.schedulesGet)
  getSchedule(@RpcPayload() request: { id: string }): Promise<ReportScheduleResponse> {
    return this.reports.getSchedule(String(request?.id ?? ''));
  }

  @MessagePattern(RpcPatterns.reports.schedulesUpdate)
  updateSchedule(@RpcPayload() request: UpdateReportScheduleRequest): Promise<ReportScheduleResponse> {
    return this.reports.updateSchedule(request);
  }

  @MessagePattern(RpcPatterns.reports.schedulesDelete)
  deleteSchedule(@RpcPayload() request: { id: string }): Promise<{ deleted: boolean; id: string }> {
    return this.reports.deleteSchedule(String(request?.id ?? ''));
  }
}
