import { timingSafeEqual } from 'node:crypto';
import { Body, Controller, Get, Headers, HttpCode, Inject, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AuthorizeBeginRequest,
  type AuthorizeCompleteOutcome,
  type AuthorizeCompleteRequest,
  type AuthorizeOutcome,
  type AuthorizeParams,
  type JsonWebKeySet,
  OAuthGrantTypes,
  type OAuthClientCredentials,
  type RevokeOutcome,
  type RevokeRequest,
  RpcPatterns,
  Scopes,
  type TokenOutcome,
  type TokenRequest,
} from '@vigil/contracts';
import { CONFIG, Public } from '@vigil/platform';
import type { Request, Response } from 'express';
import { Authenticator, unauthorized } from '../auth/authenticator';
import type { GatewayConfig } from '../gateway.service-definition';
import { RpcClients } from '../rpc/rpc-clients';
import { consentPage, type ConsentView, errorPage, PAGE_HEADERS } from './consent-page';
import { OAuthErrorFilter } from './oauth-error.filter';

const CSRF_COOKIE = 'vigil_oauth_csrf';
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

function sameString(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Client credentials from HTTP Basic (RFC 6749 2.3.1: form-encoded, then base64) and/or the body. */
export function clientCredentials(authorization: string | undefined, form: Record<string, unknown>): OAuthClientCredentials {
  const methods: OAuthClientCredentials['methods'] = [];
  let client_id: string | undefined;
  let client_secret: string | undefined;
  const basic = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i > 0) {
      try {
        client_id = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' '));
        client_secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, ' '));
        methods.push('client_secret_basic');
      } catch {
        /* malformed: no credentials */
      }
    }
  }
  if (typeof form.client_secret === 'string') {
    methods.push('client_secret_post');
    client_secret ??= form.client_secret;
  }
  client_id ??= str(form.client_id);
  if (basic && str(form.client_id) && str(form.client_id) !== client_id) methods.push('client_secret_post');
  return { client_id, client_secret, methods };
}

/**
 * The OAuth 2.0 authorization server's HTTP face (RFC 6749, 7636, 7009, 8414). The decisions are
 * auth's; this controller parses, renders the consent page and answers in the RFC 6749 forms.
 */
@ApiTags('oauth')
@UseFilters(OAuthErrorFilter)
@Controller()
export class OAuthController {
  constructor(
    @Inject(RpcClients) private readonly rpc: RpcClients,
    @Inject(Authenticator) private readonly authenticator: Authenticator,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  private issuer(req: Request): string {
    return (this.config.PUBLIC_URL ?? `${req.protocol}://${req.get('host')}`).replace(/\/+$/, '');
  }

  @Public()
  @Get('.well-known/oauth-authorization-server')
  @ApiOperation({ summary: 'Authorization server metadata (RFC 8414)' })
  @ApiOkResponse({ description: 'The metadata document' })
  metadata(@Req() req: Request) {
    const issuer = this.issuer(req);
    return {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: OAuthGrantTypes,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: Scopes,
    };
  }

  @Public()
  @Get('.well-known/jwks.json')
  @ApiOperation({ summary: 'Public keys that sign access tokens (JWKS)' })
  @ApiOkResponse({ description: '`{keys: JWK[]}`' })
  jwks(): Promise<JsonWebKeySet> {
    return this.rpc.auth.call<object, JsonWebKeySet>(RpcPatterns.auth.jwks, {});
  }

  @Public()
  @Get('oauth/authorize')
  @ApiOperation({
    summary: 'Authorization endpoint (code flow with PKCE S256)',
    description: 'A browser gets the login-and-consent page; a request carrying a user access token is answered with the redirect at once.',
  })
  @ApiResponse({ status: 302, description: 'Redirect to the client with `code` and `state`, or with an error' })
  @ApiResponse({ status: 200, description: 'The login-and-consent page (HTML)' })
  @ApiResponse({ status: 400, description: 'Unknown client or unregistered redirect_uri (HTML, no redirect)' })
  async authorize(@Query() query: Record<string, unknown>, @Headers('authorization') authorization: string | undefined, @Req() req: Request, @Res() res: Response) {
    const params: AuthorizeParams = {
      client_id: str(query.client_id),
      redirect_uri: str(query.redirect_uri),
      response_type: str(query.response_type),
      scope: str(query.scope),
      state: str(query.state),
      code_challenge: str(query.code_challenge),
      code_challenge_method: str(query.code_challenge_method),
    };
    let user: AuthorizeBeginRequest['user'];
    if (authorization) {
      const principal = await this.authenticator.authenticate(req, res);
      if (principal.kind !== 'user') throw unauthorized('Only a user access token can authorize a client.');
      user = { id: principal.subject, scopes: principal.scopes };
    }
    const outcome = await this.rpc.auth.call<AuthorizeBeginRequest, AuthorizeOutcome>(RpcPatterns.auth.oauthAuthorize, { params, user });
    this.answer(res, outcome);
  }

  @Public()
  @Post('oauth/authorize')
  @ApiOperation({
    summary: 'Consent form submission of the authorization endpoint',
    description:
      'The target of the login-and-consent page (form-encoded, with the page\'s CSRF token, double-submit checked against its cookie). ' +
      'Answers with the redirect to the client carrying the code, or the page again with an error. Browsers only; not for API clients.',
  })
  @ApiResponse({ status: 302, description: 'Redirect to the registered redirect URI with `code` and `state` (or an OAuth error)' })
  @ApiResponse({ status: 200, description: 'The login-and-consent page again, with an error message', content: { 'text/html': {} } })
  @ApiResponse({ status: 400, description: 'Invalid or expired form (bad CSRF token, unknown request), as an HTML page' })
  async consent(@Req() req: Request, @Body() body: Record<string, unknown>, @Res() res: Response) {
    const csrf = str(body?.csrf_token);
    // Double submit: the form's token must match the cookie set with the page, and auth checks it
    // belongs to this very request.
    if (!req.is('application/x-www-form-urlencoded') || !sameString(csrf, cookie(req, CSRF_COOKIE))) {
      res.status(400).set(PAGE_HEADERS).send(errorPage('invalid_request', 'The form has expired or did not come from this page. Start again from the application.'));
      return;
    }
    const outcome = await this.rpc.auth.call<AuthorizeCompleteRequest, AuthorizeCompleteOutcome>(RpcPatterns.auth.oauthAuthorizeComplete, {
      request_id: str(body.request_id) ?? '',
      csrf_token: csrf!,
      decision: body.decision === 'approve' ? 'approve' : 'deny',
      email: str(body.email),
      password: str(body.password),
    });
    if (outcome.kind === 'retry') {
      this.page(res, 401, outcome, outcome.message);
      return;
    }
    if (outcome.kind === 'redirect') res.clearCookie(CSRF_COOKIE, { path: '/oauth/authorize' });
    this.answer(res, outcome, 303);
  }

  private answer(res: Response, outcome: AuthorizeOutcome | AuthorizeCompleteOutcome, redirectStatus = 302) {
    if (outcome.kind === 'fatal') {
      res.status(400).set(PAGE_HEADERS).send(errorPage(outcome.error, outcome.error_description));
    } else if (outcome.kind === 'redirect') {
      res.set(NO_STORE).set('Referrer-Policy', 'no-referrer').redirect(redirectStatus, outcome.location);
    } else if (outcome.kind === 'consent') {
      this.page(res, 200, outcome);
    }
  }

  private page(res: Response, status: number, view: ConsentView, message?: string) {
    const secure = res.req.protocol === 'https';
    res.cookie(CSRF_COOKIE, view.csrf_token, { httpOnly: true, sameSite: 'strict', secure, path: '/oauth/authorize', maxAge: 600_000 });
    res.status(status).set(PAGE_HEADERS).send(consentPage({ ...view, message }));
  }

  @Public()
  @Post('oauth/token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Token endpoint',
    description: 'Form-encoded. Grants authorization_code (with code_verifier), client_credentials and refresh_token; client_secret_basic or client_secret_post.',
  })
  @ApiOkResponse({ description: '`{access_token, token_type, expires_in, refresh_token?, scope}`' })
  @ApiResponse({ status: 400, description: 'RFC 6749 error: invalid_request, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope' })
  @ApiResponse({ status: 401, description: 'invalid_client' })
  async token(@Req() req: Request, @Body() body: Record<string, unknown>, @Res() res: Response) {
    res.set(NO_STORE);
    if (!req.is('application/x-www-form-urlencoded')) {
      res.status(400).json({ error: 'invalid_request', error_description: 'The body must be application/x-www-form-urlencoded.' });
      return;
    }
    const form: Record<string, string> = {};
    for (const [k, v] of Object.entries(body ?? {})) if (typeof v === 'string') form[k] = v;
    const client = clientCredentials(req.headers.authorization, form);
    const outcome = await this.rpc.auth.call<TokenRequest, TokenOutcome>(RpcPatterns.auth.oauthToken, { client, form });
    if (outcome.ok) {
      res.status(200).json(outcome.tokens);
      return;
    }
    this.oauthError(res, outcome, client);
  }

  @Public()
  @Post('oauth/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Token revocation (RFC 7009)', description: 'Refresh tokens revoke their whole session; access tokens are refused by every gateway.' })
  @ApiOkResponse({ description: 'Empty; also for unknown tokens' })
  @ApiResponse({ status: 400, description: 'RFC 6749 error: invalid_request (not form-encoded, no token, two client authentication methods)' })
  @ApiResponse({ status: 401, description: 'invalid_client' })
  async revoke(@Req() req: Request, @Body() body: Record<string, unknown>, @Res() res: Response) {
    res.set(NO_STORE);
    if (!req.is('application/x-www-form-urlencoded')) {
      res.status(400).json({ error: 'invalid_request', error_description: 'The body must be application/x-www-form-urlencoded.' });
      return;
    }
    const client = clientCredentials(req.headers.authorization, body ?? {});
    const outcome = await this.rpc.auth.call<RevokeRequest, RevokeOutcome>(RpcPatterns.auth.oauthRevoke, {
      client,
      token: str(body.token),
      token_type_hint: str(body.token_type_hint),
    });
    if (outcome.ok) {
      res.status(200).end();
      return;
    }
    this.oauthError(res, outcome, client);
  }

  private oauthError(res: Response, outcome: { oauth_error: string; error_description: string; status: number }, client: OAuthClientCredentials) {
    if (outcome.status === 401 && client.methods.includes('client_secret_basic')) res.set('WWW-Authenticate', 'Basic realm="vigil"');
    res.status(outcome.status).json({ error: outcome.oauth_error, error_description: outcome.error_description });
  }
}
