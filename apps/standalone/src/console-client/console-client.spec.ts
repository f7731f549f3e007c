import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../../..');
const SCHEMA = resolve(ROOT, 'apps/console/src/api/schema.d.ts');

/** `npm run console:client -- --check`, as a user runs it (openapi-typescript loads ES modules jest cannot). */
function check(file?: string): { status: number | null; output: string } {
  const args = ['-r', '@swc-node/register', 'apps/standalone/src/console-client/generate.ts', '--check', ...(file ? [file] : [])];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The console's API types are checked in: they must be what the current OpenAPI document generates. */
describe("the console's generated API client", () => {
  it('is what the current OpenAPI document generates (run `npm run console:client` after changing the API)', () => {
    const result = check();
    expect(result).toEqual({ status: 0, output: 'console API client is current\n' });
    expect(readFileSync(SCHEMA, 'utf8')).toContain('"/v1/alerts/{alert_id}/acknowledge"');
  }, 180_000);

  it('fails the check when the file differs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-schema-'));
    try {
      const edited = join(dir, 'schema.d.ts');
      writeFileSync(edited, `${readFileSync(SCHEMA, 'utf8')}\n// edited by hand\n`);
      const result = check(edited);
      expect(result.status).toBe(1);
      expect(result.output).toContain(`${edited} is out of date: run npm run console:client`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
