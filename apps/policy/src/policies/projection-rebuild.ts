import type { EventStore } from '@vigil/database';
import type { DataSource } from 'typeorm';
import { fold } from './policy.aggregate';
import type { PoliciesRepository } from './policies.repository';

export interface RebuildReport {
  events: number;
  policies: number;
  violation_stats: number;
}

/**
 * Rebuilds the read models from the stored events: the policies table from policy.event_store,
 * and the violation counters from the violation records. One transaction holding an exclusive
 * lock on the read model, so commands wait instead of writing into a half-built table.
 * (`npm run policy:rebuild-projections`; docs/policies.md#rebuilding-the-read-models)
 */
export async function rebuildProjections(dataSource: DataSource, store: EventStore, repository: PoliciesRepository): Promise<RebuildReport> {
  return dataSource.transaction(async (manager) => {
    await manager.query('LOCK TABLE policy.policies, policy.violation_stats IN EXCLUSIVE MODE');
    await manager.query('DELETE FROM policy.policies');
    const streams = new Map<string, { type: string; data: unknown; version: number }[]>();
    let events = 0;
    for (let after = 0; ; ) {
      const page = await store.readAll(manager, after, 1000);
      if (!page.length) break;
      for (const event of page) {
        const list = streams.get(event.stream_id) ?? [];
        list.push(event);
        streams.set(event.stream_id, list);
        after = event.position;
      }
      events += page.length;
    }
    for (const stream of streams.values()) {
      stream.sort((a, b) => a.version - b.version);
      const state = fold(stream);
      if (state) await repository.project(manager, state);
    }
    await manager.query('DELETE FROM policy.violation_stats');
    const stats = await manager.query(
      `INSERT INTO policy.violation_stats (policy_id, violation_count, last_violation_at)
       SELECT policy_id, count(*), max("timestamp") FROM policy.violations GROUP BY policy_id RETURNING policy_id`,
    );
    return { events, policies: streams.size, violation_stats: stats.length };
  });
}
