import { Module } from '@nestjs/common';
import { DatabasesModule } from '../databases/databases.module';
import { ReportAlertsClient } from './report-alerts';
import { ReportGenerator } from './report-generator';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';
import { ReportsWorker } from './reports.worker';

/** Compliance reports and their schedules (docs/reports.md). */
@Module({
  imports: [DatabasesModule],
  controllers: [ReportsController],
  providers: [ReportsRepository, ReportGenerator, ReportAlertsClient, ReportsService, ReportsWorker],
  exports: [ReportsWorker],
})
export class ReportsModule {}
