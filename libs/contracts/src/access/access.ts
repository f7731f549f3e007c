import { Type, type Static } from '@sinclair/typebox';
import { createEnvelopeValidator } from '../envelope';

/** Scopes of credentials (docs/access.md); `write:events` lets a credential ingest; `write:reports` deletes reports and manages schedules. `admin` grants every scope. */
export const Scopes = [
  'read:databases',
  'write:databases',
  'read:policies',
  'write:policies',
  'read:alerts',
  'write:alerts',
  'read:logs',
  'read:reports',
  'write:reports',
  'write:events',
  'admin',
] as const;
export type Scope = (typeof Scopes)[number];

export const OAuthGrantTypes = ['authorization_code', 'client_credentials', 'refresh_token'] as const;
export type OAuthGrantType = (typeof OAuthGrantTypes)[number];

/**
 * A credential that must stop working at once on every gateway replica. Published by auth through
 * its outbox on `auth.credential-revocations.v1`; each gateway evicts or deny-lists it.
 * - `api_key`: a revoked API key (`id` is the key id).
 * - `session`: a refresh-token family (`id`); access tokens carrying `sid` = id die with it.
 * - `access_token`: one access token (`id` is its `jti`), revoked through RFC 7009.
 * - `client`: a deleted OAuth client (`id` is its client_id); every token issued to it dies.
 * - `user`: a disabled or deleted user (`id` is the user id): every access token issued to them
 *   before `issued_before` dies (tokens from a later login, once enabled again, are accepted).
 * `expires_at` is when the credential would have expired anyway: a deny-list entry can go then.
 * `reason` says why (event streams closed by the revocation tell their client); absent means `revoked`.
 * `effective_at`, when in the future, delays the revocation until then (an API key rotated with an
 * overlap stops at the overlap's end); absent means now.
 */
export const CredentialRevocationReasons = ['revoked', 'logged_out', 'user_disabled', 'user_deleted', 'password_changed', 'scopes_reduced', 'client_deleted', 'rotated'] as const;
export type CredentialRevocationReason = (typeof CredentialRevocationReasons)[number];
export const CredentialRevokedSchema = Type.Object({
  kind: Type.Union([Type.Literal('api_key'), Type.Literal('session'), Type.Literal('access_token'), Type.Literal('client'), Type.Literal('user')]),
  id: Type.String({ minLength: 1, maxLength: 200 }),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  reason: Type.Optional(Type.Union(CredentialRevocationReasons.map((r) => Type.Literal(r)))),
  issued_before: Type.Optional(Type.String({ format: 'date-time' })),
  effective_at: Type.Optional(Type.String({ format: 'date-time' })),
});
export type CredentialRevoked = Static<typeof CredentialRevokedSchema>;
export const CREDENTIAL_REVOKED_EVENT = 'credential.revoked';
export const validateCredentialRevokedEnvelope = createEnvelopeValidator(CredentialRevokedSchema);

// ---- RPC payloads between the gateway and auth --------------------------------------------

/**
 * The answer of an RPC that revoked credentials, with what it revoked: the gateway that asked
 * applies them at once (its cache, deny-lists and open streams) rather than waiting for the topic,
 * and answers `result` to its client.
 */
export interface Revoking<T> {
  result: T;
  revoked: CredentialRevoked[];
}

export interface RefreshRequest {
  refresh_token: string;
}

export interface UserResponse {
  id: string;
  email: string;
  scopes: string[];
  created_at: string;
  /** When an administrator disabled the account; null while it may log in. */
  disabled_at: string | null;
}

export interface UserIdRequest {
  id: string;
}

/** Omitted fields stay as they are. */
export interface UpdateUserRequest {
  id: string;
  scopes?: string[];
  disabled?: boolean;
}

export interface ResetPasswordRequest {
  id: string;
  password: string;
}

export interface ChangeOwnPasswordRequest {
  user_id: string;
  current_password: string;
  new_password: string;
  /** The session the request came with: kept, every other session of the user is revoked. */
  keep_session_id?: string | null;
}

export interface LogoutRequest {
  user_id: string;
  session_id: string;
}

export interface RevokedSessionsResponse {
  revoked_sessions: number;
  revoked_api_keys?: number;
}

export interface RotateApiKeyRequest {
  id: string;
  /** How long the old key keeps working; 0 revokes it at once. */
  overlap_seconds: number;
}

export interface RotatedApiKeyResponse {
  key: ApiKeyResponse & { key: string };
  previous: ApiKeyResponse;
}

export interface RotateOAuthClientSecretRequest {
  client_id: string;
  /** How long the previous secret is still accepted; omitted: OAUTH_SECRET_OVERLAP_SECONDS. */
  overlap_seconds?: number;
}

export interface RotatedOAuthClientSecretResponse {
  client_id: string;
  client_secret: string;
  previous_secret_expires_at: string | null;
}

export interface SigningKeyRotationResponse {
  /** The key that signs from now on. */
  kid: string;
  /** Keys still published in the JWKS, newest first, with when each leaves it (null: the current key). */
  keys: { kid: string; created_at: string; retired_at: string | null; published_until: string | null }[];
}

export interface CreateUserRequest {
  email: string;
  password: string;
  scopes: string[];
}

export interface CreateApiKeyRequest {
  name: string;
  scopes: string[];
  expires_at?: string | null;
  created_by: string;
}

export interface ApiKeyResponse {
  id: string;
  name: string;
  /** The first characters of the key, enough to recognise it in a list; never the whole value. */
  prefix: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export type CreatedApiKeyResponse = ApiKeyResponse & { key: string };

export interface VerifyApiKeyRequest {
  key: string;
}

/** What the gateway caches for a valid key. */
export interface VerifiedApiKey {
  id: string;
  scopes: string[];
  expires_at: string | null;
}

export interface TouchApiKeysRequest {
  ids: string[];
}

export interface AccessPageRequest {
  page: number;
  per_page: number;
}

export interface AccessPage<T> {
  data: T[];
  pagination: { total: number; page: number; per_page: number; has_more: boolean };
}

export interface CreateOAuthClientRequest {
  name: string;
  redirect_uris: string[];
  grant_types: OAuthGrantType[];
  scopes: string[];
  created_by: string;
}

export interface OAuthClientResponse {
  client_id: string;
  name: string;
  redirect_uris: string[];
  grant_types: OAuthGrantType[];
  scopes: string[];
  created_at: string;
  /** When the secret was last rotated; the previous one is accepted until previous_secret_expires_at. */
  secret_rotated_at: string | null;
  previous_secret_expires_at: string | null;
}

export type CreatedOAuthClientResponse = OAuthClientResponse & { client_secret: string };

/** The query of GET /oauth/authorize, as received. */
export interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/**
 * The answer to an authorization request:
 * - `fatal`: client or redirect URI cannot be trusted: show the error, never redirect (RFC 6749 4.1.2.1);
 * - `redirect`: send the browser to this URL (a code, or an error for the client);
 * - `consent`: show the login-and-consent page for this pending request.
 */
export type AuthorizeOutcome =
  | { kind: 'fatal'; error: string; error_description: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'consent'; request_id: string; csrf_token: string; client_name: string; scopes: string[]; redirect_host: string };

export interface AuthorizeBeginRequest {
  params: AuthorizeParams;
  /** Set when the request carried a user's access token: answer with the redirect at once. */
  user?: { id: string; scopes: string[] };
}

export interface AuthorizeCompleteRequest {
  request_id: string;
  csrf_token: string;
  decision: 'approve' | 'deny';
  email?: string;
  password?: string;
}

/** `retry`: wrong e-mail or password; the page is shown again with the same request. */
export type AuthorizeCompleteOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'retry'; request_id: string; csrf_token: string; client_name: string; scopes: string[]; redirect_host: string; message: string }
  | { kind: 'fatal'; error: string; error_description: string };

export interface OAuthClientCredentials {
  client_id?: string;
  client_secret?: string;
  /** How the client authenticated: RFC 6749 2.3.1 forbids using two methods at once. */
  methods: ('client_secret_basic' | 'client_secret_post')[];
}

export interface TokenRequest {
  client: OAuthClientCredentials;
  form: Record<string, string>;
}

export interface OAuthTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/** RFC 6749 5.2 error, with the HTTP status the token endpoint answers it with. */
export interface OAuthError {
  oauth_error: string;
  error_description: string;
  status: number;
}

export type TokenOutcome = { ok: true; tokens: OAuthTokenResponse } | ({ ok: false } & OAuthError);

export interface RevokeRequest {
  client: OAuthClientCredentials;
  token?: string;
  token_type_hint?: string;
}

export type RevokeOutcome = { ok: true } | ({ ok: false } & OAuthError);
