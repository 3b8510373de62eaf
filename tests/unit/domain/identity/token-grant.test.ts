import { expect } from 'chai';
import {
  refreshTokenHistory,
  tokenGrantDecider,
  tokenGrantStatus,
  type TokenGrantEvent,
} from '../../../../domain/identity/index.js';
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

describe('identity token grant: a bounded refresh-token history (docs/identity.md, "Refresh tokens")', () => {
  /** The grant refreshed `times` times: refresh token rN+1 is current, r1…rN rotated away (oldest first). */
  const rotations = (times: number): TokenGrantEvent[] => [
    issued,
    ...Array.from({ length: times }, (_, i): TokenGrantEvent => ({
      type: 'TokenGrantRefreshed',
      data: { grantId: 'g1', refreshTokenHash: `r${i + 2}`, refreshExpiresAt, refreshedAt: later },
    })),
  ];
  const fold = (events: TokenGrantEvent[]) =>
    events.reduce((state, e) => tokenGrantDecider.evolve(state, e), tokenGrantDecider.initialState);

  it(`keeps only the last ${refreshTokenHistory} rotated refresh tokens, however often the grant is refreshed`, () => {
    for (const times of [1, refreshTokenHistory, refreshTokenHistory + 1, 1000]) {
      const state = fold(rotations(times));
      if (state.status === 'NONE') throw new Error('no grant');
      expect(state.rotatedRefreshTokenHashes).to.have.length(Math.min(times, refreshTokenHistory));
      expect(state.rotatedRefreshTokenHashes.at(-1)).to.equal(`r${times}`);
      expect(state.refreshTokenHash).to.equal(`r${times + 1}`);
    }
  });

  // The documented history (docs/identity.md): 60 rotations keep r13…r60, r61 current.
  it('given 60 rotations, when the token rotated away 48 rotations ago comes back, then the grant is revoked (reuse)', () =>
    given(rotations(60))
      .when(refresh(`r${12 + 1}`))
      .then([revoked('REFRESH_TOKEN_REUSED')]));

  it('given 60 rotations, when a token older than the 48 kept comes back, then it is refused as unknown and nothing is appended', () =>
    given(rotations(60)).when(refresh('r12')).thenRejects('REFRESH_TOKEN_UNKNOWN'));
});

describe('identity token grant: its status from the first and last events (an access token check)', () => {
  it('given the issue alone or with refreshes, then the grant, not revoked; given a revocation last, then revoked', () => {
    expect(tokenGrantStatus(issued, issued)).to.deep.equal({ grant: issued.data, revoked: false });
    expect(tokenGrantStatus(issued, refreshed)).to.deep.equal({ grant: issued.data, revoked: false });
    expect(tokenGrantStatus(issued, revoked('REVOKED_BY_CLIENT'))).to.deep.equal({ grant: issued.data, revoked: true });
  });

  it('given no stream, or one not opened by an issue, then no grant', () => {
    expect(tokenGrantStatus(undefined, undefined)).to.equal(undefined);
    expect(tokenGrantStatus(refreshed, refreshed)).to.equal(undefined);
  });

  it('given a revoked grant, when refreshed or revoked again, then nothing follows its revocation (so it stays last)', () => {
    given([issued, refreshed, revoked('REFRESH_TOKEN_REUSED')])
      .when(refresh('r2'))
      .thenRejects('GRANT_REVOKED');
    given([issued, refreshed, revoked('REFRESH_TOKEN_REUSED')])
      .when({ type: 'RevokeTokenGrant', grantId: 'g1', reason: 'REVOKED_BY_CLIENT', now: later })
      .then([]);
  });
});
