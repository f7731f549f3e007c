import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VIGIL_VERSION } from './version';

it('is the version in package.json', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
  expect(VIGIL_VERSION).toBe(pkg.version);
});
