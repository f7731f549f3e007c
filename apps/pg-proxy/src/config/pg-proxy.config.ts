import { env, type Field } from '@vigil/platform';
import { compileRedactionPattern, RedactionPatternError } from '../sql/redaction';

const failModeItem = /^[A-Za-z0-9_.-]+:(open|closed)$/;
const databaseIdItem = /^[^:,]+:db_[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/**
 * RE2 patterns added to the built-in redaction of captured SQL (docs/proxy.md#redaction): one
 * pattern, or a JSON array of patterns (patterns may hold commas). Each is compiled at start; a bad
 * one stops the service with the pattern's position in the list and the reason, never the pattern
 * text of another variable.
 */
const redactPatterns: Field<string[]> = {
  description: 'an RE2 pattern or a JSON array of RE2 patterns',
  secret: false,
  parse(raw) {
    if (raw === undefined || raw.trim() === '') return { ok: true, value: [] };
    const text = raw.trim();
    let patterns: unknown;
    if (text.startsWith('[')) {
      try {
        patterns = JSON.parse(text);
      } catch {
        return { ok: false, message: 'is not a valid JSON array of RE2 patterns' };
      }
      if (!Array.isArray(patterns) || !patterns.every((p) => typeof p === 'string')) return { ok: false, message: 'must be a JSON array of strings (RE2 patterns)' };
    } else patterns = [text];
    const list = patterns as string[];
    for (const [i, pattern] of list.entries()) {
      try {
        compileRedactionPattern(pattern);
      } catch (error) {
        if (error instanceof RedactionPatternError) return { ok: false, message: `pattern ${i + 1} ${error.message}` };
        throw error;
      }
    }
    return { ok: true, value: list };
  },
};

const UPSTREAM_TLS_MODES = ['disable', 'require', 'verify-full'] as const;

/**
 * PROXY_UPSTREAM_TLS, or unset (the mode then follows from the CA file and where the server is:
 * resolveUpstreamTls). `prefer` is refused: it turns into plaintext, without a word, whenever the
 * server (or anyone on the path) answers that it has no TLS.
 */
const upstreamTls: Field<(typeof UPSTREAM_TLS_MODES)[number] | undefined> = {
  description: `one of ${UPSTREAM_TLS_MODES.join(', ')}, or unset`,
  secret: false,
  parse(raw) {
    if (raw === undefined || raw.trim() === '') return { ok: true, value: undefined };
    const value = raw.trim();
    if (value === 'prefer') {
      return {
        ok: false,
        message:
          'no longer accepts prefer, which falls back to plaintext without a word when the server (or anyone on the path) declines TLS: ' +
          'use verify-full (with PROXY_UPSTREAM_TLS_CA_FILE for a private CA), or disable to choose plaintext explicitly',
      };
    }
    if (!(UPSTREAM_TLS_MODES as readonly string[]).includes(value)) return { ok: false, message: `must be one of ${UPSTREAM_TLS_MODES.join(', ')} (got "${value.slice(0, 60)}")` };
    return { ok: true, value: value as (typeof UPSTREAM_TLS_MODES)[number] };
  },
};

/** Variables of the PostgreSQL audit proxy (docs/proxy.md#configuration). Validated at start. */
export const pgProxyConfigSpec = {
  /** Where clients connect, as to PostgreSQL. */
  PROXY_LISTEN_HOST: env.string({ default: '0.0.0.0' }),
  PROXY_LISTEN_PORT: env.port({ default: 6432 }),
  /** The real PostgreSQL server. */
  PROXY_UPSTREAM: env.address({ default: '127.0.0.1:5432' }),
  /**
   * The directory of the server's Unix-domain socket (libpq's `host=/var/run/postgresql`), for a
   * proxy on the database host: sessions, cancels and catalog lookups then reach the server through
   * `<dir>/.s.PGSQL.<port of PROXY_UPSTREAM>`, which costs less per round trip than TCP.
   */
  PROXY_UPSTREAM_SOCKET_DIR: env.optionalAbsolutePath(),
  /** TLS toward clients: disabled (answer N to SSLRequest), allowed, or required (refuse plaintext sessions). */
  PROXY_TLS_MODE: env.oneOf(['disabled', 'allowed', 'required'] as const, { default: 'disabled' }),
  PROXY_TLS_CERT_FILE: env.optionalString(),
  PROXY_TLS_KEY_FILE: env.optionalString(),
  /**
   * TLS toward the server, for sessions and the catalog connection alike (proxy/upstream-tls.ts):
   * verify-full, require or disable. Unset: verify-full with PROXY_UPSTREAM_TLS_CA_FILE or toward a
   * server on another host, disable toward this host (loopback) or its Unix-domain socket.
   */
  PROXY_UPSTREAM_TLS: upstreamTls,
  /** PEM CA certificates the server's certificate must chain to (verify-full; any other mode with it is refused). */
  PROXY_UPSTREAM_TLS_CA_FILE: env.optionalString(),
  /** Credentials of the catalog connection that resolves table OIDs and column numbers for masking. */
  PROXY_CATALOG_USER: env.string({ default: 'postgres' }),
  PROXY_CATALOG_PASSWORD: env.optionalString({ secret: true }),
  /** The database the catalog connection opens at start to check its role (and the server's certificate). */
  PROXY_CATALOG_DATABASE: env.string({ default: 'postgres' }),
  /**
   * Accept a catalog role that can do more than read the catalog (superuser, BYPASSRLS, CREATEROLE,
   * REPLICATION, pg_read_all_data and kin): refused at start otherwise (docs/proxy.md#catalog-role).
   */
  PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE: env.bool({ default: false }),
  /** PostgreSQL database name -> Vigil database id (`name:db_id,...`); unlisted names map to `db_<name>`. */
  PROXY_DATABASE_IDS: env.list({ default: [], item: databaseIdItem, itemDescription: 'pgname:db_id' }),
  /** What happens when the capture buffer and its spill space are both full: open (serve, count losses) or closed (refuse statements). */
  PROXY_FAIL_MODE: env.oneOf(['open', 'closed'] as const, { default: 'open' }),
  /** Per-database overrides of PROXY_FAIL_MODE (`db_id:closed,...`). */
  PROXY_FAIL_MODE_OVERRIDES: env.list({ default: [], item: failModeItem, itemDescription: 'db_id:open|closed' }),
  /** Records held in memory before the oldest are spilled to disk. */
  PROXY_BUFFER_MAX_RECORDS: env.int({ min: 10, max: 10_000_000, default: 50_000 }),
  PROXY_SPILL_DIR: env.string({ default: './.data/pg-proxy-spill' }),
  PROXY_SPILL_MAX_BYTES: env.int({ min: 0, max: Number.MAX_SAFE_INTEGER, default: 1024 * 1024 * 1024 }),
  /** A publish that does not finish in this time counts as failed (records stay buffered; producer ids make a late success harmless). */
  PROXY_PUBLISH_TIMEOUT_MS: env.int({ min: 100, max: 120_000, default: 5000 }),
  /** Record bound parameter values (default: only their count; values may hold personal data). */
  PROXY_CAPTURE_PARAMETERS: env.bool({ default: false }),
  /** RE2 patterns whose matches are redacted from captured SQL, after the built-in rules (passwords, pgcrypto keys). */
  PROXY_REDACT_PATTERNS: redactPatterns,
  /** Computed output expressions over protected columns: mask the computed value, or refuse the statement. */
  PROXY_MASK_COMPUTED: env.oneOf(['mask', 'refuse'] as const, { default: 'mask' }),
  /**
   * Fast-path FunctionCall messages: judge (policies evaluate each call; while data protection
   * applies, calls of data-reading or non-built-in functions are refused) or refuse (every call).
   */
  PROXY_FUNCTION_CALLS: env.oneOf(['judge', 'refuse'] as const, { default: 'judge' }),
  /**
   * Shadow mode is a field of the policy (`enforcement_mode: shadow`), honoured by this proxy and by
   * the ingest pipeline alike; a proxy-wide list made the two disagree (the proxy let a statement run
   * that the pipeline recorded as blocked). docs/policies.md#shadow-mode
   */
  PROXY_SHADOW_POLICIES: env.removed('set "enforcement_mode": "shadow" on the policies to try instead (docs/policies.md#shadow-mode)'),
  /** How long shutdown waits for sessions to end before closing them. */
  PROXY_SHUTDOWN_GRACE_MS: env.int({ min: 0, max: 3_600_000, default: 30_000 }),
  /**
   * The whole stop after the drain (every service's variable): the proxy's default leaves room for
   * the sessions' grace and the capture flush (PROXY_PUBLISH_TIMEOUT_MS); keep it above both.
   */
  SHUTDOWN_TIMEOUT_MS: env.int({ min: 1000, max: 3_900_000, default: 50_000 }),
  /** Where the policy service answers RPC: the proxy loads every policy's state from it at start. */
  POLICY_RPC_ADDRESS: env.address({ default: '127.0.0.1:4002' }),
  /** How long new sessions wait for the policies at start before being refused. */
  PROXY_POLICIES_READY_TIMEOUT_MS: env.int({ min: 100, max: 600_000, default: 15_000 }),
};
