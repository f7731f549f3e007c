import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/config';
import { createRpcAuthority, issueRpcCertificate } from '@vigil/contracts';
import { checkRpcCredentials, rpcCredentialsFromConfig } from './rpc-security';

describe('RPC credentials', () => {
  const authority = createRpcAuthority('test-ca');
  const other = createRpcAuthority('other-ca');
  const auth = issueRpcCertificate(authority, 'auth');
  const base = { RPC_HOST: '127.0.0.1', RPC_INSECURE: false };

  it('accepts a certificate issued to the service by the CA, with its own key', () => {
    expect(checkRpcCredentials('auth', { identity: 'auth', ca: authority.cert, ...auth })).toBeUndefined();
  });

  it("refuses another service's certificate, one from another CA, a mismatched key and an expired one", () => {
    expect(checkRpcCredentials('gateway', { identity: 'gateway', ca: authority.cert, ...auth })).toMatch(/issued to "auth", not to this service \("gateway"\)/);
    const foreign = issueRpcCertificate(other, 'auth');
    expect(checkRpcCredentials('auth', { identity: 'auth', ca: authority.cert, ...foreign })).toMatch(/not signed by the CA/);
    expect(checkRpcCredentials('auth', { identity: 'auth', ca: authority.cert, cert: auth.cert, key: issueRpcCertificate(authority, 'auth').key })).toMatch(
      /does not belong to the key/,
    );
    expect(checkRpcCredentials('auth', { identity: 'auth', ca: authority.cert, ...auth }, new Date(Date.now() + 400 * 86_400_000))).toMatch(/not valid now/);
  });

  it('fails closed: no files and no RPC_INSECURE is a configuration error naming the variables', () => {
    expect(() => rpcCredentialsFromConfig('auth', base)).toThrow(ConfigError);
    expect(() => rpcCredentialsFromConfig('auth', base)).toThrow(/RPC_TLS_CERT_FILE.*RPC_INSECURE=true/s);
    expect(rpcCredentialsFromConfig('auth', { ...base, RPC_INSECURE: true })).toBeNull();
  });

  it('reads the three files, and wants all three', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rpc-cred-'));
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const files = { RPC_TLS_CA_FILE: write('ca.pem', authority.cert), RPC_TLS_CERT_FILE: write('auth.pem', auth.cert), RPC_TLS_KEY_FILE: write('auth.key', auth.key) };
    expect(rpcCredentialsFromConfig('auth', { ...base, ...files })).toMatchObject({ identity: 'auth', cert: auth.cert });
    expect(() => rpcCredentialsFromConfig('auth', { ...base, RPC_TLS_CERT_FILE: files.RPC_TLS_CERT_FILE })).toThrow(/RPC_TLS_CA_FILE is required when any/);
    expect(() => rpcCredentialsFromConfig('auth', { ...base, ...files, RPC_TLS_KEY_FILE: join(dir, 'missing.key') })).toThrow(/cannot be read \(ENOENT\)/);
    expect(() => rpcCredentialsFromConfig('delivery', { ...base, ...files })).toThrow(/issued to "auth"/);
  });

  it('validates RPC_HOST', () => {
    expect(() => rpcCredentialsFromConfig('auth', { ...base, RPC_INSECURE: true, RPC_HOST: 'not a host;' })).toThrow(/RPC_HOST must be an IP address or a host name/);
    expect(rpcCredentialsFromConfig('auth', { ...base, RPC_INSECURE: true, RPC_HOST: 'auth.vigil.svc' })).toBeNull();
    expect(rpcCredentialsFromConfig('auth', { ...base, RPC_INSECURE: true, RPC_HOST: '::' })).toBeNull();
  });
});
