import type { CredentialRevoked } from '@vigil/contracts';
import type { Principal } from '../../auth/principal';

/** The longest delay setTimeout takes (about 24.8 days); a later expiry is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Why a stream's credential ended: the `reason` of its final `stream.closed` message. */
export interface CredentialEnd {
  reason: string;
  detail: string;
}

const DETAILS: Record<string, string> = {
  api_key_revoked: 'The API key of this stream was revoked.',
  api_key_rotated: 'The API key of this stream was rotated; connect with the new key.',
  session_revoked: 'The session of this stream was revoked.',
  token_revoked: 'The access token of this stream was revoked.',
  logged_out: 'The session of this stream was logged out.',
  user_disabled: 'The user of this stream was disabled.',
  user_deleted: 'The user of this stream was deleted.',
  password_changed: "The user's password changed; their sessions ended.",
  scopes_reduced: "The user's scopes changed; their sessions ended.",
  client_deleted: 'The OAuth client of this stream was deleted.',
};

/**
 * Whether a revocation ends a stream opened with `principal`, and why. A revocation matches by
 * what it names: an API key by id, a session by `sid`, an access token by `jti`, an OAuth client
 * by `client_id`.
 */
export function revocationEnds(principal: Principal, revoked: CredentialRevoked): CredentialEnd | undefined {
  const matches =
    (revoked.kind === 'api_key' && principal.kind === 'api_key' && principal.subject === revoked.id) ||
    (revoked.kind === 'session' && principal.sessionId === revoked.id) ||
    (revoked.kind === 'access_token' && principal.tokenId === revoked.id) ||
    (revoked.kind === 'client' && principal.clientId === revoked.id) ||
    (revoked.kind === 'user' && principal.kind === 'user' && principal.subject === revoked.id);
  if (!matches) return undefined;
  const byKind = { api_key: 'api_key_revoked', session: 'session_revoked', access_token: 'token_revoked', client: 'client_deleted', user: 'user_disabled' }[revoked.kind];
  const reason = !revoked.reason || revoked.reason === 'revoked' ? byKind : revoked.reason === 'rotated' ? 'api_key_rotated' : revoked.reason;
  return { reason, detail: DETAILS[reason] ?? 'The credential of this stream was revoked.' };
}

/** The end for a reason of the table above (a revocation known without its message). */
export function revokedEnd(reason: string): CredentialEnd {
  return { reason, detail: DETAILS[reason] ?? 'The credential of this stream was revoked.' };
}

/** The end of a credential's life, for a stream opened with it. */
export function expiryEnd(principal: Principal): CredentialEnd {
  return principal.kind === 'api_key'
    ? { reason: 'api_key_expired', detail: 'The API key of this stream expired.' }
    : { reason: 'token_expired', detail: 'The access token of this stream expired; reconnect with a fresh one and Last-Event-ID to resume.' };
}

/** Calls `onExpiry` when the credential expires (never for one without expiry); returns a cancel function. */
export function watchExpiry(expiresAtMs: number | undefined, onExpiry: () => void, now: () => number = Date.now): () => void {
  if (expiresAtMs === undefined) return () => undefined;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = expiresAtMs - now();
    if (left <= 0) return onExpiry();
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}
