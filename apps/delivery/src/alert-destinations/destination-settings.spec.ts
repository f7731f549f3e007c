import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { sampleAlert } from './alert-payload';
import { TemplateCache } from './alert-template';
import { buildAlertRequest } from './destination-request';
import { destinationAccepts, mergeDestination, validateDestination } from './destination-settings';

const base = { name: 'ops', url: 'https://hooks.example.com/alerts' };
const fields = (input: Record<string, unknown>) => validateDestination(mergeDestination({ ...base, ...input } as never)).map((e) => e.field);

describe('alert destination settings', () => {
  it('fills every setting omitted with its default', () => {
    const { settings } = mergeDestination(base);
    expect(settings).toMatchObject({
      provider: 'webhook', enabled: true, method: 'POST', auth_type: 'none', api_key_header: 'X-API-Key', hmac_header: 'X-Signature',
      hmac_algorithm: 'sha256', content_type: 'application/json', payload_format: 'default', include_raw_event: false,
      severity_filter: ['critical', 'high', 'medium', 'low', 'info'], database_filter: [], rate_limit: 60, timeout_seconds: 30,
      retry_attempts: 3, retry_delay_seconds: 5, success_codes: [200, 201, 202, 204],
    });
    expect(validateDestination(mergeDestination(base))).toEqual([]);
  });

  it.each([
    [{ rate_limit: 0 }, 'rate_limit'],
    [{ rate_limit: 101 }, 'rate_limit'],
    [{ rate_limit: 1.5 }, 'rate_limit'],
    [{ timeout_seconds: 4 }, 'timeout_seconds'],
    [{ timeout_seconds: 121 }, 'timeout_seconds'],
    [{ retry_attempts: -1 }, 'retry_attempts'],
    [{ retry_delay_seconds: 3601 }, 'retry_delay_seconds'],
    [{ success_codes: [200, 99] }, 'success_codes[1]'],
    [{ method: 'GET' }, 'method'],
    [{ provider: 'slack' }, 'provider'],
    [{ hmac_algorithm: 'md5' }, 'hmac_algorithm'],
    [{ content_type: 'text/plain' }, 'content_type'],
    [{ severity_filter: ['high', 'urgent'] }, 'severity_filter[1]'],
    [{ alert_types: ['nope'] }, 'alert_types[0]'],
    [{ auth_type: 'basic', auth_password: 'p' }, 'auth_username'],
    [{ auth_type: 'bearer' }, 'auth_token'],
    [{ auth_type: 'hmac' }, 'hmac_secret'],
    [{ auth_type: 'api_key' }, 'api_key_value'],
    [{ payload_format: 'custom' }, 'payload_template'],
    [{ custom_headers: { 'X-Ok': 'a\r\nX-Injected: 1' } }, 'custom_headers.X-Ok'],
    [{ custom_headers: { Authorization: 'Bearer x' } }, 'custom_headers.Authorization'],
    [{ custom_headers: { 'Bad Header': 'x' } }, 'custom_headers.Bad Header'],
    [{ auth_type: 'hmac', hmac_secret: 's', custom_headers: { 'x-signature': 'forged' } }, 'custom_headers.x-signature'],
    [{ auth_type: 'hmac', hmac_secret: 's', custom_headers: { 'Webhook-Signature': 'v1,forged' } }, 'custom_headers.Webhook-Signature'],
    [{ auth_type: 'hmac', hmac_secret: 's', custom_headers: { 'webhook-id': 'x' } }, 'custom_headers.webhook-id'],
    [{ auth_type: 'hmac', hmac_secret: 's', hmac_header: 'Webhook-Timestamp' }, 'hmac_header'],
  ])('refuses %j at %s', (input, field) => {
    expect(fields(input)).toContain(field);
  });

  it('keeps secrets on update unless replaced or cleared with null', () => {
    const created = mergeDestination({ ...base, auth_type: 'bearer', auth_token: 't1' });
    expect(mergeDestination({ rate_limit: 10 }, created).secrets).toEqual({ auth_token: 't1' });
    expect(mergeDestination({ auth_token: 't2' }, created).secrets).toEqual({ auth_token: 't2' });
    expect(mergeDestination({ auth_token: null }, created).secrets).toEqual({});
    expect(mergeDestination({ rate_limit: null }, mergeDestination({ ...base, rate_limit: 5 })).settings.rate_limit).toBe(60);
  });

  it('drops every stored secret when the url changes, and authentication without its secret falls back to none', () => {
    const created = mergeDestination({ ...base, auth_type: 'bearer', auth_token: 't1' });
    const moved = mergeDestination({ url: 'https://other.example.com/hook' }, created);
    expect(moved.secrets).toEqual({});
    expect(moved.settings.auth_type).toBe('none');
    expect(validateDestination(moved)).toEqual([]);
    const resupplied = mergeDestination({ url: 'https://other.example.com/hook', auth_token: 't2' }, created);
    expect(resupplied.secrets).toEqual({ auth_token: 't2' });
    expect(resupplied.settings.auth_type).toBe('bearer');
    const hmac = mergeDestination({ ...base, auth_type: 'hmac', hmac_secret: 's1', auth_token: 'stale' });
    const named = mergeDestination({ url: 'https://other.example.com/hook', auth_type: 'hmac' }, hmac);
    expect(named.secrets).toEqual({});
    expect(validateDestination(named).map((e) => e.field)).toContain('hmac_secret');
    expect(mergeDestination({ url: base.url, rate_limit: 5 }, created).secrets).toEqual({ auth_token: 't1' });
  });

  it('filters by severity, type, database and channel', () => {
    const destination = { name: 'pager', settings: mergeDestination({ ...base, severity_filter: ['critical'], alert_types: ['policy_violation'], database_filter: ['db_a'] }).settings };
    const alert = { severity: 'critical', type: 'policy_violation', database_id: 'db_a', channels: [] as string[] };
    expect(destinationAccepts(destination, alert)).toBe(true);
    expect(destinationAccepts(destination, { ...alert, severity: 'high' })).toBe(false);
    expect(destinationAccepts(destination, { ...alert, type: 'anomaly_detection' })).toBe(false);
    expect(destinationAccepts(destination, { ...alert, database_id: 'db_b' })).toBe(false);
    expect(destinationAccepts(destination, { ...alert, channels: ['slack'] })).toBe(false);
    expect(destinationAccepts(destination, { ...alert, channels: ['pager'] })).toBe(true);
  });
});

describe('outgoing alert requests', () => {
  const templates = new TemplateCache();
  const alert = sampleAlert('alt_req');
  const meta = { deliveryId: 'ald_1', timestamp: 1767225600 };

  it('signs the raw body with the chosen HMAC algorithm in the chosen header', () => {
    const { settings, secrets } = mergeDestination({ ...base, auth_type: 'hmac', hmac_secret: 'k', hmac_algorithm: 'sha512', hmac_header: 'X-Sig' });
    const request = buildAlertRequest(settings, secrets, alert, 'https://d', templates, meta);
    expect(request.headers['x-sig']).toBe(createHmac('sha512', 'k').update(request.body).digest('hex'));
  });

  it('adds Standard Webhooks headers with auth_type hmac only: SHA-256 keyed by the UTF-8 secret over "<delivery id>.<timestamp>.<body>"', () => {
    const { settings, secrets } = mergeDestination({ ...base, auth_type: 'hmac', hmac_secret: 'k-é', hmac_algorithm: 'sha512' });
    const request = buildAlertRequest(settings, secrets, alert, 'https://d', templates, meta);
    const expected = createHmac('sha256', Buffer.from('k-é', 'utf8')).update(`ald_1.1767225600.${request.body}`).digest('base64');
    expect(request.headers).toMatchObject({ 'webhook-id': 'ald_1', 'webhook-timestamp': '1767225600', 'webhook-signature': `v1,${expected}` });
    expect(request.headers['x-signature']).toBe(createHmac('sha512', 'k-é').update(request.body).digest('hex'));
    const now = { deliveryId: 'ald_2', timestamp: Math.floor(Date.now() / 1000) };
    const fresh = buildAlertRequest(settings, secrets, alert, 'https://d', templates, now);
    expect(new Webhook(Buffer.from('k-é', 'utf8'), { format: 'raw' }).verify(fresh.body, fresh.headers)).toEqual(JSON.parse(fresh.body));
    for (const input of [{ auth_type: 'none' }, { auth_type: 'bearer', auth_token: 't' }, { auth_type: 'api_key', api_key_value: 'v' }]) {
      const other = mergeDestination({ ...base, ...input });
      const plain = buildAlertRequest(other.settings, other.secrets, alert, 'https://d', templates, meta);
      expect(Object.keys(plain.headers).filter((name) => name.startsWith('webhook-'))).toEqual([]);
    }
  });

  it('puts custom headers before authentication, which they cannot replace', () => {
    const { settings, secrets } = mergeDestination({ ...base, auth_type: 'bearer', auth_token: 'real', custom_headers: { 'X-Team': 'db' } });
    settings.custom_headers.Authorization = 'Bearer forged';
    const request = buildAlertRequest(settings, secrets, alert, 'https://d', templates, meta);
    expect(request.headers.authorization).toBe('Bearer real');
    expect(request.headers['x-team']).toBe('db');
  });

  it('encodes forms with dotted keys', () => {
    const { settings, secrets } = mergeDestination({ ...base, content_type: 'application/x-www-form-urlencoded' });
    const request = buildAlertRequest(settings, secrets, alert, 'https://d', templates, meta);
    const form = new URLSearchParams(request.body);
    expect(form.get('alert_id')).toBe('alt_req');
    expect(form.get('source.port')).toBe('5432');
    expect(form.get('links.dashboard')).toBe('https://d/alerts/alt_req');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });
});
