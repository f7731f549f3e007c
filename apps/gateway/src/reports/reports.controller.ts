import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type CreateReportRequest,
  type ListReportsRequest,
  type ReportContentRequest,
  type ReportContentResponse,
  ReportListLimits,
  type ReportPage,
  type ReportResponse,
  type ReportTypeDescription,
  RpcPatterns,
} from '@vigil/contracts';
import type { Response } from 'express';
import { RequireScope } from '../auth/auth.guard';
import { RpcClients } from '../rpc/rpc-clients';
import { CreateReportDto, DeletedDto, DownloadQueryDto, ListReportsQueryDto, ReportDto, ReportPageDto, ReportTypeListDto } from './reports.dto';

/** Reports are viewed and generated with read:reports; deleting one needs write:reports. */
const SCOPE = 'read:reports';
const WRITE = 'write:reports';

@ApiTags('reports')
@ApiBearerAuth()
@ApiResponse({ status: 400, description: 'Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters' })
@ApiResponse({ status: 401, description: 'Missing or invalid credential' })
@ApiResponse({ status: 403, description: 'Insufficient scope (read:reports; write:reports to delete)' })
@ApiResponse({ status: 429, description: 'Rate limited' })
@Controller('v1')
export class ReportsController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  @Get('report-types')
  @RequireScope(SCOPE)
  @ApiExtension('x-required-scope', SCOPE)
  @ApiOperation({ summary: 'The report types, their sections and the controls each section maps to' })
  @ApiOkResponse({ type: ReportTypeListDto })
  async types(): Promise<{ data: ReportTypeDescription[] }> {
    return { data: await this.rpc.events.call<Record<string, never>, ReportTypeDescription[]>(RpcPatterns.reports.types, {}) };
  }

  @Post('reports')
  @HttpCode(202)
  @RequireScope(SCOPE)
  @ApiExtension('x-required-scope', SCOPE)
  @ApiOperation({ summary: 'Request a report: queued at once (202), generated in the background; follow `status` and `progress`' })
  @ApiResponse({ status: 202, type: ReportDto, description: 'Queued' })
  @ApiResponse({ status: 422, description: 'period_end not after period_start, or a period longer than the limit' })
  create(@Body() body: CreateReportDto): Promise<ReportResponse> {
    return this.rpc.events.call<CreateReportRequest, ReportResponse>(RpcPatterns.reports.create, { ...body });
  }

  @Get('reports')
  @RequireScope(SCOPE)
  @ApiExtension('x-required-scope', SCOPE)
  @ApiOperation({ summary: 'List reports, newest first' })
  @ApiOkResponse({ type: ReportPageDto })
  list(@Query() query: ListReportsQueryDto): Promise<ReportPage> {
    return this.rpc.events.call<ListReportsRequest, ReportPage>(RpcPatterns.reports.list, {
      ...query,
      page: query.page ?? 1,
      per_page: query.per_page ?? ReportListLimits.defaultPerPage,
    });
  }

  @Get('reports/:report_id')
  @RequireScope(SCOPE)
  @ApiExtension('x-required-scope', SCOPE)
  @ApiOperation({ summary: 'Get one report: status, progress, summary and download links' })
  @ApiOkResponse({ type: ReportDto })
  @ApiResponse({ status: 404, description: 'No report with this id' })
  get(@Param('report_id') id: string): Promise<ReportResponse> {
    return this.rpc.events.call(RpcPatterns.reports.get, { id });
  }

  @Get('reports/:report_id/download')
  @RequireScope(SCOPE)
  @ApiExtension('x-required-scope', SCOPE)
  @ApiOperation({
    summary: 'Download a completed report as JSON (the document), CSV, a self-contained HTML document, or PDF',
    description:
      'The HTML and PDF print the report digest: the SHA-256 (hex) of the `format=json` download, byte for byte. ' +
      'The PDF has a cover page (type, period, scope, generation, digest), the summary and control mapping, every section with its table, and "Page n of m" on every page.',
  })
  @ApiProduces('application/json', 'text/csv', 'text/html', 'application/pdf')
  @ApiResponse({
    status: 200,
    description: 'The report in the requested format (Content-Disposition names the file)',
    content: {
      'application/json': { schema: { type: 'object', additionalProperties: true } },
      'text/csv': { schema: { type: 'string' } },
      'text/html': { schema: { type: 'string' } },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiResponse({ status: 404, description: 'No report with this id, or not requested in this format' })
  @ApiResponse({ status: 409, description: 'The report is not completed yet' })
  async download(@Param('report_id') id: string, @Query() query: DownloadQueryDto, @Res() res: Response): Promise<void> {
    const content = await this.rpc.events.call<ReportContentRequest, ReportContentResponse>(RpcPatterns.reports.content, { id, format: query.format ?? 'json' });
    res.status(200);
    res.setHeader('content-type', content.content_type);
    res.setHeader('content-disposition', `attachment; filename="${content.filename}"`);
    res.setHeader('x-content-type-options', 'nosniff');
    // The HTML is a document to keep, not a page of this API: nothing in it may run.
    res.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.send(content.encoding === 'base64' ? Buffer.from(content.body, 'base64') : content.body);
  }

  @Delete('reports/:report_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Delete a stored report' })
  @ApiOkResponse({ type: DeletedDto })
  @ApiResponse({ status: 404, description: 'No report with this id' })
  delete(@Param('report_id') id: string): Promise<{ deleted: boolean; id: string }> {
    return this.rpc.events.call(RpcPatterns.reports.delete, { id });
  }
}
