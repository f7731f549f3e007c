import { Module } from '@nestjs/common';
import { DatabaseMonitor } from './database-monitor.service';
import { DatabasesController } from './databases.controller';
import { DatabasesRepository } from './databases.repository';
import { DatabasesService } from './databases.service';

/** Monitored databases: registry, discovery, connection events (docs/reports.md#databases). */
@Module({
  controllers: [DatabasesController],
  providers: [DatabasesRepository, DatabasesService, DatabaseMonitor],
  exports: [DatabaseMonitor, DatabasesRepository],
})
export class DatabasesModule {}
