import { Inject, Injectable } from '@nestjs/common';
import { type CreateDatabaseRequest, type DatabasePage, type DatabaseResponse, type ListDatabasesRequest, type UpdateDatabaseRequest } from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { AuditTrail } from '@vigil/messaging';
import { DomainException } from '@vigil/platform';
import { inSnapshot } from '@vigil/database';
import { DataSource } from 'typeorm';
import { type DatabaseFields, type DatabaseRow, DatabasesRepository, toDatabaseResponse } from './databases.repository';

export enum DatabasesErrorCode {
  NotFound = 'database_not_found',
  NameTaken = 'database_name_taken',
  IdTaken = 'database_id_taken',
}

/** The registry of monitored databases (docs/reports.md#databases). */
@Injectable()
export class DatabasesService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DatabasesRepository) private readonly repository: DatabasesRepository,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  /**
   * Registers a database. With the id of a discovered database, registers that one: it keeps its
   * activity and counts. An id already registered is 409.
   */
  create(request: CreateDatabaseRequest): Promise<DatabaseResponse> {
    return this.dataSource.transaction(async (manager) => {
      const id = request.id ?? newId('database');
      const existing = request.id ? await this.repository.find(manager, id, true) : undefined;
      if (existing?.status === 'registered') throw new DomainException(409, DatabasesErrorCode.IdTaken, `A database with id "${id}" is registered already.`);
      if (await this.repository.nameTaken(manager, request.name, id)) {
        throw new DomainException(409, DatabasesErrorCode.NameTaken, `A database named "${request.name}" exists.`);
      }
      const fields: DatabaseFields = {
        name: request.name,
        type: request.type,
        host: request.host ?? null,
        port: request.port ?? null,
        database_name: request.database ?? null,
        environment: request.environment ?? null,
        description: request.description ?? '',
        tags: dedupe(request.tags ?? []),
      };
      const row = existing ? await this.repository.register(manager, id, fields) : await this.repository.insert(manager, id, fields);
      await this.audit.record(manager, {
        type: 'vigil.database.registered',
        target: { type: 'database', id },
        before: existing ? auditView(existing) : null,
        after: auditView(row),
      });
      return toDatabaseResponse(row);
    });
  }

  async get(id: string): Promise<DatabaseResponse> {
    const row = await this.repository.find(this.dataSource.manager, id);
    if (!row) throw DomainException.notFound('database', id, DatabasesErrorCode.NotFound);
    return toDatabaseResponse(row);
  }

  async list(query: ListDatabasesRequest): Promise<DatabasePage> {
    const { rows, total } = await inSnapshot(this.dataSource, (manager) => this.repository.list(manager, query));
    return {
      data: rows.map(toDatabaseResponse),
      pagination: { total, page: query.page, per_page: query.per_page, has_more: query.page * query.per_page < total },
    };
  }

  update({ id, changes }: UpdateDatabaseRequest): Promise<DatabaseResponse> {
    return this.dataSource.transaction(async (manager) => {
      const existing = await this.repository.find(manager, id, true);
      if (!existing) throw DomainException.notFound('database', id, DatabasesErrorCode.NotFound);
      if (changes.name !== undefined && (await this.repository.nameTaken(manager, changes.name, id))) {
        throw new DomainException(409, DatabasesErrorCode.NameTaken, `A database named "${changes.name}" exists.`);
      }
      const row = await this.repository.update(manager, id, {
        name: changes.name,
        type: changes.type,
        host: changes.host,
        port: changes.port,
        database_name: changes.database,
        environment: changes.environment,
        description: changes.description,
        tags: changes.tags ? dedupe(changes.tags) : undefined,
      });
      await this.audit.record(manager, { type: 'vigil.database.updated', target: { type: 'database', id }, before: auditView(existing), after: auditView(row!) });
      return toDatabaseResponse(row!);
    });
  }

  /** Removes the registration; its audit events stay. Events that keep arriving rediscover it. */
  async delete(id: string): Promise<{ deleted: boolean; id: string }> {
    await this.dataSource.transaction(async (manager) => {
      const existing = await this.repository.find(manager, id);
      if (!existing || !(await this.repository.delete(manager, id))) throw DomainException.notFound('database', id, DatabasesErrorCode.NotFound);
      await this.audit.record(manager, { type: 'vigil.database.deleted', target: { type: 'database', id }, before: auditView(existing) });
    });
    return { deleted: true, id };
  }
}

/** The registration fields an administrative record shows (activity and counts left out). */
function auditView(row: DatabaseRow): Record<string, unknown> {
  const { name, type, host, port, database_name, environment, description, tags, status } = row;
  return { name, type, host, port, database_name, environment, description, tags, status };
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}
