/**
 * CPU per statement of the proxy's policy decision, in this process: the benchmark's 20 policies
 * (as proxy-process.ts applies them), pgbench's statements with random numbers, judged by a fresh
 * engine evaluation and by Enforcer.evaluateQuery (decisions kept by query shape), alternated for
 * several rounds. Measures CPU time (process.cpuUsage), which a busy machine moves much less than
 * the end-to-end benchmark.
 *   node -r @swc-node/register bench/pg-proxy/decision-cost.ts [statements per round] [rounds]
 */
import { loadavg } from 'node:os';
import { Enforcer, type SessionIdentity, ShapeDecisions } from '../../apps/pg-proxy/src/enforcement/enforcer';
import { PolicyStore } from '../../apps/pg-proxy/src/policies/policy-store';
import { median } from '../lib/stats';
import { applyBenchPolicies } from './bench-policies';

const [count = 200_000, rounds = 5] = process.argv.slice(2).map(Number);
const store = new PolicyStore();
const db = 'db_bench';
applyBenchPolicies(store, db);
const enforcer = new Enforcer(store);
const who: SessionIdentity = { databaseId: db, user: 'postgres', sourceIp: '127.0.0.1', sessionId: 'sess_bench' };
const random = (max: number) => 1 + Math.floor(Math.random() * max);
const texts = Array.from({ length: 10_000 }, (_, i) =>
  i % 7 === 0
    ? `UPDATE pgbench_accounts SET abalance = abalance + ${random(5000)} WHERE aid = ${random(1_000_000)};`
    : `SELECT abalance FROM pgbench_accounts WHERE aid = ${random(1_000_000)};`,
);
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const fresh = () => {
  for (let i = 0; i < count; i++) enforcer.evaluate(who, 'database.query', texts[i % texts.length]!);
};
const cache = new ShapeDecisions();
const shaped = () => {
  for (let i = 0; i < count; i++) enforcer.evaluateQuery(who, texts[i % texts.length]!, cache);
};
fresh();
shaped();
const results: Record<string, number[]> = { fresh: [], shape: [] };
for (let r = 0; r < rounds; r++) {
  for (const [name, run] of (r % 2 ? [['shape', shaped], ['fresh', fresh]] : [['fresh', fresh], ['shape', shaped]]) as [string, () => void][]) {
    const t0 = cpuUs();
    run();
    results[name]!.push((cpuUs() - t0) / count);
  }
}
process.stdout.write(
  `decision per statement, CPU µs (median of ${rounds} rounds of ${count}): fresh evaluation ${median(results.fresh!).toFixed(2)}, kept by shape ${median(results.shape!).toFixed(2)} (hits ${cache.hits}, misses ${cache.misses}); rounds fresh ${results.fresh!.map((v) => v.toFixed(2)).join(' ')}, shape ${results.shape!.map((v) => v.toFixed(2)).join(' ')}; load average ${loadavg().map((v) => v.toFixed(1)).join(' ')}\n`,
);
