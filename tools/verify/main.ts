import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CheckpointPublicKey, SignedCheckpoint } from '@vigil/integrity';
import { IntegrityApi, SourceError, buildExport, verifyApi } from './api-source';
import { type ExportFile, exportShapeProblem } from './export-file';
import { type VerificationReport, verifyExport } from './verify-export';

/** 0 verified, 1 a verification failure, 2 usage, unreadable input or connection problem. */
export const ExitCode = { verified: 0, failed: 1, usage: 2 } as const;

const USAGE = `Usage: npm run verify -- <command> [options]

Verifies Vigil's tamper-evident event log without trusting the server (docs/integrity.md).

Commands:
  export --url <api> [--from <index>] [--to <index>] [--tree-size <n>] [--trusted-checkpoint cp.json] --out <file.json>
      Writes one file with the public keys, a checkpoint (the latest, or of --tree-size), the leaves
      from..to with their events, and the inclusion proofs of the range's first and last leaf.
  file <export.json> [--keys keys.json] [--trusted-checkpoint cp.json]
      Verifies an export fully offline.
  api --url <api> [--from <index>] [--to <index>] [--keys keys.json] [--trusted-checkpoint cp.json]
      Verifies the live API: the latest checkpoint's signature, its consistency with the checkpoint
      you kept, and every leaf of the range (the whole tree by default).

Options:
  --json     print the report as JSON
  --keys     the public keys you kept (the answer of GET /v1/integrity/keys, or its data array):
             only these are trusted then
  --trusted-checkpoint  a checkpoint you kept (as GET /v1/integrity/checkpoints/latest answers it)
Credentials: VIGIL_API_KEY (scope read:logs) for export and api.
Exit codes: 0 verified, 1 verification failed, 2 usage or connection error.`;

class UsageError extends Error {}

export interface Io {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  fetch?: typeof fetch;
}

/** Runs one command line (the arguments after `--`) and answers the exit code. */
export async function runVerify(args: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        'tree-size': { type: 'string' },
        out: { type: 'string' },
        keys: { type: 'string' },
        'trusted-checkpoint': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.err(`vigil-verify: ${(error as Error).message}\n${USAGE}\n`);
    return ExitCode.usage;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    (values.help ? io.out : io.err)(`${USAGE}\n`);
    return values.help ? ExitCode.verified : ExitCode.usage;
  }
  const progress = values.json ? undefined : (message: string) => io.err(`  ${message}\n`);
  try {
    const trustedKeys = values.keys ? readKeys(values.keys) : undefined;
    const trustedCheckpoint = values['trusted-checkpoint'] ? readCheckpoint(values['trusted-checkpoint']) : undefined;
    const from = index('--from', values.from);
    const to = index('--to', values.to);
    switch (command) {
      case 'file': {
        if (rest.length !== 1) throw new UsageError('file needs exactly one export file');
        const file = readJson(rest[0]) as ExportFile;
        const shape = exportShapeProblem(file);
        if (shape) throw new SourceError(`${rest[0]} is not an export file: ${shape}`);
        return print(io, values.json, `export file ${rest[0]}`, verifyExport(file, { trustedKeys, trustedCheckpoint }));
      }
      case 'api': {
        const api = connect(values.url, io);
        const report = await verifyApi(api, { from, to, trustedKeys, trustedCheckpoint, onProgress: progress });
        return print(io, values.json, `API ${api.baseUrl}`, report);
      }
      case 'export': {
        if (!values.out) throw new UsageError('export needs --out <file.json>');
        const api = connect(values.url, io);
        const file = await buildExport(api, { from, to, treeSize: index('--tree-size', values['tree-size']), since: trustedCheckpoint, onProgress: progress });
        writeFileSync(values.out, JSON.stringify(file));
        const summary = { out: values.out, tree_size: file.checkpoint.tree_size, range: file.range, leaves: file.leaves.length };
        io.out(values.json ? `${JSON.stringify(summary)}\n` : `wrote ${values.out}: leaves ${file.range.from}..${file.range.to} (${file.leaves.length} listed) against the checkpoint of tree size ${file.checkpoint.tree_size}\n`);
        return ExitCode.verified;
      }
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof SourceError) {
      io.err(`vigil-verify: ${error.message}\n`);
      if (error instanceof UsageError) io.err(`${USAGE}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
}

function connect(url: string | undefined, io: Io): IntegrityApi {
  if (!url) throw new UsageError('--url <api> is needed (e.g. http://localhost:3000)');
  return new IntegrityApi({ url, apiKey: io.env.VIGIL_API_KEY, fetch: io.fetch });
}

function index(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`${name} must be a leaf index (0, 1, ...), got ${text}`);
  return Number(text);
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SourceError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new SourceError(`${path} is not JSON`);
  }
}

/** Keys as `GET /v1/integrity/keys` answers (`{ data: [...] }`), a bare array, or an export file's `keys`. */
function readKeys(path: string): CheckpointPublicKey[] {
  const json = readJson(path) as { data?: unknown; keys?: unknown } | unknown[];
  const list = Array.isArray(json) ? json : Array.isArray(json?.data) ? json.data : Array.isArray(json?.keys) ? json.keys : null;
  if (!list || !list.every((k) => k && typeof k.key_id === 'string' && typeof k.public_key === 'string')) {
    throw new SourceError(`${path} holds no list of { key_id, public_key }`);
  }
  return list as CheckpointPublicKey[];
}

/** A checkpoint as the API answers it, or any object with one under `checkpoint` (a proof, an export). */
function readCheckpoint(path: string): SignedCheckpoint {
  const json = readJson(path) as SignedCheckpoint & { checkpoint?: SignedCheckpoint };
  const cp = json && typeof json === 'object' && 'checkpoint' in json && json.checkpoint ? json.checkpoint : json;
  if (!cp || typeof cp !== 'object' || !Number.isSafeInteger(cp.tree_size) || typeof cp.signature !== 'string') {
    throw new SourceError(`${path} holds no checkpoint { tree_size, root_hash, timestamp, key_id, signature }`);
  }
  return cp;
}

/** Prints a report (readable, or JSON) and answers its exit code. */
export function print(io: Io, json: boolean | undefined, subject: string, report: VerificationReport): number {
  if (json) {
    io.out(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const lines = [`Verifying ${subject}`];
    for (const passed of report.passed) lines.push(`  ok      ${passed}`);
    if (report.keys_source === 'untrusted') {
      lines.push('  note    no --keys given: the signature was checked with keys from the same source as the data;');
      lines.push('          keep the keys (and a checkpoint) apart from the server and pass them to rule out a replaced log');
    }
    const f = report.failure;
    if (f) {
      const where = f.leaf_index === null ? '' : ` at leaf ${f.leaf_index}${f.event_id ? ` (${f.event_id})` : ''}`;
      lines.push(`  FAILED  ${f.reason}${where}: ${f.detail}`);
    } else {
      lines.push(`VERIFIED: leaves ${report.range?.from}..${report.range?.to} against the checkpoint of tree size ${report.checkpoint?.tree_size}, root ${report.checkpoint?.root_hash}`);
    }
    io.out(`${lines.join('\n')}\n`);
  }
  return report.ok ? ExitCode.verified : ExitCode.failed;
}

if (require.main === module) {
  runVerify(process.argv.slice(2), { env: process.env, out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: Error) => {
      process.stderr.write(`vigil-verify: ${process.env.VIGIL_DEBUG ? error.stack : error.message}\n`);
      process.exitCode = ExitCode.usage;
    },
  );
}
