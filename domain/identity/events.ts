/**
 * Events of the identity context: the contract between its deciders, the services that read its aggregates and
 * auditors who replay them. Change them only by adding optional fields or new events (anything else: a new schema
 * version and an upcaster in event-decoder.ts, docs/event-store.md#schema-versions-and-upcasting).
 *
 * Streams (docs/identity.md, "Aggregates"):
 *   identityUser-<userId>          a host-app user: profile and consents per mini-app (user.ts)
 *   miniApp-<miniAppId>            a mini-app: its name, redirect URIs and the hash of its client secret (mini-app.ts)
 *   authCode-<sha256 hex of code>  a one-time authorization code (auth-code.ts); the raw code is never stored
 *   tokenGrant-<grantId>           one token exchange and its refreshes (token-grant.ts)
 * Times are ISO 8601 strings in UTC; secrets appear only as sha256 hex.
 */
import type { DomainEvent } from '../shared/decider.js';
import type { ConsentScope, Scope } from './scopes.js';

export const genders = ['MALE', 'FEMALE', 'OTHER'] as const;
export type Gender = (typeof genders)[number];

/** What the directory knows of a user; null: not known. */
export interface UserProfile {
  readonly name: string;
  /** YYYY-MM-DD. */
  readonly dateOfBirth: string | null;
  readonly gender: Gender | null;
  /** 10 or 11 digits. */
  readonly phoneNumber: string | null;
  readonly email: string | null;
  readonly avatarUrl: string | null;
}

// ---- identityUser-<userId> ----

export type UserRegistered = DomainEvent<'UserRegistered', UserProfile & { userId: string; registeredAt: string }>;
export type UserProfileChanged = DomainEvent<
  'UserProfileChanged',
  { userId: string; changes: Partial<UserProfile>; changedAt: string }
>;
export type ConsentGranted = DomainEvent<
  'ConsentGranted',
  { userId: string; miniAppId: string; scopes: ConsentScope[]; grantedAt: string }
>;
export type ConsentWithdrawn = DomainEvent<
  'ConsentWithdrawn',
  { userId: string; miniAppId: string; scopes: ConsentScope[]; withdrawnAt: string }
>;
export type UserEvent = UserRegistered | UserProfileChanged | ConsentGranted | ConsentWithdrawn;

// ---- miniApp-<miniAppId> ----

export type MiniAppRegistered = DomainEvent<
  'MiniAppRegistered',
  { miniAppId: string; name: string; redirectUris: string[]; secretHash: string; registeredAt: string }
>;
export type MiniAppSecretRotated = DomainEvent<
  'MiniAppSecretRotated',
  { miniAppId: string; secretHash: string; rotatedAt: string }
>;
export type MiniAppEvent = MiniAppRegistered | MiniAppSecretRotated;

// ---- authCode-<codeHash> ----

export type AuthCodeIssued = DomainEvent<
  'AuthCodeIssued',
  { codeHash: string; userId: string; miniAppId: string; scopes: Scope[]; issuedAt: string; expiresAt: string }
>;
/** Carries what the code granted, so the grant it opens is built from this event alone (grantIssuedFor). */
export type AuthCodeRedeemed = DomainEvent<
  'AuthCodeRedeemed',
  { codeHash: string; grantId: string; userId: string; miniAppId: string; scopes: Scope[]; redeemedAt: string }
>;
export type AuthCodeEvent = AuthCodeIssued | AuthCodeRedeemed;

// ---- tokenGrant-<grantId> ----

export type TokenGrantIssued = DomainEvent<
  'TokenGrantIssued',
  {
    grantId: string;
    userId: string;
    miniAppId: string;
    scopes: Scope[];
    /** The code it was exchanged for. */
    codeHash: string;
    refreshTokenHash: string;
    refreshExpiresAt: string;
    issuedAt: string;
  }
>;
export type TokenGrantRefreshed = DomainEvent<
  'TokenGrantRefreshed',
  { grantId: string; refreshTokenHash: string; refreshExpiresAt: string; refreshedAt: string }
>;
export const revocationReasons = ['REVOKED_BY_CLIENT', 'AUTH_CODE_REPLAYED', 'REFRESH_TOKEN_REUSED'] as const;
export type RevocationReason = (typeof revocationReasons)[number];
export type TokenGrantRevoked = DomainEvent<
  'TokenGrantRevoked',
  { grantId: string; reason: RevocationReason; revokedAt: string }
>;
export type TokenGrantEvent = TokenGrantIssued | TokenGrantRefreshed | TokenGrantRevoked;

export type IdentityEvent = UserEvent | MiniAppEvent | AuthCodeEvent | TokenGrantEvent;

export const streams = {
  user: (userId: string) => `identityUser-${userId}`,
  miniApp: (miniAppId: string) => `miniApp-${miniAppId}`,
  authCode: (codeHash: string) => `authCode-${codeHash}`,
  tokenGrant: (grantId: string) => `tokenGrant-${grantId}`,
};
