import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { renderBanner } from './banner';
import { resolveLogFormat } from './logger';

const ROOT = resolve(__dirname, '../../../../..');
const FIXTURE = resolve(__dirname, 'fixtures/log-output-fixture.ts');

interface Run {
  code: number | null;
  /** stdout (on a pseudo-terminal: everything the terminal shows), without colours or CRs. */
  lines: string[];
  stderr: string;
}

/**
 * Runs the fixture service with its stdout on a real pseudo-terminal (util-linux `script`) or on a
 * pipe, as a log collector would read it.
 */
function runFixture(stdout: 'terminal' | 'pipe', env: Record<string, string> = {}): Promise<Run> {
  const node = [process.execPath, '-r', '@swc-node/register', FIXTURE];
  const [command, args] = stdout === 'terminal' ? ['script', ['-qfec', node.join(' '), '/dev/null']] : [node[0]!, node.slice(1)];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'auto', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((done) =>
    child.on('close', (code) =>
      done({
        code,
        // eslint-disable-next-line no-control-regex
        lines: out.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '').split('\n').filter((line) => line.trim() !== ''),
        stderr: err,
      }),
    ),
  );
}

const parseAll = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('log output of a service', () => {
  let terminal: Run;
  let piped: Run;
  let terminalForcedJson: Run;
  let pipedDebug: Run;

  beforeAll(async () => {
    [terminal, piped, terminalForcedJson, pipedDebug] = await Promise.all([
      runFixture('terminal'),
      runFixture('pipe'),
      runFixture('terminal', { LOG_FORMAT: 'json' }),
      runFixture('pipe', { LOG_LEVEL: 'debug' }),
    ]);
  }, 60_000);

  it('on a terminal: human-readable lines, no route registrations, and the banner as text', () => {
    expect(terminal.code).toBe(0);
    expect(terminal.lines.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    expect(terminal.lines).toContainEqual(expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[log-fixture\] service started \{"port":\d+,"metrics_port":\d+\}$/));
    expect(terminal.lines.join('\n')).not.toMatch(/Mapped \{|RoutesResolver|RouterExplorer|InstanceLoader/);
    expect(terminal.lines).toContain('  log-fixture started');
    expect(terminal.lines).toContain('  Fixture token  shown-in-the-banner   (shown once)');
    // Fields still print, and redaction applies to human-readable lines too.
    expect(terminal.lines).toContainEqual(expect.stringContaining('an entry with fields {"user":"alice","password":"[redacted]"}'));
    expect(terminal.lines.join('\n')).not.toContain('never-printed');
  });

  it('through a pipe: every line is JSON, route registrations absent at info level, the banner one structured line', () => {
    expect(piped.code).toBe(0);
    const entries = parseAll(piped.lines);
    expect(entries).toContainEqual(expect.objectContaining({ level: 'info', service: 'log-fixture', msg: 'service started' }));
    expect(entries.filter((e) => /^Mapped \{/.test(String(e.msg)) || e.context === 'RoutesResolver')).toEqual([]);
    expect(entries).toContainEqual(expect.objectContaining({ banner: true, msg: 'log-fixture started', fixture_token: 'shown-in-the-banner' }));
    expect(piped.lines.join('\n')).not.toContain('never-printed');
  });

  it('LOG_FORMAT=json gives JSON on a terminal too', () => {
    expect(terminalForcedJson.code).toBe(0);
    expect(parseAll(terminalForcedJson.lines)).toContainEqual(expect.objectContaining({ msg: 'service started' }));
  });

  it('route registrations are logged at debug level', () => {
    expect(pipedDebug.code).toBe(0);
    expect(parseAll(pipedDebug.lines)).toContainEqual(
      expect.objectContaining({ level: 'debug', context: 'RouterExplorer', msg: 'Mapped {/things, GET} route' }),
    );
  });
});

describe('resolveLogFormat', () => {
  it('auto is pretty on a terminal and JSON otherwise; json and pretty are forced', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });
});

describe('renderBanner', () => {
  it('aligns labels, separates sections with an empty line and leaves out empty sections', () => {
    const text = renderBanner('Vigil is running', [
      [{ label: 'API', value: 'http://localhost:3000', field: 'api_url' }],
      [],
      [{ label: 'Data folder', value: '/data', field: 'data_dir', note: 'kept' }],
    ]);
    expect(text).toBe('\n  Vigil is running\n\n  API          http://localhost:3000\n\n  Data folder  /data   (kept)\n\n');
  });
});
