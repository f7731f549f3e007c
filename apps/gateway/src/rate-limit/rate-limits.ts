import type { GatewayConfig } from '../gateway.service-definition';

export interface RateLimitRule {
  /** Bucket name: requests of one credential (or IP) on routes of one rule share a counter. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * The limits of every route, per credential (per client IP before authentication). The events
 * limits are fixed (1000 and 2000 a minute); the rest are configurable defaults (docs/access.md). Routes not named
 * share the `default` bucket of their credential.
 */
export function rateLimitRules(config: Pick<GatewayConfig, 'RATE_LIMIT_DEFAULT_PER_MINUTE' | 'RATE_LIMIT_LOGIN_PER_MINUTE' | 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE'>) {
  const login = { name: 'credentials', limit: config.RATE_LIMIT_LOGIN_PER_MINUTE, windowSeconds: 60 };
  const byRoute = new Map<string, RateLimitRule | null>([
    ['GET /v1/events', { name: 'events-list', limit: 1000, windowSeconds: 60 }],
    ['GET /v1/events/:event_id', { name: 'events-get', limit: 2000, windowSeconds: 60 }],
    // Password and client-secret checks: counted per IP before anything is verified.
    ['POST /v1/auth/login', login],
    ['POST /v1/auth/refresh', login],
    ['POST /oauth/authorize', login],
    ['POST /oauth/token', login],
    ['POST /oauth/revoke', login],
    // Probes of load balancers are not API traffic (Prometheus scrapes a port of its own).
    ['GET /health/live', null],
    ['GET /health/ready', null],
  ]);
  const fallback: RateLimitRule = { name: 'default', limit: config.RATE_LIMIT_DEFAULT_PER_MINUTE, windowSeconds: 60 };
  const unauthenticated: RateLimitRule = { name: 'unauthenticated', limit: config.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE, windowSeconds: 60 };
  return {
    forRoute: (method: string, path: string): RateLimitRule | null => {
      const rule = byRoute.get(`${method} ${path}`);
      return rule === undefined ? fallback : rule;
    },
    unauthenticated,
  };
}
