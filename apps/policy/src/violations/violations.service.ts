import { Inject, Injectable } from '@nestjs/common';
import type { ListViolationsRequest, PolicyPage, PolicyViolation, PolicyViolationRecorded } from '@vigil/contracts';
import type { EntityManager } from 'typeorm';
import { PoliciesService } from '../policies/policies.service';
import { ViolationsRepository } from './violations.repository';

/** Violations reported by enforcement, and their exact per-policy counters. */
@Injectable()
export class ViolationsService {
  constructor(
    @Inject(ViolationsRepository) private readonly violations: ViolationsRepository,
    @Inject(PoliciesService) private readonly policies: PoliciesService,
  ) {}

  /** Inside the consumer's inbox transaction: a redelivered violation is neither stored nor counted twice. */
  async record(manager: EntityManager, reports: PolicyViolationRecorded[]): Promise<void> {
    const inserted = await this.violations.insert(manager, reports.map((r) => ({ ...r.violation, event_id: r.event_id })));
    const byPolicy = new Map<string, { policyId: string; count: number; last: Date }>();
    for (const row of inserted) {
      const entry = byPolicy.get(row.policy_id) ?? { policyId: row.policy_id, count: 0, last: row.timestamp };
      entry.count++;
      if (row.timestamp > entry.last) entry.last = row.timestamp;
      byPolicy.set(row.policy_id, entry);
    }
    await this.violations.addToStats(manager, [...byPolicy.values()]);
  }

  async list(request: ListViolationsRequest): Promise<PolicyPage<PolicyViolation>> {
    await this.policies.assertKnown(request.policy_id);
    const { rows, total } = await this.violations.list(request);
    return { data: rows, pagination: { total, page: request.page, per_page: request.limit, has_more: request.page * request.limit < total } };
  }
}
