/**
 * The port through which the identity context signs and reads its access tokens (docs/identity.md, "Access
 * tokens"): JWTs signed with the keys of IDENTITY_SIGNING_KEYS (infrastructure/identity/jwt-codec.ts). Reading checks
 * the signature, the issuer and the expiry only; whether the grant still stands is the verifier's job.
 */
import type { Scope } from '../../domain/identity/index.js';

export interface AccessTokenPayload {
  userId: string;
  miniAppId: string;
  scopes: readonly Scope[];
  grantId: string;
  issuedAt: Date;
  expiresAt: Date;
}

export type AccessTokenRead =
  { ok: true; payload: AccessTokenPayload } | { ok: false; reason: 'TOKEN_INVALID' | 'TOKEN_EXPIRED' };

/** A JSON Web Key Set of public keys only (RFC 7517 §5). */
export interface PublicKeySet {
  keys: Record<string, unknown>[];
}

export interface AccessTokenCodec {
  sign(payload: AccessTokenPayload): Promise<string>;
  read(token: string): Promise<AccessTokenRead>;
  /** The public keys that verify tokens (GET /oauth2/jwks). */
  publicKeys(): PublicKeySet;
}
