import { Body, Controller, Delete, Get, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiExtension, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type CreateDatabaseRequest,
  DatabaseListLimits,
  type DatabasePage,
  type DatabaseResponse,
  type ListDatabasesRequest,
  RpcPatterns,
  type UpdateDatabaseRequest,
} from '@vigil/contracts';
import { RequireScope } from '../auth/auth.guard';
import { RpcClients } from '../rpc/rpc-clients';
import { CreateDatabaseDto, DatabaseDeletedDto, DatabaseDto, DatabasePageDto, ListDatabasesQueryDto, UpdateDatabaseDto } from './databases.dto';

const READ = 'read:databases';
const WRITE = 'write:databases';

/** Monitored databases (docs/reports.md#databases). Shapes are checked here; meaning by event-ingest. */
@ApiTags('databases')
@ApiBearerAuth()
@ApiResponse({ status: 400, description: 'Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters' })
@ApiResponse({ status: 401, description: 'Missing or invalid credential' })
@ApiResponse({ status: 403, description: 'Insufficient scope (read:databases or write:databases)' })
@ApiResponse({ status: 429, description: 'Rate limited' })
@Controller('v1/databases')
export class DatabasesController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  @Get()
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'List registered and discovered databases, by name' })
  @ApiOkResponse({ type: DatabasePageDto })
  list(@Query() query: ListDatabasesQueryDto): Promise<DatabasePage> {
    return this.rpc.events.call<ListDatabasesRequest, DatabasePage>(RpcPatterns.databases.list, {
      ...query,
      page: query.page ?? 1,
      per_page: query.per_page ?? DatabaseListLimits.defaultPerPage,
    });
  }

  @Get(':database_id')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Get one database with its activity' })
  @ApiOkResponse({ type: DatabaseDto })
  @ApiResponse({ status: 404, description: 'No database with this id' })
  get(@Param('database_id') id: string): Promise<DatabaseResponse> {
    return this.rpc.events.call(RpcPatterns.databases.get, { id });
  }

  @Post()
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Register a database (with the id of a discovered one: registers it, keeping its activity)' })
  @ApiCreatedResponse({ type: DatabaseDto })
  @ApiResponse({ status: 409, description: 'The name is taken, or the id is registered already' })
  create(@Body() body: CreateDatabaseDto): Promise<DatabaseResponse> {
    return this.rpc.events.call<CreateDatabaseRequest, DatabaseResponse>(RpcPatterns.databases.create, { ...body });
  }

  @Patch(':database_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Change the given fields; omitted fields stay unchanged' })
  @ApiOkResponse({ type: DatabaseDto })
  @ApiResponse({ status: 404, description: 'No database with this id' })
  @ApiResponse({ status: 409, description: 'The name is taken' })
  update(@Param('database_id') id: string, @Body() body: UpdateDatabaseDto): Promise<DatabaseResponse> {
    return this.rpc.events.call<UpdateDatabaseRequest, DatabaseResponse>(RpcPatterns.databases.update, { id, changes: { ...body } });
  }

  @Delete(':database_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Remove the registration; audit events stay (new events rediscover it)' })
  @ApiOkResponse({ type: DatabaseDeletedDto })
  @ApiResponse({ status: 404, description: 'No database with this id' })
  delete(@Param('database_id') id: string): Promise<{ deleted: boolean; id: string }> {
    return this.rpc.events.call(RpcPatterns.databases.delete, { id });
  }
}
