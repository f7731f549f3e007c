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
  return { kid: row!.kid, key: createPrivateKey(box.open(row!.private_key, `auth.signing_keys.private_key:${row!.kid}`)) };
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

/** An open event stream read in the background: what arrived, and the end of the stream. */
export interface OpenStream {
  readonly text: () => string;
  /** Resolves when the server ends the stream: the time, and the final `stream.closed` message if any. */
  readonly ended: Promise<{ atMs: number; closed: { reason: string; detail: string } | undefined }>;
  cancel(): Promise<void>;
}

/** Opens GET /v1/events/stream with a credential; fails unless the server answers 200. */
export async function openStream(base: string, token: string, query = '?database_id=db_stream_credential'): Promise<OpenStream> {
  const response = await fetch(`${base}/v1/events/stream${query}`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`stream not opened: ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  let text = '';
  const decoder = new TextDecoder();
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (value) text += decoder.decode(value, { stream: true });
      if (done) break;
    }
    const atMs = Date.now();
    const match = /event: stream\.closed\ndata: (.*)\n\n/.exec(text);
    return { atMs, closed: match ? (JSON.parse(match[1]!) as { reason: string; detail: string }) : undefined };
  })();
  // Wait for the stream to be registered (its first comment) before the caller acts.
  const deadline = Date.now() + 10_000;
  while (!text.includes(': connected') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (!text.includes(': connected')) throw new Error('stream opened but sent nothing');
  return { text: () => text, ended, cancel: () => reader.cancel().catch(() => undefined) };
}

/** An access token signed with auth's current key, as auth would sign it, expiring in `seconds`. */
export async function shortLivedToken(system: TestSystem, userId: string, scopes: string[], seconds: number): Promise<string> {
  const { kid, key } = await signingKey(system);
  const { sign } = await import('jsonwebtoken');
  return sign({ scope: scopes.join(' '), token_use: 'access' }, key, {
    algorithm: 'ES256',
    keyid: kid,
    issuer: 'vigil',
    audience: 'vigil-api',
    subject: userId,
    expiresIn: seconds,
    jwtid: `jti-${Math.random().toString(36).slice(2)}`,
  });
}
