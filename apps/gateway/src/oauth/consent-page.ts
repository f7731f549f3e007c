/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`=/]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Headers of every page the authorization server renders: no scripts at all, no framing
 * (clickjacking of the approve button), no caching, no referrer leaking the query.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
};

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.3rem}label{display:block;margin:.8rem 0 .2rem}input[type=email],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
ul{padding-left:1.2rem}.error{color:#a40000}.actions{margin-top:1.2rem;display:flex;gap:.6rem}button{padding:.5rem 1rem}`;

export interface ConsentView {
  request_id: string;
  csrf_token: string;
  client_name: string;
  scopes: string[];
  redirect_host: string;
  message?: string;
}

/** The login-and-consent page. Every value is escaped; the form posts back to this server only. */
export function consentPage(view: ConsentView): string {
  const scopes = view.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Vigil: authorize ${escapeHtml(view.client_name)}</title><style>${STYLE}</style></head>
<body><main>
<h1>Authorize <strong>${escapeHtml(view.client_name)}</strong></h1>
<p>This application asks for access to Vigil with these permissions:</p>
<ul>${scopes}</ul>
<p>You will be sent back to <strong>${escapeHtml(view.redirect_host)}</strong>. You get at most the permissions you hold yourself.</p>
${view.message ? `<p class="error" role="alert">${escapeHtml(view.message)}</p>` : ''}
<form method="post" action="/oauth/authorize" autocomplete="on">
<input type="hidden" name="request_id" value="${escapeHtml(view.request_id)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(view.csrf_token)}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit" name="decision" value="approve">Log in and allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></div>
</form>
</main></body></html>`;
}

/** An error the browser must see here, because redirecting it could deliver it to an attacker. */
export function errorPage(error: string, description: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Vigil: authorization failed</title><style>${STYLE}</style></head>
<body><main><h1>Authorization failed</h1><p class="error"><code>${escapeHtml(error)}</code></p><p>${escapeHtml(description)}</p></main></body></html>`;
}
