import { Module } from '@nestjs/common';
import { EnforcementService } from './enforcement.service';
import { PolicyCache } from './policy-cache';

/** Policy enforcement in the ingest pipeline (docs/policies.md#enforcement). */
@Module({
  providers: [PolicyCache, EnforcementService],
  exports: [EnforcementService],
})
export class EnforcementModule {}
