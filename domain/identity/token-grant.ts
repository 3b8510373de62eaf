/**
 * Token grants (stream tokenGrant-<grantId>): one code exchange and its refreshes. Refresh tokens rotate: each use
 * replaces the current one, and a rotated one presented again revokes the grant, since one of its two holders is a
 * thief (docs/identity.md, "Refresh tokens"). Revoking a grant voids every access token issued from it. Only the last
 * `refreshTokenHistory` rotated tokens are kept for that reuse detection, so a grant's state stays the same size however
 * often it is refreshed; a revocation is always its stream's last event, so an access token's check reads two events.
 */
import type { Decider } from '../shared/decider.js';
import { identityError } from './errors.js';
import type { RevocationReason, TokenGrantEvent, TokenGrantIssued } from './events.js';
import type { Scope } from './scopes.js';

/**
 * How many rotated refresh tokens a grant remembers (their SHA-256 digests), to revoke the grant when one comes back
 * (OAuth 2.0 Security BCP, RFC 9700 §4.14.2: refresh token rotation with reuse detection). A copied token is caught
 * when it is presented within this many rotations after it was replaced; a client refreshing as its access token
 * expires (IDENTITY_ACCESS_TOKEN_TTL_SECONDS, 30 min) rotates 48 times a day, so 48 covers a day of normal use, and a
 * token older than that is refused as unknown (it no longer works either way). docs/identity.md, "Refresh tokens".
 */
export const refreshTokenHistory = 48;

export type TokenGrantState =
  | { readonly status: 'NONE' }
  | {
      readonly status: 'ACTIVE' | 'REVOKED';
      readonly grantId: string;
      readonly userId: string;
      readonly miniAppId: string;
      readonly scopes: readonly Scope[];
      readonly refreshTokenHash: string;
      /** The hashes of the last refreshTokenHistory refresh tokens rotated away, oldest first. */
      readonly rotatedRefreshTokenHashes: readonly string[];
      readonly refreshExpiresAt: string;
      readonly revokedReason: RevocationReason | null;
    };

export type TokenGrantCommand =
  | {
      type: 'RefreshTokenGrant';
      grantId: string;
      /** The authenticated mini-app presenting the refresh token. */
      miniAppId: string;
      presentedHash: string;
      newRefreshTokenHash: string;
      newRefreshExpiresAt: string;
      /** Scopes the new access token asks for (null: all the grant holds). */
      requestedScopes: readonly Scope[] | null;
      now: string;
    }
  | { type: 'RevokeTokenGrant'; grantId: string; reason: RevocationReason; now: string };

function decide(command: TokenGrantCommand, state: TokenGrantState): TokenGrantEvent[] {
  switch (command.type) {
    case 'RefreshTokenGrant': {
      if (state.status === 'NONE') throw identityError('REFRESH_TOKEN_UNKNOWN', 'the refresh token is not known');
      if (state.miniAppId !== command.miniAppId)
        throw identityError('GRANT_OTHER_CLIENT', 'the refresh token was issued to another mini-app');
      if (state.status === 'REVOKED') throw identityError('GRANT_REVOKED', 'the grant has been revoked');
      // The hashes are of 256-bit random tokens: comparing them with === tells a timing attacker nothing usable.
      if (state.rotatedRefreshTokenHashes.includes(command.presentedHash))
        return [
          {
            type: 'TokenGrantRevoked',
            data: { grantId: state.grantId, reason: 'REFRESH_TOKEN_REUSED', revokedAt: command.now },
          },
        ];
      if (state.refreshTokenHash !== command.presentedHash)
        throw identityError('REFRESH_TOKEN_UNKNOWN', 'the refresh token is not known');
      if (command.now >= state.refreshExpiresAt)
        throw identityError('REFRESH_TOKEN_EXPIRED', 'the refresh token has expired');
      const beyond = command.requestedScopes?.filter((s) => !state.scopes.includes(s)) ?? [];
      if (beyond.length)
        throw identityError('SCOPE_EXCEEDS_GRANT', `the grant does not hold ${beyond.join(', ')}`, { scopes: beyond });
      return [
        {
          type: 'TokenGrantRefreshed',
          data: {
            grantId: state.grantId,
            refreshTokenHash: command.newRefreshTokenHash,
            refreshExpiresAt: command.newRefreshExpiresAt,
            refreshedAt: command.now,
          },
        },
      ];
    }
    case 'RevokeTokenGrant':
      if (state.status === 'NONE') throw identityError('REFRESH_TOKEN_UNKNOWN', 'the grant is not known');
      if (state.status === 'REVOKED') return [];
      return [
        {
          type: 'TokenGrantRevoked',
          data: { grantId: state.grantId, reason: command.reason, revokedAt: command.now },
        },
      ];
  }
}

function evolve(state: TokenGrantState, event: TokenGrantEvent): TokenGrantState {
  switch (event.type) {
    case 'TokenGrantIssued': {
      const { grantId, userId, miniAppId, scopes, refreshTokenHash, refreshExpiresAt } = event.data;
      return {
        status: 'ACTIVE',
        grantId,
        userId,
        miniAppId,
        scopes,
        refreshTokenHash,
        rotatedRefreshTokenHashes: [],
        refreshExpiresAt,
        revokedReason: null,
      };
    }
    case 'TokenGrantRefreshed':
      if (state.status === 'NONE') return state;
      return {
        ...state,
        rotatedRefreshTokenHashes: [...state.rotatedRefreshTokenHashes, state.refreshTokenHash].slice(
          -refreshTokenHistory,
        ),
        refreshTokenHash: event.data.refreshTokenHash,
        refreshExpiresAt: event.data.refreshExpiresAt,
      };
    case 'TokenGrantRevoked':
      if (state.status === 'NONE') return state;
      return { ...state, status: 'REVOKED', revokedReason: event.data.reason };
  }
}

export const tokenGrantDecider: Decider<TokenGrantCommand, TokenGrantState, TokenGrantEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};

/**
 * What an access token's check needs of its grant, from the grant stream's first and last events only: the grant
 * (its user and mini-app, from TokenGrantIssued) and whether it is revoked. The decider appends nothing after a
 * TokenGrantRevoked (a refresh is refused, a second revocation decides nothing), so a revoked grant's last event is
 * its revocation, however long the stream. Undefined: no grant (or a stream that does not start with one).
 */
export function tokenGrantStatus(
  first: TokenGrantEvent | undefined,
  last: TokenGrantEvent | undefined,
): { grant: TokenGrantIssued['data']; revoked: boolean } | undefined {
  if (first?.type !== 'TokenGrantIssued') return undefined;
  return { grant: first.data, revoked: last?.type === 'TokenGrantRevoked' };
}
