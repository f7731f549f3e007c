import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { PolicyListItem, PolicyPage, PolicyResponse } from '@vigil/contracts';
import { type Command, Option } from 'commander';
import { contextFor, type Context, type Runtime } from '../context.ts';
import { CliError, ExitCode, usageError } from '../errors.ts';
import type { ApiClient } from '../http/api-client.ts';
import { parsePolicyFile, serializePolicies } from './policy-file.ts';
import { type CurrentPolicy, describePlan, type Plan, type PlanItem, planPolicies, summarizePlan } from './policy-plan.ts';

/** GETs of full policies (list items carry no config) run this many at a time. */
const FETCH_CONCURRENCY = 8;

export function registerPolicyCommands(program: Command, runtime: Runtime): void {
  const policies = program.command('policies').description('Security policies, and policies as code (apply / export)');

  policies
    .command('list')
    .description('List policies')
    .option('--type <type>', 'access_control, data_protection, query_control or alerting')
    .option('--enabled <bool>', 'true or false')
    .option('--database <id>', 'policies that apply to this database')
    .action(async (options: { type?: string; enabled?: string; database?: string }, command: Command) => {
      const ctx = contextFor(command, runtime);
      if (options.enabled !== undefined && options.enabled !== 'true' && options.enabled !== 'false') throw usageError('--enabled must be true or false');
      const items = await listAll(ctx.client, { type: options.type, enabled: options.enabled, database_id: options.database });
      if (ctx.output.json) ctx.output.document(items);
      else ctx.output.table(items as unknown as Record<string, unknown>[], ['id', 'name', 'type', 'enabled', 'enforcement_mode', 'databases', 'violation_count']);
    });

  policies
    .command('apply')
    .description('Create, update (and with --prune delete) policies so the server matches a YAML or JSON file keyed by policy name')
    .requiredOption('-f, --file <file>', 'the policy file (YAML or JSON; - for stdin)')
    .option('--prune', 'delete policies that are not in the file')
    .option('--dry-run', 'print the changes and change nothing')
    .addOption(new Option('--detailed-exitcode', 'with --dry-run: exit 10 when there are changes, 0 when there are none'))
    .action(async (options: { file: string; prune?: boolean; dryRun?: boolean; detailedExitcode?: boolean }, command: Command) => {
      const ctx = contextFor(command, runtime);
      if (options.detailedExitcode && !options.dryRun) throw usageError('--detailed-exitcode goes with --dry-run');
      const desired = parsePolicyFile(readSource(options.file), options.file === '-' ? '(stdin)' : options.file);
      const current = await fetchAll(ctx.client);
      const plan = planPolicies(desired, current, { prune: Boolean(options.prune) });
      if (options.dryRun) {
        report(ctx, plan, { dryRun: true, applied: [] });
        if (options.detailedExitcode && plan.items.length) ctx.exitCode = ExitCode.changesPending;
        return;
      }
      const applied: PlanItem[] = [];
      try {
        for (const item of plan.items) {
          await execute(ctx.client, item);
          applied.push(item);
          if (!ctx.output.json) ctx.output.notice(`${item.action === 'create' ? 'created' : item.action === 'update' ? 'updated' : 'deleted'} ${item.name}`);
        }
      } catch (error) {
        if (applied.length || !ctx.output.json) ctx.output.notice(`stopped after ${applied.length} of ${plan.items.length} changes; run apply again once the problem is fixed`);
        throw error;
      }
      report(ctx, plan, { dryRun: false, applied });
    });

  policies
    .command('export')
    .description('Write every policy in the file format `apply` reads (export, then apply: no changes)')
    .option('-o, --out <file>', 'write to this file (default: stdout)')
    .addOption(new Option('--format <format>', 'yaml or json (default: by the extension of --out, else yaml)').choices(['yaml', 'json']))
    .action(async (options: { out?: string; format?: 'yaml' | 'json' }, command: Command) => {
      const ctx = contextFor(command, runtime);
      const format = options.format ?? (options.out?.toLowerCase().endsWith('.json') ? 'json' : 'yaml');
      const current = await fetchAll(ctx.client);
      const header = `Vigil policies exported from ${ctx.client.baseUrl} at ${new Date().toISOString()}.\nApply with: vigil policies apply -f <this file> [--prune] [--dry-run]`;
      const text = serializePolicies(current, format, header);
      if (!options.out) {
        process.stdout.write(text);
        return;
      }
      const partial = `${options.out}.partial`;
      writeFileSync(partial, text);
      renameSync(partial, options.out);
      ctx.output.notice(`wrote ${current.length} polic${current.length === 1 ? 'y' : 'ies'} to ${options.out}`);
    });
}

function readSource(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, ExitCode.usage);
  }
}

async function listAll(client: ApiClient, filters: Record<string, string | undefined> = {}): Promise<PolicyListItem[]> {
  const items: PolicyListItem[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.json<PolicyPage<PolicyListItem>>('GET', '/v1/policies', { query: { ...filters, page, per_page: 100 } });
    items.push(...answer.data);
    if (!answer.pagination.has_more || !answer.data.length) return items;
  }
}

/** Every policy with its config (the list omits it, so each is fetched, a few at a time). */
async function fetchAll(client: ApiClient): Promise<CurrentPolicy[]> {
  const items = await listAll(client);
  const result: CurrentPolicy[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const { id } = items[index] as PolicyListItem;
      const policy = await client.json<PolicyResponse>('GET', `/v1/policies/${encodeURIComponent(id)}`);
      result[index] = {
        id: policy.id,
        name: policy.name,
        type: policy.type,
        description: policy.description,
        enabled: policy.enabled,
        enforcement_mode: policy.enforcement_mode,
        databases: policy.databases,
        config: policy.config,
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, items.length) }, worker));
  return result;
}

async function execute(client: ApiClient, item: PlanItem): Promise<void> {
  const context = `policy ${JSON.stringify(item.name)}`;
  if (item.action === 'create') await client.json('POST', '/v1/policies', { body: item.body, context: `${context} (create)` });
  else if (item.action === 'update') await client.json('PUT', `/v1/policies/${encodeURIComponent(item.id)}`, { body: item.body, context: `${context} (update)` });
  else await client.json('DELETE', `/v1/policies/${encodeURIComponent(item.id)}`, { context: `${context} (delete)` });
}

function report(ctx: Context, plan: Plan, outcome: { dryRun: boolean; applied: PlanItem[] }): void {
  if (ctx.output.json) {
    ctx.output.document({
      dry_run: outcome.dryRun,
      changes: plan.items.map((item) => ({
        action: item.action,
        name: item.name,
        ...(item.action === 'create' ? {} : { id: item.id }),
        ...(item.action === 'update' ? { fields: item.changes } : {}),
      })),
      unchanged: plan.unchanged,
      unmanaged: plan.unmanaged,
    });
    return;
  }
  for (const line of describePlan(plan)) ctx.output.line(line);
  const summary = summarizePlan(plan);
  ctx.output.line(outcome.dryRun && plan.items.length ? `Dry run: ${summary} Nothing was changed.` : outcome.dryRun || !plan.items.length ? summary : `Applied: ${summary}`);
}
