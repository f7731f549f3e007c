import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { CONSOLE_CSP, mountConsole } from './console-static';

/** The console's static files on a bare Express app, with an API route behind them as the gateway has. */
function gatewayWith(dir: string) {
  const server = express();
  const mount = mountConsole({ use: (handler: express.RequestHandler) => server.use(handler) } as unknown as INestApplication, dir, pino({ level: 'silent' }));
  server.get('/v1/alerts', (_req, res) => res.json({ data: [] }));
  server.use((_req, res) => res.status(404).type('application/problem+json').send({ status: 404 }));
  return { server, mount };
}

describe('the web console served at /', () => {
  const root = mkdtempSync(join(tmpdir(), 'vigil-console-'));
  const built = join(root, 'built');
  const html = '<!doctype html><title>Vigil console</title><script type="module" src="/assets/index-abc123.js"></script>';
  mkdirSync(join(built, 'assets'), { recursive: true });
  writeFileSync(join(built, 'index.html'), html);
  writeFileSync(join(built, 'assets/index-abc123.js'), 'console.log(1)');
  writeFileSync(join(built, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('serves index.html at / for revalidation on every load, under a strict Content-Security-Policy', async () => {
    const { server, mount } = gatewayWith(built);
    expect(mount.served).toBe(true);
    const response = await request(server).get('/').set('Accept', 'text/html');
    expect(response.status).toBe(200);
    expect(response.text).toBe(html);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("script-src 'self';");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('caches hashed assets for a year and answers a missing one with 404, never with index.html', async () => {
    const { server } = gatewayWith(built);
    const asset = await request(server).get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    const missing = await request(server).get('/assets/index-gone.js').set('Accept', 'text/html');
    expect(missing.status).toBe(404);
    const icon = await request(server).get('/favicon.svg');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers the console routes a browser opens (the links alerts carry) with index.html', async () => {
    const { server } = gatewayWith(built);
    for (const path of ['/alerts/alt_01jabc', '/alerts?status=open', '/policies']) {
      const response = await request(server).get(path).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
      expect({ path, status: response.status, body: response.text }).toEqual({ path, status: 200, body: html });
    }
    // Not a browser navigation: no page in place of a 404.
    expect((await request(server).get('/alerts/alt_01jabc').set('Accept', 'application/json')).status).toBe(404);
    expect((await request(server).post('/alerts/alt_01jabc').set('Accept', 'text/html')).status).toBe(404);
  });

  it('leaves the API, OAuth, health and metrics alone', async () => {
    const { server } = gatewayWith(built);
    const api = await request(server).get('/v1/alerts').set('Accept', 'text/html');
    expect(api.body).toEqual({ data: [] });
    expect(api.headers['content-security-policy']).toBeUndefined();
    for (const path of ['/v1/nothing', '/oauth/nothing', '/health/nothing', '/metrics/nothing', '/.well-known/nothing']) {
      const response = await request(server).get(path).set('Accept', 'text/html');
      expect({ path, status: response.status, type: response.headers['content-type'] }).toEqual({ path, status: 404, type: expect.stringContaining('application/problem+json') });
    }
  });

  it('says at / how to build the console when its folder has none, instead of failing', async () => {
    const { server, mount } = gatewayWith(join(root, 'not-built'));
    expect(mount.served).toBe(false);
    const response = await request(server).get('/').set('Accept', 'text/html');
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toContain('web console is not available');
    expect(response.text).toContain('npm run build');
    expect(response.text).toContain('CONSOLE_DIR');
    expect((await request(server).get('/v1/alerts')).body).toEqual({ data: [] });
  });
});
