import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../../../..');

/** Where the previous release is named (docs/operations.md#upgrading-and-migrations). */
export const RELEASE_PIN = 'tools/previous-release.txt';

export interface PreviousRelease {
  commit: string;
  version: string;
  /** Its service bundles, `<service>/main.js`, built as its own build target builds them. */
  bundles: string;
  /** `built` this run, or `cached` (built by an earlier run, kept under tmp/previous-release/<commit>). */
  how: 'built' | 'cached';
  /** How its dependencies were provided: this checkout's node_modules (same package-lock.json), or installed from its own lockfile. */
  nodeModules: 'linked' | 'installed';
  /** Wall time of each step of the preparation, and in all. */
  timings: Record<string, number>;
}

/** The previous release as tools/previous-release.txt names it. */
export function pinnedRelease(): { commit: string; version: string } {
  const values: Record<string, string> = {};
  for (const line of readFileSync(join(ROOT, RELEASE_PIN), 'utf8').split('\n')) {
    const match = /^\s*([a-z]+)\s*=\s*(\S+)\s*$/.exec(line);
    if (match) values[match[1]!] = match[2]!;
  }
  if (!/^[0-9a-f]{40}$/.test(values.commit ?? '') || !values.version) throw new Error(`${RELEASE_PIN} must name the previous release as commit=<full 40-character hash> and version=<version>`);
  return { commit: values.commit!, version: values.version };
}

const run = promisify(execFile);

async function git(args: string[]): Promise<{ ok: boolean; stdout: string }> {
  return run('git', ['-C', ROOT, ...args], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }).then(
    ({ stdout }) => ({ ok: true, stdout }),
    (error: { stdout?: string }) => ({ ok: false, stdout: error.stdout ?? '' }),
  );
}

/**
 * The previous release's service bundles, from the repository's own history: its source at the
 * pinned commit (`git archive`, into tmp/previous-release/<commit>), its dependencies (a link to this
 * checkout's node_modules when its package-lock.json is the same file, else `npm install` from its
 * own lockfile, as CI installs), and its bundles built by its own build target
 * (`nx run-many -t build`). The result is kept by commit: a later run reuses it. A clone without
 * that commit (a shallow one) fails here, saying what is needed.
 */
export async function preparePreviousRelease(services: string[]): Promise<PreviousRelease> {
  const { commit, version } = pinnedRelease();
  const began = Date.now();
  const timings: Record<string, number> = {};
  const say = (line: string) => process.stdout.write(`previous release ${version} (${commit.slice(0, 7)}): ${line}\n`);

  if (!(await git(['rev-parse', '--git-dir'])).ok) {
    throw new Error(`the upgrade test builds the previous release (${RELEASE_PIN}: ${version}, ${commit}) from the repository's history, and ${ROOT} is not a git clone`);
  }
  if (!(await git(['cat-file', '-e', `${commit}^{commit}`])).ok) {
    const shallow = (await git(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true';
    throw new Error(
      `the previous release's commit ${commit} (${version}, named in ${RELEASE_PIN}) is not in this clone${shallow ? ', a shallow one' : ''}: ` +
        `the upgrade test builds that release from the repository's history. Clone with the whole history (no --depth; actions/checkout: fetch-depth: 0), ` +
        `or fetch it: ${shallow ? 'git fetch --unshallow' : `git fetch origin ${commit}`}`,
    );
  }

  const folder = join(ROOT, 'tmp', 'previous-release', commit);
  const marker = join(folder, '.prepared.json');
  const bundles = join(folder, 'dist', 'apps');
  const lockfile = await git(['show', `${commit}:package-lock.json`]);
  const sameLockfile = lockfile.ok && lockfile.stdout === readFileSync(join(ROOT, 'package-lock.json'), 'utf8');
  const built = services.every((service) => existsSync(join(bundles, service, 'main.js')));
  if (existsSync(marker) && built) {
    const prepared = JSON.parse(readFileSync(marker, 'utf8')) as { nodeModules: 'linked' | 'installed' };
    // A linked node_modules holds while this checkout's lockfile is still the release's.
    if (prepared.nodeModules === 'installed' || sameLockfile) {
      timings.total = Date.now() - began;
      say(`cached in ${folder} (node_modules ${prepared.nodeModules}; ${timings.total} ms)`);
      return { commit, version, bundles, how: 'cached', nodeModules: prepared.nodeModules, timings };
    }
  }

  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  let step = Date.now();
  await run('bash', ['-c', 'set -o pipefail; git -C "$1" archive --format=tar "$2" | tar -x -C "$3"', 'archive', ROOT, commit, folder], { maxBuffer: 16 * 1024 * 1024 });
  timings.source = Date.now() - step;
  say(`source from git archive (${timings.source} ms)`);

  // The services' Node (24) first on PATH: npm and nx start `node` by name.
  const env = { ...process.env, PATH: [join(ROOT, 'node_modules', '.bin'), dirname(process.execPath), process.env.PATH ?? ''].join(delimiter), NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
  step = Date.now();
  const nodeModules = sameLockfile ? 'linked' : 'installed';
  if (sameLockfile) {
    symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir');
  } else {
    // `npm install`, as CI installs this checkout (it installs what the lockfile pins).
    await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: folder, env, timeout: 1_200_000, maxBuffer: 64 * 1024 * 1024 });
  }
  timings.dependencies = Date.now() - step;
  say(`node_modules ${sameLockfile ? 'linked (same package-lock.json)' : 'installed (its package-lock.json differs)'} (${timings.dependencies} ms)`);

  step = Date.now();
  await run(process.execPath, [join(folder, 'node_modules', '.bin', 'nx'), 'run-many', '-t', 'build', '-p', services.join(','), '--output-style=static', '--skip-nx-cache'], {
    cwd: folder,
    env,
    timeout: 1_200_000,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: Error & { stdout?: string; stderr?: string }) => {
    throw new Error(`building the previous release's bundles failed: ${error.message}\n${(error.stdout ?? '').slice(-3000)}\n${(error.stderr ?? '').slice(-3000)}`);
  });
  const missing = services.filter((service) => !existsSync(join(bundles, service, 'main.js')));
  if (missing.length) throw new Error(`the previous release's build made no bundle for ${missing.join(', ')} (looked in ${bundles})`);
  timings.build = Date.now() - step;
  timings.total = Date.now() - began;
  say(`bundles of ${services.join(', ')} built (${timings.build} ms; ${timings.total} ms in all)`);
  writeFileSync(marker, JSON.stringify({ commit, version, nodeModules, services, preparedAt: new Date().toISOString(), timings }, null, 2));
  return { commit, version, bundles, how: 'built', nodeModules, timings };
}
