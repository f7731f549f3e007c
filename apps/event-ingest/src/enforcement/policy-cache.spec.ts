import { generateKeyPairSync } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, type MicroserviceOptions, Transport } from '@nestjs/microservices';
import { POLICY_SNAPSHOT_SIGNATURE_PURPOSE, RpcPatterns, Topics } from '@vigil/contracts';
import { MemoryBus } from '@vigil/messaging';
import { createLogger, Readiness, Registry, signDocument } from '@vigil/platform';
import { freePort, waitFor } from '@vigil/testing';
import pino from 'pino';
import { PolicyCache } from './policy-cache';

/** A policy service stub on `port` (its RPC as enforcement calls it), for as long as the test needs it. */
async function startStub(port: number) {
  const stub = await NestFactory.createMicroservice<MicroserviceOptions>(PolicyServiceStubModule, { transport: Transport.TCP, options: { host: '127.0.0.1', port }, logger: false });
  await stub.listen();
  return stub;
}

describe('PolicyCache before the policies are loaded', () => {
  it('holds every ingestion that asks during the wait at start, reports not ready, keeps loading until the policy service answers', async () => {
    const bus = new MemoryBus();
    const readiness = new Readiness();
    // Nothing answers on this port yet: the policies do not load and the wait at start runs to its end.
    const port = await freePort();
    const cache = new PolicyCache(bus, { POLICY_RPC_ADDRESS: `127.0.0.1:${port}`, ENFORCEMENT_READY_TIMEOUT_MS: 300 }, createLogger('test', 'silent'), new Registry(), null, readiness);
    await cache.onApplicationBootstrap();
    let stub: Awaited<ReturnType<typeof startStub>> | undefined;
    try {
      // Batches of two partitions reach enforcement together. Each must wait like the first; the
      // second used to be answered "not loaded" at once.
      const settled: string[] = [];
      await Promise.all([
        cache.whenReady().then((ready) => settled.push(`first ${ready}`)),
        cache.whenReady().then((ready) => settled.push(`second ${ready}`)),
      ]);
      expect(settled).toEqual(['first false', 'second false']);
      expect(await cache.whenReady()).toBe(false);
      expect(cache.isLoaded).toBe(false);
      // Not ready while the policies are not loaded: no load balancer sends it records.
      expect(await readiness.evaluate()).toEqual({ ready: false, checks: { policies: 'down' } });

      // The load is retried (bounded backoff) until the policy service answers; it never gives up.
      stub = await startStub(port);
      await waitFor(async () => cache.isLoaded, 30_000, 'policies loaded once the policy service answers');
      expect(await cache.whenReady()).toBe(true);
      expect(await readiness.evaluate()).toEqual({ ready: true, checks: { policies: 'up' } });

      // Loaded once, the instance keeps its verified state when the policy service goes away.
      await stub.close();
      stub = undefined;
      expect(await cache.whenReady()).toBe(true);
      expect(await readiness.evaluate()).toEqual({ ready: true, checks: { policies: 'up' } });
    } finally {
      await stub?.close();
      await cache.onModuleDestroy();
      await bus.close();
    }
  }, 60_000);
});

/** The policy service's key, as its RPC lists it, and snapshots signed with it. */
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const KEY_ID = 'psk_test';

@Controller()
class PolicyServiceStub {
  @MessagePattern(RpcPatterns.policies.signingKeys)
  keys() {
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('base64');
    return { keys: [{ key_id: KEY_ID, public_key: raw, created_at: '2026-01-01T00:00:00Z', retired_at: null }] };
  }

  @MessagePattern(RpcPatterns.policies.snapshots)
  snapshots() {
    return { policies: [] };
  }
}

@Module({ controllers: [PolicyServiceStub] })
class PolicyServiceStubModule {}

describe('PolicyCache and application-only exemptions', () => {
  let stub: Awaited<ReturnType<typeof NestFactory.createMicroservice>>;
  let stubPort: number;
  beforeAll(async () => {
    stubPort = await freePort();
    stub = await startStub(stubPort);
  });
  afterAll(() => stub?.close());

  it('warns once per loaded policy version whose application-only exemption is ignored and counts such policies in a gauge', async () => {
    const bus = new MemoryBus();
    const lines: { msg: string; policy_id?: string; version?: number }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const metrics = new Registry();
    const cache = new PolicyCache(bus, { POLICY_RPC_ADDRESS: `127.0.0.1:${stubPort}`, ENFORCEMENT_READY_TIMEOUT_MS: 300 }, logger, metrics, null, new Readiness());
    const gauge = async () => (await metrics.getSingleMetric('vigil_policy_untrusted_exemptions')!.get()).values[0]?.value;
    const publish = (version: number, exceptions: Record<string, string[]>) => {
      const policy = {
        id: 'pol_legacy', name: 'legacy', type: 'query_control', enabled: true, description: '', databases: ['db_a'],
        config: { rules: [{ name: 'no drops', pattern: 'drop', action: 'block' }], exceptions },
        version, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', deleted: false,
      };
      const envelope = { id: `pev_${version}_${Math.random()}`, type: 'policy.updated', schema_version: 1, occurred_at: '2026-01-01T00:00:00Z', key: policy.id, data: { change: 'policy.updated', policy, signature: signDocument(POLICY_SNAPSHOT_SIGNATURE_PURPOSE, policy, KEY_ID, privateKey) } };
      return bus.publish([{ topic: Topics.policyEvents, messages: [{ key: policy.id, value: JSON.stringify(envelope), headers: {} }] }]);
    };
    const warnings = () => lines.filter((l) => l.msg.includes('exempts applications without users')).map((l) => [l.policy_id, l.version]);
    await cache.onApplicationBootstrap();
    try {
      await publish(1, { applications: ['migrator'] });
      await waitFor(async () => cache.engine.versionOf('pol_legacy') === 1, 5000, 'version 1 applied');
      await publish(1, { applications: ['migrator'] }); // the same version again: no second warning
      await publish(2, { users: ['deployer'], applications: ['migrator'] });
      await waitFor(async () => cache.engine.versionOf('pol_legacy') === 2, 5000, 'version 2 applied');
      expect(warnings()).toEqual([['pol_legacy', 1]]);
      expect(await gauge()).toBe(0);
      await publish(3, { applications: ['migrator'] });
      await waitFor(async () => cache.engine.versionOf('pol_legacy') === 3, 5000, 'version 3 applied');
      expect(warnings()).toEqual([['pol_legacy', 1], ['pol_legacy', 3]]);
      expect(await gauge()).toBe(1);
    } finally {
      await cache.onModuleDestroy();
      await bus.close();
    }
  });
});
