import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from '@vigil/testing';
import { apiKey } from './testing/access';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

const BIN = resolve(__dirname, '../../cli/bin/vigil.mjs');

/** A Node other than 24 on PATH (the machine's own), if there is one. */
function otherNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const candidate = join(dir, 'node');
    if (!dir || dir.includes('node_modules') || !existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    if (version && !version.startsWith('24.')) return candidate;
  }
  return undefined;
}

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The `vigil` command (apps/cli) against a whole running system, as a user runs it: a real child
 * process on the bin script, talking to the gateway over HTTP only.
 */
describe('vigil CLI', () => {
  let system: TestSystem;
  let token: string;
  let key: string;
  let home: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { STREAM_HEARTBEAT_MS: '500' } });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    key = (await apiKey(system.gatewayUrl, token, ['admin'])).key;
    home = mkdtempSync(join(tmpdir(), 'vigil-cli-'));
  }, 120_000);

  afterAll(async () => {
    children.forEach((child) => child.kill('SIGKILL'));
    await system?.close();
    rmSync(home, { recursive: true, force: true });
  });

  const environment = (extra: Record<string, string | undefined>) => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith('VIGIL_')) env[name] = value;
    Object.assign(env, { VIGIL_URL: system.gatewayUrl, VIGIL_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' });
    for (const [name, value] of Object.entries(extra)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    return env;
  };

  const start = (args: string[], env: Record<string, string | undefined> = { VIGIL_API_KEY: key }, launcher = [process.execPath]) => {
    const child = spawn(launcher[0]!, [...launcher.slice(1), BIN, ...args], { env: environment(env), stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    return child;
  };

  const vigil = (args: string[], options: { env?: Record<string, string | undefined>; input?: string; launcher?: string[] } = {}): Promise<Result> => {
    const child = start(args, options.env, options.launcher);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.stdin!.end(options.input ?? '');
    return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
  };

  const policiesNamed = async (prefix: string) => {
    const listed = await http(system.gatewayUrl, 'GET', '/v1/policies?per_page=100', { token });
    const items = listed.body.data.filter((p: { name: string }) => p.name.startsWith(prefix));
    return Promise.all(items.map(async (p: { id: string }) => (await http(system.gatewayUrl, 'GET', `/v1/policies/${p.id}`, { token })).body));
  };

  const rule = (pattern: string) => ({ rules: [{ name: 'no drops', pattern, action: 'block', severity: 'critical', message: 'DROP is forbidden' }] });

  describe('login', () => {
    it('stores the tokens in a 0600 file in a 0700 directory, uses and refreshes them, and logout removes them', async () => {
      const env = { VIGIL_CONFIG_DIR: join(home, 'login') };
      const wrong = await vigil(['login', '--email', 'admin@example.com', '--password-stdin'], { env, input: 'not-the-password\n' });
      expect(wrong.code).toBe(4);
      expect(wrong.stderr).toMatch(/^vigil: login failed: 401/);

      const result = await vigil(['login', '--email', 'admin@example.com', '--password-stdin'], { env, input: `${system.adminPassword}\n` });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const file = join(home, 'login', 'credentials.json');
      expect(JSON.parse(result.stdout)).toEqual({ logged_in: true, url: system.gatewayUrl, email: 'admin@example.com', credentials_file: file });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(home, 'login')).mode & 0o777).toBe(0o700);
      const stored = readFileSync(file, 'utf8');
      expect(stored).not.toContain(system.adminPassword);
      const session = JSON.parse(stored).servers[system.gatewayUrl];
      expect(session).toMatchObject({ email: 'admin@example.com', access_token: expect.any(String), refresh_token: expect.any(String) });

      expect((await vigil(['policies', 'list'], { env })).code).toBe(0);

      // An expired access token is refreshed with the refresh token (which rotates), then used.
      writeFileSync(file, JSON.stringify({ version: 1, servers: { [system.gatewayUrl]: { ...session, expires_at: new Date(Date.now() - 1000).toISOString() } } }));
      const listed = await vigil(['policies', 'list'], { env });
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      const refreshed = JSON.parse(readFileSync(file, 'utf8')).servers[system.gatewayUrl];
      expect(refreshed.refresh_token).not.toBe(session.refresh_token);
      expect(Date.parse(refreshed.expires_at)).toBeGreaterThan(Date.now());
      expect(statSync(file).mode & 0o777).toBe(0o600);

      // Processes finding the token expired at once: one refreshes, the others wait for the lock and
      // use (or refresh) the tokens it stored. Spending the same refresh token twice would end the session.
      const current = JSON.parse(readFileSync(file, 'utf8')).servers[system.gatewayUrl];
      writeFileSync(file, JSON.stringify({ version: 1, servers: { [system.gatewayUrl]: { ...current, expires_at: new Date(Date.now() - 1000).toISOString() } } }));
      const together = await Promise.all([1, 2, 3, 4].map(() => vigil(['policies', 'list'], { env })));
      expect(together.map((r) => [r.code, r.stderr])).toEqual([1, 2, 3, 4].map(() => [0, '']));
      expect(JSON.parse(readFileSync(file, 'utf8')).servers[system.gatewayUrl].refresh_token).not.toBe(current.refresh_token);
      expect((await vigil(['policies', 'list'], { env })).code).toBe(0);

      const beforeLogout = JSON.parse(readFileSync(file, 'utf8')).servers[system.gatewayUrl];
      const loggedOut = await vigil(['logout'], { env });
      expect(loggedOut).toMatchObject({ code: 0 });
      expect(JSON.parse(loggedOut.stdout)).toEqual({ logged_out: true, session_revoked: true, url: system.gatewayUrl });
      // The session ended on the server too: its refresh token is refused.
      const reuse = await fetch(`${system.gatewayUrl}/v1/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: beforeLogout.refresh_token }) });
      expect(reuse.status).toBe(401);
      const after = await vigil(['policies', 'list'], { env });
      expect(after.code).toBe(4);
      expect(after.stderr).toContain('not logged in');
    });

    it('refuses to read a password from a pipe without --password-stdin (usage, exit 2)', async () => {
      const result = await vigil(['login', '--email', 'admin@example.com'], { env: { VIGIL_CONFIG_DIR: join(home, 'nologin') } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--password-stdin');
    });
  });

  describe('the bin script', () => {
    it('runs under another Node by starting itself again with the project Node 24, passing stdin, output and exit codes through', async () => {
      // The machine's own Node when there is one; otherwise this Node, told it is another version.
      const other = otherNode();
      const launcher = other ? [other] : [process.execPath, '--import', 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.0.0"})'];
      const env = { VIGIL_CONFIG_DIR: join(home, 'other-node') };
      const login = await vigil(['login', '--email', 'admin@example.com', '--password-stdin', '--output', 'text'], { env, input: system.adminPassword, launcher });
      expect(login).toMatchObject({ code: 0, stdout: `Logged in to ${system.gatewayUrl} as admin@example.com (tokens in ${join(home, 'other-node', 'credentials.json')})\n`, stderr: '' });
      const refused = await vigil(['events', 'search', '--severity', 'loud'], { env, launcher });
      expect(refused.code).toBe(3);
      expect((await vigil(['events', 'search', '--limit', 'many'], { env, launcher })).code).toBe(2);
    });
  });

  describe('policies as code', () => {
    const file = () => join(home, 'policies.yaml');

    it('creates from a file, updates what changed, shows a dry run without changing anything, prunes, and export round-trips', async () => {
      writeFileSync(
        file(),
        [
          'policies:',
          '  cli-drops:',
          '    type: query_control',
          '    description: No DROP on orders',
          '    enabled: true',
          '    databases: [db_cli]',
          '    config:',
          '      rules:',
          '        - {name: no drops, pattern: "\\\\bDROP\\\\b", action: block, severity: critical, message: DROP is forbidden}',
          '  cli-hours:',
          '    type: access_control',
          '    databases: [db_cli]',
          '    config:',
          '      conditions: {time_window: {start: "08:00", end: "18:00", timezone: UTC}}',
          '      actions: [{type: block}]',
        ].join('\n'),
      );
      const created = await vigil(['policies', 'apply', '-f', file()]);
      expect(created).toMatchObject({ code: 0 });
      expect(JSON.parse(created.stdout)).toEqual({
        dry_run: false,
        changes: [
          { action: 'create', name: 'cli-drops' },
          { action: 'create', name: 'cli-hours' },
        ],
        unchanged: [],
        unmanaged: expect.any(Array),
      });
      const [drops, hours] = (await policiesNamed('cli-')).sort((a, b) => a.name.localeCompare(b.name));
      expect(drops).toMatchObject({ name: 'cli-drops', type: 'query_control', enabled: true, description: 'No DROP on orders', config: rule('\\bDROP\\b') });
      expect(hours).toMatchObject({ name: 'cli-hours', type: 'access_control', enabled: false, enforcement_mode: 'enforce', databases: ['db_cli'] });

      // Applying the same file again changes nothing.
      const again = await vigil(['policies', 'apply', '-f', file(), '--output', 'text']);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('No changes: 2 policies match the file.');

      // A changed file: the dry run shows the diff, exits 10 with --detailed-exitcode, and changes nothing.
      writeFileSync(file(), readFileSync(file(), 'utf8').replace('\\\\bDROP\\\\b', '\\\\b(DROP|TRUNCATE)\\\\b').replace('enabled: true', 'enabled: false'));
      const dry = await vigil(['policies', 'apply', '-f', file(), '--dry-run', '--detailed-exitcode', '--output', 'text']);
      expect(dry.code).toBe(10);
      expect(dry.stdout).toContain(`~ update cli-drops (${drops.id})`);
      expect(dry.stdout).toContain('    enabled: true -> false');
      expect(dry.stdout).toContain('    config.rules[0].pattern: "\\\\bDROP\\\\b" -> "\\\\b(DROP|TRUNCATE)\\\\b"');
      expect(dry.stdout).toContain('Dry run: 0 to create, 1 to update, 0 to delete, 1 unchanged. Nothing was changed.');
      expect((await policiesNamed('cli-drops'))[0]).toMatchObject({ enabled: true, config: rule('\\bDROP\\b'), updated_at: drops.updated_at });

      const updated = await vigil(['policies', 'apply', '-f', file()]);
      expect(updated.code).toBe(0);
      expect(JSON.parse(updated.stdout).changes).toEqual([
        {
          action: 'update',
          name: 'cli-drops',
          id: drops.id,
          fields: [
            { field: 'enabled', from: true, to: false },
            { field: 'config.rules[0].pattern', from: '\\bDROP\\b', to: '\\b(DROP|TRUNCATE)\\b' },
          ],
        },
      ]);
      expect((await policiesNamed('cli-drops'))[0]).toMatchObject({ id: drops.id, enabled: false, config: rule('\\b(DROP|TRUNCATE)\\b') });

      // Without --prune a policy left out of the file is kept (and reported); with it, deleted.
      writeFileSync(file(), readFileSync(file(), 'utf8').split('  cli-hours:')[0]!);
      const kept = await vigil(['policies', 'apply', '-f', file()]);
      expect(JSON.parse(kept.stdout)).toMatchObject({ changes: [], unchanged: ['cli-drops'], unmanaged: expect.arrayContaining(['cli-hours']) });
      const pruneDry = await vigil(['policies', 'apply', '-f', file(), '--prune', '--dry-run']);
      expect(JSON.parse(pruneDry.stdout).changes).toContainEqual({ action: 'delete', name: 'cli-hours', id: hours.id });
      expect(await policiesNamed('cli-hours')).toHaveLength(1);
      const pruned = await vigil(['policies', 'apply', '-f', file(), '--prune', '--output', 'text']);
      expect(pruned.code).toBe(0);
      expect(pruned.stderr).toContain('deleted cli-hours');
      expect(await policiesNamed('cli-hours')).toHaveLength(0);
      expect((await http(system.gatewayUrl, 'GET', `/v1/policies/${hours.id}`, { token })).status).toBe(404);

      // Export, then apply the export: nothing to do, in both formats.
      for (const format of ['yaml', 'json']) {
        const out = join(home, `export.${format}`);
        const exported = await vigil(['policies', 'export', '-o', out]);
        expect(exported.code).toBe(0);
        const text = readFileSync(out, 'utf8');
        if (format === 'yaml') expect(text).toMatch(/^# Vigil policies exported from /);
        else expect(JSON.parse(text).policies['cli-drops']).toMatchObject({ type: 'query_control', enabled: false, databases: ['db_cli'] });
        const replay = await vigil(['policies', 'apply', '-f', out, '--prune', '--dry-run', '--detailed-exitcode']);
        expect(replay.code).toBe(0);
        expect(JSON.parse(replay.stdout)).toMatchObject({ dry_run: true, changes: [], unmanaged: [] });
      }
      // About twenty CLI processes, each a Node start: the default minute is too short on a busy machine.
    }, 180_000);

    it('rejects a bad file before any call, naming the path and line of each bad field (exit 2)', async () => {
      writeFileSync(file(), ['policies:', '  cli-bad:', '    type: query_control', '    databases: [orders]', '    config: {}', '    enabeld: true'].join('\n'));
      const result = await vigil(['policies', 'apply', '-f', file()]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`${file()}:6: policies.cli-bad.enabeld: unknown field`);
      expect(result.stderr).toContain(`${file()}:4: policies.cli-bad.databases[0]: must be a database id (db_...) or *`);
      expect(await policiesNamed('cli-bad')).toHaveLength(0);
    });

    it('shows an API refusal as one line with the failing field (exit 3)', async () => {
      writeFileSync(file(), ['policies:', '  cli-refused:', '    type: query_control', '    databases: [db_cli]', '    config: {rules: [{name: r, pattern: "(a)\\\\1", action: block}]}'].join('\n'));
      const result = await vigil(['policies', 'apply', '-f', file()]);
      expect(result.code).toBe(3);
      const lines = result.stderr.trim().split('\n');
      expect(lines[lines.length - 1]).toMatch(/^vigil: policy "cli-refused" \(create\): 422 invalid_policy_config: .*\(config\.rules\[0\]\.pattern: .+\)$/);
    });

    it('exits 4 with a key the server does not know', async () => {
      const result = await vigil(['policies', 'export'], { env: { VIGIL_API_KEY: 'vgl_not_a_key' } });
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(/^vigil: 401 /);
    });
  });

  describe('alerts and reports', () => {
    it('lists alerts with filters, acknowledges and resolves one, and refuses a transition with exit 3', async () => {
      const ingested = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', {
        token,
        body: { events: [{ type: 'security.anomaly', database_id: 'db_cli_alerts', details: { user: 'mallory', threat_type: 'unusual_volume' } }] },
      });
      expect(ingested.status).toBe(202);
      const alert = await waitFor(async () => (await http(system.gatewayUrl, 'GET', '/v1/alerts?database_id=db_cli_alerts', { token })).body.data[0], 15_000, 'the alert');

      const listed = await vigil(['alerts', 'list', '--database', 'db_cli_alerts', '--status', 'open']);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout).map((a: { id: string }) => a.id)).toEqual([alert.id]);
      const table = await vigil(['alerts', 'list', '--database', 'db_cli_alerts', '--output', 'text']);
      expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+CREATED_AT\s+SEVERITY\s+STATUS\s+TYPE\s+DATABASE_ID\s+OCCURRENCES\s+TITLE$/);
      expect(table.stdout).toContain(alert.id);

      const acked = await vigil(['alerts', 'ack', alert.id, '--output', 'text']);
      expect(acked).toMatchObject({ code: 0, stdout: expect.stringContaining(`${alert.id} is now acknowledged`) });
      const resolved = await vigil(['alerts', 'resolve', alert.id]);
      expect(JSON.parse(resolved.stdout)).toMatchObject({ id: alert.id, status: 'resolved' });
      const again = await vigil(['alerts', 'ack', alert.id]);
      expect(again.code).toBe(3);
      expect(again.stderr).toMatch(/^vigil: 409 alert_transition_not_allowed/);
      expect((await vigil(['alerts', 'list', '--database', 'db_cli_alerts', '--status', 'open'])).stdout.trim()).toBe('[]');
    });

    it('generates a report, waiting with progress until it is completed, and downloads it', async () => {
      const generated = await vigil(['reports', 'generate', '--type', 'sox', '--from', '1d', '--format', 'json,csv']);
      expect(generated.code).toBe(0);
      const report = JSON.parse(generated.stdout);
      expect(report).toMatchObject({ id: expect.stringMatching(/^rpt_/), type: 'sox', status: 'completed', progress: 100, formats: ['json', 'csv'] });
      expect(generated.stderr).toContain(`report ${report.id}: completed 100%`);

      const out = join(home, 'report.csv');
      const downloaded = await vigil(['reports', 'download', report.id, '--format', 'csv', '-o', out]);
      expect(downloaded.code).toBe(0);
      const direct = await fetch(`${system.gatewayUrl}/v1/reports/${report.id}/download?format=csv`, { headers: { authorization: `Bearer ${token}` } });
      expect(readFileSync(out, 'utf8')).toBe(await direct.text());
      const json = await vigil(['reports', 'download', report.id]);
      expect(JSON.parse(json.stdout)).toBeInstanceOf(Object);
      const missing = await vigil(['reports', 'download', report.id, '--format', 'html']);
      expect(missing.code).toBe(3);

      const queued = await vigil(['reports', 'generate', '--type', 'gdpr', '--from', '2h', '--no-wait']);
      expect(JSON.parse(queued.stdout)).toMatchObject({ type: 'gdpr', status: expect.stringMatching(/^(queued|running|completed)$/) });
      const refused = await vigil(['reports', 'generate', '--type', 'iso27001', '--from', '1d']);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/^vigil: 400 .*type: /);
    });
  });

  describe('events', () => {
    const ingest = async (events: Record<string, unknown>[]): Promise<string[]> => {
      const response = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', { token, body: { events } });
      expect(response.status).toBe(202);
      return response.body.ids;
    };

    /** Runs `vigil events tail`, collecting NDJSON lines, and resolves once it is connected. */
    const tail = async (args: string[], env?: Record<string, string>) => {
      const child = start(['events', 'tail', ...args], env ? { VIGIL_API_KEY: key, ...env } : undefined);
      const events: { id: string; type: string; database_id: string }[] = [];
      let stderr = '';
      let buffer = '';
      child.stdout!.on('data', (chunk) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) if (line) events.push(JSON.parse(line));
      });
      child.stderr!.on('data', (chunk) => (stderr += chunk));
      await waitFor(() => stderr.includes('streaming events from'), 20_000, `tail to connect (stderr: ${stderr})`);
      return { child, events, stderr: () => stderr };
    };

    it('tail prints the events stored after it started, filtered, one JSON line each', async () => {
      await ingest([{ type: 'database.query', database_id: 'db_tail', details: { query: 'SELECT before' } }]);
      const { child, events } = await tail(['--database', 'db_tail', '--type', 'database.*']);
      const ids = await ingest([
        { type: 'database.query', database_id: 'db_tail', details: { user: 'alice', query: 'SELECT 1' } },
        { type: 'security.threat_detected', database_id: 'db_tail' },
        { type: 'database.query', database_id: 'db_elsewhere' },
        { type: 'database.connection', database_id: 'db_tail' },
      ]);
      await waitFor(() => events.length >= 2, 10_000, 'two events');
      await new Promise((r) => setTimeout(r, 300));
      expect(events.map((e) => e.id)).toEqual([ids[0], ids[3]]);
      expect(events[0]).toMatchObject({ type: 'database.query', database_id: 'db_tail', details: { user: 'alice', query: 'SELECT 1' } });
      child.kill('SIGTERM');
    });

    it('tail reconnects after a dropped connection and resumes after the last event: no gap, no duplicate', async () => {
      // A TCP relay between the CLI and the gateway, so the test can cut the connection.
      const gateway = new URL(system.gatewayUrl);
      const sockets: Socket[] = [];
      const relay: Server = createServer((client) => {
        const upstream = connect(Number(gateway.port), gateway.hostname);
        sockets.push(client, upstream);
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
      const relayUrl = `http://127.0.0.1:${(relay.address() as { port: number }).port}`;
      try {
        const { child, events, stderr } = await tail(['--database', 'db_resume', '--url', relayUrl]);
        const first = await ingest([1, 2, 3].map((n) => ({ type: 'database.query', database_id: 'db_resume', details: { query: `SELECT ${n}` } })));
        await waitFor(() => events.length >= 3, 10_000, 'the first three events');
        sockets.splice(0).forEach((s) => s.destroy());
        // Stored while the CLI is disconnected: it must get them from the replay after reconnecting.
        const during = await ingest([4, 5].map((n) => ({ type: 'database.query', database_id: 'db_resume', details: { query: `SELECT ${n}` } })));
        await waitFor(() => stderr().includes('reconnected (resuming after'), 15_000, `the reconnect (stderr: ${stderr()})`);
        const after = await ingest([{ type: 'database.query', database_id: 'db_resume', details: { query: 'SELECT 6' } }]);
        await waitFor(() => events.length >= 6, 10_000, 'all six events');
        await new Promise((r) => setTimeout(r, 300));
        expect(events.map((e) => e.id)).toEqual([...first, ...during, ...after]);
        expect(stderr()).toContain(`resuming after ${first[2]}`);
        child.kill('SIGTERM');
      } finally {
        sockets.forEach((s) => s.destroy());
        relay.close();
      }
    });

    it('tail --since-id replays what was stored after that event, then continues live', async () => {
      const ids = await ingest([1, 2, 3].map((n) => ({ type: 'database.query', database_id: 'db_since', details: { query: `SELECT ${n}` } })));
      const { child, events } = await tail(['--database', 'db_since', '--since-id', ids[0]!]);
      const live = await ingest([{ type: 'database.query', database_id: 'db_since' }]);
      await waitFor(() => events.length >= 3, 10_000, 'replayed and live events');
      expect(events.map((e) => e.id)).toEqual([ids[1], ids[2], live[0]]);
      child.kill('SIGTERM');
    });

    it('tail prints readable lines on request', async () => {
      const { child } = await tail(['--database', 'db_text', '--output', 'text']);
      let stdout = '';
      child.stdout!.removeAllListeners('data');
      child.stdout!.on('data', (chunk) => (stdout += chunk));
      await ingest([{ type: 'security.threat_detected', database_id: 'db_text', details: { user: 'mallory', query: "SELECT *\n  FROM users WHERE name = '' OR 1=1" } }]);
      await waitFor(() => stdout.includes('\n'), 10_000, 'a line');
      expect(stdout).toMatch(/^\S+Z critical\s+security\.threat_detected\s+db_text\s+mallory\s+SELECT \* FROM users WHERE name = '' OR 1=1\n$/);
      child.kill('SIGTERM');
    });

    it('search applies the filters and pages through everything with --all', async () => {
      const ids = await ingest(Array.from({ length: 7 }, (_, n) => ({ type: 'database.query', database_id: 'db_search', details: { user: n % 2 ? 'odd' : 'even', query: `SELECT ${n}` } })));
      const page = await vigil(['events', 'search', '--database', 'db_search', '--limit', '3']);
      expect(page.code).toBe(0);
      expect(page.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual([ids[6], ids[5], ids[4]]);
      const all = await vigil(['events', 'search', '--database', 'db_search', '--limit', '3', '--all']);
      expect(all.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual([...ids].reverse());
      const odd = await vigil(['events', 'search', '--database', 'db_search', '--user', 'odd', '--start', '1h']);
      expect(odd.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual([ids[5], ids[3], ids[1]]);
      const bad = await vigil(['events', 'search', '--severity', 'loud']);
      expect(bad.code).toBe(3);
      expect(bad.stderr).toMatch(/^vigil: 400 .*severity: /);
    });
  });
});
