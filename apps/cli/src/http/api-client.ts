import type { TokenResponse } from '@vigil/contracts';
import { type CredentialStore, type StoredSession, serverKey } from '../auth/credentials.ts';
import { CliError, ExitCode } from '../errors.ts';
import { ApiError } from './problem.ts';

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Prefix of the error message, e.g. the policy a failed call was about. */
  context?: string;
}

/** An access token this close to its expiry is refreshed before use. */
const EXPIRY_MARGIN_MS = 60_000;
const MAX_RATE_LIMIT_RETRIES = 4;

/**
 * The CLI's only way to Vigil: its public HTTP API. Credentials come from `VIGIL_API_KEY` or the
 * stored login, refreshed (under the store's lock) when the access token is about to expire or is
 * refused; 429 answers are retried after `Retry-After` with exponential backoff; any other
 * failure becomes an ApiError (one readable line, exit code by status).
 */
export class ApiClient {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly store: CredentialStore;
  private readonly userAgent: string;

  constructor(options: { baseUrl: string; apiKey?: string; store: CredentialStore; version: string }) {
    this.baseUrl = serverKey(options.baseUrl);
    this.apiKey = options.apiKey || undefined;
    this.store = options.store;
    this.userAgent = `vigil-cli/${options.version}`;
  }

  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, { ...options, headers: { accept: 'application/json', ...options.headers } });
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A successful response whose body the caller reads (a download, a stream). */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken(refreshed);
      const response = await this.fetch(method, path, token, options);
      if (response.status === 401 && !this.apiKey && !refreshed) {
        // A token the server no longer takes (its signing key rotated, a clock skew): one refresh.
        await response.body?.cancel();
        refreshed = true;
        continue;
      }
      if (response.status === 429 && attempt < MAX_RATE_LIMIT_RETRIES) {
        await response.body?.cancel();
        await sleep(retryDelayMs(response.headers.get('retry-after'), attempt), options.signal);
        continue;
      }
      if (!response.ok) throw new ApiError(response.status, await readBody(response), options.context);
      return response;
    }
  }

  /** Logs in and stores the tokens; the password goes only into the request body. */
  async login(email: string, password: string): Promise<StoredSession> {
    const response = await this.fetch('POST', '/v1/auth/login', undefined, { body: { email, password } });
    if (!response.ok) throw new ApiError(response.status, await readBody(response), 'login failed');
    const session = toSession(email, (await response.json()) as TokenResponse);
    this.store.put(this.baseUrl, session);
    return session;
  }

  /**
   * Ends the stored session on the server (POST /v1/auth/logout: its refresh token and access
   * tokens stop working) and forgets it here. The local tokens go even when the server cannot be
   * reached or the session had already ended. Answers whether there was a session, and whether the
   * server revoked it.
   */
  async logout(): Promise<{ removed: boolean; revoked: boolean }> {
    if (!this.store.get(this.baseUrl)) return { removed: false, revoked: false };
    let revoked = false;
    try {
      const token = await this.accessToken(false);
      const response = await this.fetch('POST', '/v1/auth/logout', token, {});
      await response.body?.cancel();
      revoked = response.ok;
    } catch {
      // Unreachable, or the session already ended (the refresh said so): nothing left to revoke.
    }
    return { removed: this.store.remove(this.baseUrl), revoked };
  }

  private async accessToken(forceRefresh: boolean): Promise<string> {
    if (this.apiKey) return this.apiKey;
    const session = this.store.get(this.baseUrl);
    if (!session) {
      throw new CliError(`not logged in to ${this.baseUrl}: run \`vigil login\` (or set VIGIL_API_KEY)`, ExitCode.auth);
    }
    if (!forceRefresh && !expiresSoon(session)) return session.access_token;
    return this.refresh(session.access_token);
  }

  private refresh(staleToken: string): Promise<string> {
    return this.store.withLock(async () => {
      // Another process may have refreshed while this one waited for the lock: use its tokens.
      const current = this.store.get(this.baseUrl);
      if (!current) throw new CliError(`not logged in to ${this.baseUrl}: run \`vigil login\``, ExitCode.auth);
      if (current.access_token !== staleToken && !expiresSoon(current)) return current.access_token;
      const response = await this.fetch('POST', '/v1/auth/refresh', undefined, { body: { refresh_token: current.refresh_token } });
      if (response.status === 401) {
        await response.body?.cancel();
        this.store.remove(this.baseUrl);
        throw new CliError(`the session with ${this.baseUrl} has ended: run \`vigil login\` again`, ExitCode.auth);
      }
      if (!response.ok) throw new ApiError(response.status, await readBody(response), 'token refresh failed');
      const session = toSession(current.email, (await response.json()) as TokenResponse);
      this.store.put(this.baseUrl, session);
      return session.access_token;
    });
  }

  private async fetch(method: string, path: string, token: string | undefined, options: RequestOptions): Promise<Response> {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { 'user-agent': this.userAgent, ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    try {
      return await fetch(url, { method, headers, body, signal: options.signal });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(`cannot reach ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, ExitCode.other);
    }
  }
}

function toSession(email: string, tokens: TokenResponse): StoredSession {
  return {
    email,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    expires_at: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
  };
}

const expiresSoon = (session: StoredSession) => !(Date.parse(session.expires_at) - EXPIRY_MARGIN_MS > Date.now());

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Retry-After in seconds when given (at most 60 s), else 1, 2, 4, 8 s. */
export function retryDelayMs(retryAfter: string | null, attempt: number): number {
  const seconds = Number(retryAfter);
  if (retryAfter && Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 60) * 1000;
  return 1000 * 2 ** attempt;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
