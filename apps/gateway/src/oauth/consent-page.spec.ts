import { consentPage, errorPage, escapeHtml } from './consent-page';

describe('the consent page', () => {
  const hostile = `"><script>alert(1)</script><img src=x onerror='alert(2)'>`;

  it('escapes every character that could leave text or an attribute', () => {
    expect(escapeHtml(`<>&"'\`=/`)).toBe('&#60;&#62;&#38;&#34;&#39;&#96;&#61;&#47;');
  });

  it('renders a hostile client name, scope, host and message as text only', () => {
    const html = consentPage({ request_id: hostile, csrf_token: hostile, client_name: hostile, scopes: [hostile], redirect_host: hostile, message: hostile });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/value="[^"]*"[^>]*onerror/);
    expect(html.match(/<form /g)).toHaveLength(1);
    expect(html).toContain('action="/oauth/authorize"');
  });

  it('carries the request id and CSRF token as hidden fields', () => {
    const html = consentPage({ request_id: 'areq_1', csrf_token: 'tok-1', client_name: 'App', scopes: ['read:logs'], redirect_host: 'app.example.com' });
    expect(html).toContain('name="request_id" value="areq_1"');
    expect(html).toContain('name="csrf_token" value="tok-1"');
    expect(html).toContain('<code>read:logs</code>');
  });

  it('escapes the error page too', () => {
    expect(errorPage(hostile, hostile)).not.toContain('<script>');
  });
});
