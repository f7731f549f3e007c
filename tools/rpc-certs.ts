/**
 * npm run rpc:certs [-- <folder> [days]]: a CA and one RPC certificate per service, for a
 * deployment without a PKI of its own (docker compose, or `kubectl create secret` per service).
 * Writes <folder>/ca.crt, ca.key (keep it offline: it issues identities), and <service>.crt,
 * <service>.key for gateway, auth, policy, event-ingest, delivery and pg-proxy. Default folder
 * .rpc-certs, validity 365 days. Rotation: run it again into a new folder and roll the services
 * (docs/operations.md#rpc-certificates).
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRpcAuthority, issueRpcCertificate } from '@vigil/contracts';

const SERVICES = ['gateway', 'auth', 'policy', 'event-ingest', 'delivery', 'pg-proxy'];
const folder = resolve(process.argv[2] ?? '.rpc-certs');
const days = Number(process.argv[3] ?? 365);
if (!Number.isInteger(days) || days < 1 || days > 3650) {
  process.stderr.write('rpc:certs: the validity must be a whole number of days from 1 to 3650\n');
  process.exit(1);
}
if (existsSync(join(folder, 'ca.key'))) {
  process.stderr.write(`rpc:certs: ${folder} already holds a CA; write a new set into another folder\n`);
  process.exit(1);
}
mkdirSync(folder, { recursive: true, mode: 0o700 });
chmodSync(folder, 0o700);
// Keys are readable by the containers' user (10001) through the bind mounts: the folder (0700)
// is what keeps other local users out.
const write = (name: string, text: string, mode: number) => writeFileSync(join(folder, name), text, { mode });
const ca = createRpcAuthority(`vigil-rpc-ca-${new Date().toISOString().slice(0, 10)}`, days + 30);
write('ca.crt', ca.cert, 0o644);
write('ca.key', ca.key, 0o600);
for (const service of SERVICES) {
  const issued = issueRpcCertificate(ca, service, days);
  write(`${service}.crt`, issued.cert, 0o644);
  write(`${service}.key`, issued.key, 0o644);
}
process.stdout.write(`rpc:certs: wrote a CA and certificates for ${SERVICES.join(', ')} into ${folder} (valid ${days} days)\n`);
