import { tokenGrantDecider, type TokenGrantEvent } from '../../../../domain/identity/index.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(tokenGrantDecider);
const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-01T11:00:00.000Z';
const refreshExpiresAt = '2026-03-31T10:00:00.000Z';
const issued: TokenGrantEvent = {
  type: 'TokenGrantIssued',
  data: {
    grantId: 'g1',
    userId: 'u1',
    miniAppId: 'app',
    scopes: ['profile', 'phone'],
    codeHash: 'c1',
    refreshTokenHash: 'r1',
    refreshExpiresAt,
    issuedAt: now,
  },
};
const refreshed: TokenGrantEvent = {
  type: 'TokenGrantRefreshed',
  data: { grantId: 'g1', refreshTokenHash: 'r2', refreshExpiresAt, refreshedAt: later },
};
const revoked = (reason: 'REVOKED_BY_CLIENT' | 'REFRESH_TOKEN_REUSED', at = later): TokenGrantEvent => ({
  type: 'TokenGrantRevoked',
  data: { grantId: 'g1', reason, revokedAt: at },
});
const refresh = (
  presentedHash: string,
  extra: { now?: string; miniAppId?: string; scopes?: ('profile' | 'email')[] } = {},
) => ({
  type: 'RefreshTokenGrant' as const,
  grantId: 'g1',
  miniAppId: extra.miniAppId ?? 'app',
  presentedHash,
  newRefreshTokenHash: 'r2',
  newRefreshExpiresAt: refreshExpiresAt,
  requestedScopes: extra.scopes ?? null,
  now: extra.now ?? later,
});

describe('identity token grant decider', () => {
  it('given a grant, when its current refresh token is presented, then it rotates', () =>
    given([issued]).when(refresh('r1')).then([refreshed]));

  it('given a rotated refresh token, when it is presented again, then the grant is revoked (reuse)', () =>
    given([issued, refreshed])
      .when(refresh('r1'))
      .then([revoked('REFRESH_TOKEN_REUSED')]));

  it('given a grant, when an unknown token, another mini-app or an expired token presents, then refused', () => {
    given([issued]).when(refresh('rX')).thenRejects('REFRESH_TOKEN_UNKNOWN');
    given([issued])
      .when(refresh('r1', { miniAppId: 'other' }))
      .thenRejects('GRANT_OTHER_CLIENT');
    given([issued])
      .when(refresh('r1', { now: refreshExpiresAt }))
      .thenRejects('REFRESH_TOKEN_EXPIRED');
    given([]).when(refresh('r1')).thenRejects('REFRESH_TOKEN_UNKNOWN');
  });

  it('given a grant, when a scope beyond it is asked, then SCOPE_EXCEEDS_GRANT; a narrower one rotates', () => {
    given([issued])
      .when(refresh('r1', { scopes: ['profile', 'email'] }))
      .thenRejects('SCOPE_EXCEEDS_GRANT');
    given([issued])
      .when(refresh('r1', { scopes: ['profile'] }))
      .then([refreshed]);
  });

  it('given a revoked grant, when refreshed, then GRANT_REVOKED; when revoked again, then nothing', () => {
    given([issued, revoked('REVOKED_BY_CLIENT')])
      .when(refresh('r1'))
      .thenRejects('GRANT_REVOKED');
    given([issued, revoked('REVOKED_BY_CLIENT')])
      .when({ type: 'RevokeTokenGrant', grantId: 'g1', reason: 'REVOKED_BY_CLIENT', now: later })
      .then([]);
  });

  it('given a grant, when revoked, then TokenGrantRevoked with the reason', () =>
    given([issued])
      .when({ type: 'RevokeTokenGrant', grantId: 'g1', reason: 'REVOKED_BY_CLIENT', now: later })
      .then([revoked('REVOKED_BY_CLIENT')]));
});
