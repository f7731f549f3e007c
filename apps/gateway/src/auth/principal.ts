export interface Principal {
  kind: 'user' | 'api_key' | 'client';
  subject: string;
  scopes: string[];
  /** Identifies the credential for rate limits and stream quotas. */
  credentialId: string;
  /** The login session (refresh-token family) an access token belongs to: `sid`. */
  sessionId?: string;
  /** The access token's own id (`jti`). */
  tokenId?: string;
  /** The OAuth client a token was issued to. */
  clientId?: string;
  /** When the credential expires (access token `exp`, API key `expires_at`); undefined: never. */
  expiresAtMs?: number;
}

export const SCOPES_KEY = 'vigil:scopes';

/**
 * Declared instead of a scope on the few routes any signed-in user may call about themselves
 * (change their password, log out): a user's access token is needed, no scope.
 */
export const SIGNED_IN_USER = 'signed-in user';
