import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign, X509Certificate } from 'node:crypto';

/**
 * A minimal X.509 issuer for RPC identities: an ECDSA P-256 certificate authority and leaf
 * certificates whose common name is a service name. The standalone launcher makes a fresh one at
 * every start (nothing on disk), tests make their own, and `npm run rpc:certs` writes a set for a
 * distributed deployment that has no PKI of its own. Node has no certificate builder, so the DER
 * is written here (RFC 5280: only the fields and extensions TLS peers check).
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const sequence = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
const octets = (content: Buffer) => tlv(0x04, content);
const bits = (content: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), content]));
const TRUE = tlv(0x01, Buffer.from([0xff]));

function integer(value: Buffer): Buffer {
  let v = value;
  while (v.length > 1 && v[0] === 0 && v[1]! < 0x80) v = v.subarray(1);
  if (v[0]! >= 0x80) v = Buffer.concat([Buffer.from([0]), v]);
  return tlv(0x02, v);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a! + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) chunk.unshift(0x80 | (v & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, '0');
  const text = `${p(date.getUTCFullYear() % 100)}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

const name = (commonName: string) => sequence(set(sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
const ECDSA_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const extension = (id: string, critical: boolean, value: Buffer) => sequence(oid(id), ...(critical ? [TRUE] : []), octets(value));

function certificate(options: {
  subject: string;
  issuer: string;
  publicKey: KeyObject;
  signingKey: KeyObject;
  validityDays: number;
  authority: boolean;
}): string {
  const now = Date.now();
  const extensions = options.authority
    ? [
        extension('2.5.29.19', true, sequence(TRUE)), // basicConstraints: CA
        extension('2.5.29.15', true, bits(Buffer.from([0x06]), 1)), // keyUsage: keyCertSign, cRLSign
      ]
    : [
        extension('2.5.29.19', true, sequence()), // basicConstraints: not a CA
        extension('2.5.29.15', true, bits(Buffer.from([0x80]), 7)), // keyUsage: digitalSignature
        extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2'))), // serverAuth, clientAuth
        extension('2.5.29.17', false, sequence(tlv(0x82, Buffer.from(options.subject, 'ascii')))), // subjectAltName DNS
      ];
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(randomBytes(16)),
    ECDSA_SHA256,
    name(options.issuer),
    sequence(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + options.validityDays * 86_400_000))),
    name(options.subject),
    options.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, { key: options.signingKey, dsaEncoding: 'der' });
  const der = sequence(tbs, ECDSA_SHA256, bits(signature));
  return `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
}

export interface RpcCredentials {
  /** This service's identity: the common name of `cert`. */
  identity: string;
  /** PEM certificate(s) of the CA every peer's certificate must chain to. */
  ca: string;
  cert: string;
  key: string;
}

export interface RpcAuthority {
  /** PEM certificate of the CA: every service trusts it. */
  cert: string;
  /** PEM (PKCS#8) private key of the CA: only the issuer holds it. */
  key: string;
}

export interface IssuedCertificate {
  cert: string;
  key: string;
}

function keyPair() {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

export function createRpcAuthority(commonName = 'vigil-rpc-ca', validityDays = 365): RpcAuthority {
  const { publicKey, privateKey } = keyPair();
  return {
    cert: certificate({ subject: commonName, issuer: commonName, publicKey, signingKey: privateKey, validityDays, authority: true }),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

/** A certificate for one service identity (common name and DNS name `identity`), signed by `authority`. */
export function issueRpcCertificate(authority: RpcAuthority, identity: string, validityDays = 365): IssuedCertificate {
  if (!/^[a-z][a-z0-9-]{0,62}$/.test(identity)) throw new Error(`not a service identity: "${identity}"`);
  const { publicKey, privateKey } = keyPair();
  const issuer = new X509Certificate(authority.cert).subject.replace(/^CN=/, '');
  return {
    cert: certificate({ subject: identity, issuer, publicKey, signingKey: createPrivateKey(authority.key), validityDays, authority: false }),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

/** The public key of a PEM private key (to check that a certificate and its key belong together). */
export function publicKeyOf(privateKeyPem: string): KeyObject {
  return createPublicKey(createPrivateKey(privateKeyPem));
}
