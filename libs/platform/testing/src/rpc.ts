import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRpcAuthority, issueRpcCertificate, type RpcAuthority, type RpcCredentials } from '@vigil/contracts';

let authority: RpcAuthority | undefined;
let folder: string | undefined;

/**
 * One RPC certificate authority per test process: a test system started in the process and the
 * service processes a test spawns beside it (spawnTs) trust each other, as one deployment's do.
 */
export function testRpcAuthority(): RpcAuthority {
  return (authority ??= createRpcAuthority('vigil-test-rpc-ca'));
}

/** Credentials of `identity` from the test authority, for startService or an RpcClient. */
export function testRpcCredentials(identity: string, from: RpcAuthority = testRpcAuthority()): RpcCredentials {
  return { identity, ca: from.cert, ...issueRpcCertificate(from, identity) };
}

/** The RPC_TLS_*_FILE variables of `identity` (files written once in a temporary folder). */
export function testRpcFiles(identity: string): Record<string, string> {
  folder ??= mkdtempSync(join(tmpdir(), 'vigil-rpc-'));
  const { ca, cert, key } = testRpcCredentials(identity);
  const file = (name: string, text: string) => {
    const path = join(folder!, name);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
  return { RPC_TLS_CA_FILE: file('ca.pem', ca), RPC_TLS_CERT_FILE: file(`${identity}.pem`, cert), RPC_TLS_KEY_FILE: file(`${identity}.key`, key) };
}
