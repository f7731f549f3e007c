export interface Principal {
  kind: 'user' | 'api_key' | 'client';
  subject: string;
  scopes: string[];
  /** Identifies the credential for rate limits and stream quotas. */
  credentialId: string;
}

export const SCOPES_KEY = 'vigil:scopes';
