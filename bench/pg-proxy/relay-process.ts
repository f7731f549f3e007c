/**
 * The benchmark's baseline: a minimal pass-through relay between pgbench and PostgreSQL in its own
 * Node process (no protocol parsing, no capture, no policies: each chunk read on one socket is
 * written to the other). What it costs against a direct connection is what any Node relay costs
 * on this machine; the proxy's figures beyond it are the proxy's own work. Prints `LISTENING <port>`.
 */
import { connect, createServer } from 'node:net';

const upstream = new URL(process.argv[2]!);
const server = createServer((client) => {
  const db = connect({ host: upstream.hostname, port: Number(upstream.port || 5432) });
  client.setNoDelay(true);
  db.setNoDelay(true);
  client.on('data', (chunk: Buffer) => db.write(chunk));
  db.on('data', (chunk: Buffer) => client.write(chunk));
  client.on('close', () => db.destroy());
  db.on('close', () => client.destroy());
  client.on('error', () => db.destroy());
  db.on('error', () => client.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => process.exit(0));
