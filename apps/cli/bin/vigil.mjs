#!/usr/bin/env node
// The `vigil` command. Its TypeScript sources run on Node 24 as they are (Node erases the types:
// no build step, quick start). On another Node (the machine's own, say) this script starts itself
// again with the Node 24 the project installs (node_modules/.bin/node, from the `node` package).
// So this file itself must run on any Node since 18: no newer syntax, no newer named imports.
import { spawn } from 'node:child_process';
import nodeModule from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), '..', '..', '..');
const major = Number(process.versions.node.split('.')[0]);

if (major === 24) {
  // Node keeps the compiled (and type-erased) sources in its cache directory: later starts skip that work.
  nodeModule.enableCompileCache();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const { run } = await import('../src/cli.ts');
  process.exitCode = await run(process.argv.slice(2), { version, env: process.env });
} else {
  const node = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(node)) {
    process.stderr.write(`vigil: needs Node.js 24 (this is ${process.version}); run \`npm install\` in ${root} to get it\n`);
    process.exit(1);
  }
  const child = spawn(node, [self, ...process.argv.slice(2)], { stdio: 'inherit' });
  // A terminal's Ctrl-C reaches both processes; other signals are passed on. Either way the
  // child decides, and this process leaves as it does.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}
