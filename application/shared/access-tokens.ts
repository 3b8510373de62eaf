/**
 * The port through which a context checks a user's access token (docs/identity.md, "Access tokens"): the identity
 * context issues the tokens and implements it; others (file upload, the order view's customer queries) only verify.
 * The composition root hands every context the identity context's verifier.
 */

/** What a valid access token says. */
export interface AccessTokenClaims {
  /** The host-app user id. */
  userId: string;
  /** The mini-app the token was issued to. */
  miniAppId: string;
  /** The scopes granted (`auth`, `profile`, `phone`, `email`). */
  scopes: readonly string[];
  /** The grant (one token exchange and its refreshes): revoking it revokes every token of it. */
  grantId: string;
  /** ISO 8601. */
  expiresAt: string;
}

export type AccessTokenRefusal = 'TOKEN_INVALID' | 'TOKEN_EXPIRED' | 'TOKEN_REVOKED';

export type AccessTokenCheck = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: AccessTokenRefusal };

export interface AccessTokenVerifier {
  /** Checks the token's signature, expiry and that its grant is not revoked. */
  verify(token: string): Promise<AccessTokenCheck>;
}
