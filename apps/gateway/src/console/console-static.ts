import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '@vigil/platform';

/**
 * The web console's pages may load scripts, styles, images and fonts from this origin only and call
 * this origin's API; no inline script or style, no plugins, no framing, no <base>.
 */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Paths the console never answers: the API, OAuth, health and metrics keep their own 404s. */
const NOT_CONSOLE = /^\/(v1|oauth|\.well-known|health|metrics)(\/|$)/;

/** Where the built console is looked for when CONSOLE_DIR is unset. */
export function defaultConsoleDir(): string {
  return resolve('dist/apps/console');
}

export interface ConsoleMount {
  dir: string;
  /** False when the folder has no index.html: `/` then explains how to build the console. */
  served: boolean;
}

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
}

/** A page asking for HTML (a browser navigating), as opposed to an API client or a script. */
function wantsHtml(req: Request): boolean {
  return /\btext\/html\b/.test(req.headers.accept ?? '');
}

/**
 * Serves the built console at `/`: hashed files under /assets/ cached for a year (their names change
 * with their content), index.html revalidated on every load, and index.html for any other page a
 * browser navigates to (the console's own routes, e.g. /alerts/<id>). Registered before the API's
 * routes; everything under the API's prefixes passes through untouched.
 */
export function mountConsole(app: INestApplication, dir: string, logger: Logger): ConsoleMount {
  const indexFile = join(dir, 'index.html');
  const served = existsSync(indexFile);
  const files = express.static(dir, {
    index: false,
    fallthrough: true,
    redirect: false,
    setHeaders: (res, path) => {
      securityHeaders(res as Response);
      const immutable = path.startsWith(join(dir, 'assets'));
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const missing =
    `The Vigil web console is not available: ${indexFile} does not exist.\n` +
    'Build it with `npm run build` (or `npx nx build console`), or set CONSOLE_DIR to the folder of a built console.\n' +
    'The API is served at /v1 (documentation at /v1/docs).\n';
  if (!served) logger.warn({ console_dir: dir }, 'web console not found: / explains how to build it');

  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_CONSOLE.test(req.path)) return next();
    if (!served) {
      if (req.path !== '/' && !wantsHtml(req)) return next();
      securityHeaders(res);
      res.status(503).setHeader('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(missing);
      return;
    }
    files(req, res, () => {
      // Not a file: a missing hashed asset is a 404 (never index.html), a page is the console's.
      if (req.path.startsWith('/assets/') || (req.path !== '/' && !wantsHtml(req))) return next();
      securityHeaders(res);
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(readFileSync(indexFile));
    });
  });
  return { dir, served };
}
