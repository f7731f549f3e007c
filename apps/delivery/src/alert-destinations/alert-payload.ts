/**
 * What a destination receives about one alert. The snapshot is stored with each delivery, so every
 * attempt sends the alert as it was when the delivery was queued.
 */
export interface AlertSnapshot {
  id: string;
  type: string;
  severity: string;
  status: string;
  title: string;
  description: string;
  database_id: string;
  /** When the alert's condition was (last) seen: the payload `timestamp`. */
  occurred_at: string;
  source: { database: string; db_type: string | null; host: string | null; port: number | null };
  actor: { user: string | null; client_ip: string | null; application: string | null };
  event: { query_type: string | null; object: string | null; rows_affected: number | null; duration_ms: number | null };
  policy: { id: string | null; name: string | null };
  raw_event: unknown;
  test?: boolean;
}

/** The default alert payload (every field always present; unknown values are null). */
export function defaultPayload(alert: AlertSnapshot, dashboardUrl: string, includeRawEvent: boolean): Record<string, unknown> {
  return {
    alert_id: alert.id,
    timestamp: new Date(alert.occurred_at).toISOString(),
    type: alert.type,
    severity: alert.severity,
    title: alert.title,
    description: alert.description,
    source: { ...alert.source },
    actor: { ...alert.actor },
    event: { ...alert.event },
    policy: { ...alert.policy },
    links: { dashboard: `${dashboardUrl.replace(/\/+$/, '')}/alerts/${encodeURIComponent(alert.id)}` },
    ...(includeRawEvent ? { raw_event: alert.raw_event ?? null } : {}),
    ...(alert.test ? { test: true } : {}),
  };
}

/** What a template sees: the default payload's field paths, plus the alert's status and database id. */
export function templateContext(alert: AlertSnapshot, dashboardUrl: string, includeRawEvent: boolean): Record<string, unknown> {
  return { ...defaultPayload(alert, dashboardUrl, includeRawEvent), status: alert.status, database_id: alert.database_id, test: alert.test === true };
}

/**
 * application/x-www-form-urlencoded form of a JSON payload: nested keys are written with dots
 * (`source.database=...`), arrays and null as JSON text, the rest as its string form.
 */
export function formEncode(payload: unknown): string {
  const params = new URLSearchParams();
  const walk = (value: unknown, key: string) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (!entries.length && key) params.append(key, '{}');
      for (const [k, v] of entries) walk(v, key ? `${key}.${k}` : k);
      return;
    }
    if (!key) key = 'payload';
    params.append(key, value === null || Array.isArray(value) ? JSON.stringify(value) : String(value));
  };
  walk(payload, '');
  return params.toString();
}

/** A realistic alert used to check templates at save time and for POST /v1/alerts/test. */
export function sampleAlert(id: string, now = new Date()): AlertSnapshot {
  return {
    id,
    type: 'policy_violation',
    severity: 'high',
    status: 'open',
    title: 'Test alert from Vigil',
    description: 'This is a test alert sent to check the destination settings.',
    database_id: 'db_test',
    occurred_at: now.toISOString(),
    source: { database: 'db_test', db_type: 'postgresql', host: 'db.example.com', port: 5432 },
    actor: { user: 'test_user', client_ip: '203.0.113.10', application: 'psql' },
    event: { query_type: 'SELECT', object: 'public.customers', rows_affected: 1, duration_ms: 12 },
    policy: { id: 'pol_test', name: 'Test policy' },
    raw_event: { type: 'policy.violation', details: { query: 'SELECT * FROM public.customers', user: 'test_user' } },
    test: true,
  };
}
