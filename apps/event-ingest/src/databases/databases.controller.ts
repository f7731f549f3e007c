import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { type CreateDatabaseRequest, type DatabasePage, type DatabaseResponse, type ListDatabasesRequest, RpcPatterns, type UpdateDatabaseRequest } from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { DatabasesService } from './databases.service';

/** RPC handlers for the gateway's /v1/databases; the gateway validated the shapes. */
@Controller()
export class DatabasesController {
  constructor(@Inject(DatabasesService) private readonly databases: DatabasesService) {}

  @MessagePattern(RpcPatterns.databases.create)
  create(@RpcPayload() request: CreateDatabaseRequest): Promise<DatabaseResponse> {
    return this.databases.create(request);
  }

  @MessagePattern(RpcPatterns.databases.list)
  list(@RpcPayload() request: ListDatabasesRequest): Promise<DatabasePage> {
    return this.databases.list(request);
  }

  @MessagePattern(RpcPatterns.databases.get)
  get(@RpcPayload() request: { id: string }): Promise<DatabaseResponse> {
    return this.databases.get(String(request?.id ?? ''));
  }

  @MessagePattern(RpcPatterns.databases.update)
  update(@RpcPayload() request: UpdateDatabaseRequest): Promise<DatabaseResponse> {
    return this.databases.update(request);
  }

  @MessagePattern(RpcPatterns.databases.delete)
  delete(@RpcPayload() request: { id: string }): Promise<{ deleted: boolean; id: string }> {
    return this.databases.delete(String(request?.id ?? ''));
  }
}
