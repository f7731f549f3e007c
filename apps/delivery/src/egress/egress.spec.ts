import { createServer, type Server } from 'node:http';
import { isPublicAddress } from './address-policy';
import { EgressClient, type HostResolver } from './egress-client';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '0.0.0.0', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '224.0.0.1', '255.255.255.255', '::1', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe',
    'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1', '64:ff9b::7f00:1', '2002:7f00:1::1', 'not-an-ip', '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

/** A resolver that answers from a table, like a DNS server the attacker controls. */
function tableResolver(table: Record<string, string[][]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const answers = new Map(Object.entries(table).map(([host, list]) => [host, [...list]]));
  const resolver = (async (host: string) => {
    calls.push(host);
    const list = answers.get(host);
    if (!list?.length) throw new Error(`ENOTFOUND ${host}`);
    const answer = list.length > 1 ? list.shift()! : list[0]!;
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as HostResolver & { calls: string[] };
  resolver.calls = calls;
  return resolver;
}

describe('EgressClient with the guard on (DELIVERY_ALLOW_INSECURE_TARGETS=false)', () => {
  let server: Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end('reached');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const send = (client: EgressClient, url: string) => client.send({ url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 2000 });

  it.each([
    ['loopback', (p: number) => `https://127.0.0.1:${p}/`],
    ['decimal loopback', (p: number) => `https://2130706433:${p}/`],
    ['hex loopback', (p: number) => `https://0x7f000001:${p}/`],
    ['octal loopback', (p: number) => `https://0177.0.0.1:${p}/`],
    ['short loopback', (p: number) => `https://127.1:${p}/`],
    ['mapped IPv6 loopback', (p: number) => `https://[::ffff:127.0.0.1]:${p}/`],
    ['IPv6 loopback', (p: number) => `https://[::1]:${p}/`],
    ['unspecified', (p: number) => `https://0.0.0.0:${p}/`],
    ['cloud metadata', () => 'https://169.254.169.254/latest/meta-data/'],
    ['IPv6 link-local', () => 'https://[fe80::1]/'],
    ['IPv6 unique local', () => 'https://[fd00::1]/'],
    ['private 10/8', () => 'https://10.0.0.1/'],
    ['plain http', () => 'http://93.184.216.34/'],
    ['credentials in the URL', () => 'https://user:pass@93.184.216.34/'],
  ])('refuses %s at save time and at send time, and nothing reaches the target', async (_label, url) => {
    const client = new EgressClient({ allowInsecureTargets: false });
    const before = hits;
    const check = await client.checkTarget(url(port));
    expect(check.ok).toBe(false);
    const result = await send(client, url(port).replace(/^https:/, url(port).startsWith('http:') ? 'http:' : 'https:'));
    expect(result.statusCode).toBeNull();
    expect(result.refused).toBe(true);
    expect(hits).toBe(before);
    client.close();
  });

  it('refuses a name that resolves to a private address (localhost, via the real resolver)', async () => {
    const client = new EgressClient({ allowInsecureTargets: false });
    const check = await client.checkTarget(`https://localhost:${port}/`);
    expect(check).toMatchObject({ ok: false, code: 'private_address' });
    const result = await send(client, `https://localhost:${port}/`);
    expect(result.refused).toBe(true);
    client.close();
  });

  it('refuses a name with any private address among its answers at save time', async () => {
    const client = new EgressClient({ allowInsecureTargets: false, resolver: tableResolver({ 'mixed.example': [['93.184.216.34', '10.0.0.5']] }) });
    expect(await client.checkTarget('https://mixed.example/')).toMatchObject({ ok: false, code: 'private_address' });
    client.close();
  });

  it('catches DNS rebinding: public when saved, loopback when connecting, and nothing is sent', async () => {
    const resolver = tableResolver({ 'rebind.example': [['93.184.216.34'], ['127.0.0.1']] });
    const client = new EgressClient({ allowInsecureTargets: false, resolver });
    expect((await client.checkTarget(`https://rebind.example:${port}/`)).ok).toBe(true);
    const before = hits;
    const result = await send(client, `https://rebind.example:${port}/`);
    expect(result).toMatchObject({ statusCode: null, refused: true });
    expect(result.error).toContain('127.0.0.1');
    expect(resolver.calls).toEqual(['rebind.example', 'rebind.example']);
    expect(hits).toBe(before);
    client.close();
  });

  it('refuses a name that does not resolve at save time', async () => {
    const client = new EgressClient({ allowInsecureTargets: false, resolver: tableResolver({}) });
    expect(await client.checkTarget('https://nowhere.example/')).toMatchObject({ ok: false, code: 'unresolvable' });
    client.close();
  });

  it('keeps connections alive per origin, and every new connection is resolved and checked again', async () => {
    const resolver = tableResolver({ 'local.test': [['127.0.0.1']] });
    const client = new EgressClient({ allowInsecureTargets: true, resolver });
    const before = hits;
    for (let i = 0; i < 20; i++) expect((await send(client, `http://local.test:${port}/`)).statusCode).toBe(200);
    expect(hits).toBe(before + 20);
    // Reused, not one connection per request; and each connection opened went through the resolver.
    const opened = client.connectionsOpened;
    expect(opened).toBeLessThanOrEqual(2);
    expect(resolver.calls).toHaveLength(opened);
    server.closeAllConnections();
    await new Promise((r) => setTimeout(r, 20));
    expect((await send(client, `http://local.test:${port}/`)).statusCode).toBe(200);
    expect(client.connectionsOpened).toBe(opened + 1);
    expect(resolver.calls).toHaveLength(opened + 1);
    client.close();
  });

  it('gives up on an answer whose body does not complete within the deadline', async () => {
    const slow = createServer((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const client = new EgressClient({ allowInsecureTargets: true });
    const result = await client.send({ url: `http://127.0.0.1:${(slow.address() as { port: number }).port}/`, headers: {}, body: '{}', timeoutMs: 300 });
    expect(result).toMatchObject({ statusCode: null, refused: false });
    expect(result.error).toContain('within 300 ms');
    client.close();
    slow.closeAllConnections();
    await new Promise<void>((r) => slow.close(() => r()));
  });

  it('with DELIVERY_ALLOW_INSECURE_TARGETS=true reaches http:// on loopback, and never follows a redirect', async () => {
    const client = new EgressClient({ allowInsecureTargets: true });
    const redirecting = createServer((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/` }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    const before = hits;
    expect((await send(client, `http://127.0.0.1:${port}/`)).statusCode).toBe(200);
    expect(hits).toBe(before + 1);
    const redirected = await send(client, `http://127.0.0.1:${(redirecting.address() as { port: number }).port}/`);
    expect(redirected.statusCode).toBe(302);
    expect(hits).toBe(before + 1);
    client.close();
    await new Promise<void>((r) => redirecting.close(() => r()));
  });
});
