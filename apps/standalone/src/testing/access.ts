import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SecretBox } from '@vigil/platform';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { TestSystem } from './test-system';
import { http, login } from './http';

/** The auth service's current signing key, read as an attacker with database access would. */
export async function signingKey(system: TestSystem): Promise<{ kid: string; key: KeyObject }> {
  const box = new SecretBox([readFileSync(join(system.dataDir, 'encryption.key'), 'utf8').trim()]);
  const [row] = await system.db.query<{ kid: string; private_key: string }>(`SELECT kid, private_key FROM auth.signing_keys WHERE retired_at IS NULL`);
  return { kid: row!.kid, key: createPrivateKey(box.open(row!.private_key)) };
}

/** Creates a user with the given scopes (through the admin API) and logs them in. */
export async function userWithScopes(base: string, adminToken: string, scopes: string[]): Promise<{ email: string; password: string; token: string }> {
  const email = `user-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'a-long-enough-password';
  const created = await http(base, 'POST', '/v1/users', { token: adminToken, body: { email, password, scopes } });
  if (created.status !== 201) throw new Error(`user not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { email, password, token: await login(base, email, password) };
}

export async function apiKey(base: string, adminToken: string, scopes: string[], extra: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const created = await http(base, 'POST', '/v1/api-keys', { token: adminToken, body: { name: 'test key', scopes, ...extra } });
  if (created.status !== 201) throw new Error(`key not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: created.body.id, key: created.body.key };
}

/** Every route of a running gateway, read from its Express router. */
export function gatewayRoutes(system: TestSystem): { method: string; path: string }[] {
  const gateway = system.services.find((s) => s.name === 'gateway')!;
  const express = gateway.app.getHttpAdapter().getInstance() as { router?: { stack: unknown[] }; _router?: { stack: unknown[] } };
  const stack = (express.router ?? express._router)!.stack as { route?: { path: string; methods: Record<string, boolean> } }[];
  const routes: { method: string; path: string }[] = [];
  for (const layer of stack) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: layer.route.path });
  }
  return routes;
}
