import { expect } from 'chai';
import {
  authCodeDecider,
  grantIssuedFor,
  type AuthCodeEvent,
  type AuthCodeRedeemed,
} from '../../../../domain/identity/index.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(authCodeDecider);
const now = '2026-03-01T10:00:00.000Z';
const expiresAt = '2026-03-01T10:01:30.000Z';
const issued: AuthCodeEvent = {
  type: 'AuthCodeIssued',
  data: { codeHash: 'c1', userId: 'u1', miniAppId: 'app', scopes: ['auth', 'profile'], issuedAt: now, expiresAt },
};
const redeemed: AuthCodeRedeemed = {
  type: 'AuthCodeRedeemed',
  data: { codeHash: 'c1', grantId: 'g1', userId: 'u1', miniAppId: 'app', scopes: ['auth', 'profile'], redeemedAt: now },
};
const issue = (scopes: ('auth' | 'profile' | 'phone' | 'email')[], consented: ('profile' | 'phone' | 'email')[]) => ({
  type: 'IssueAuthCode' as const,
  codeHash: 'c1',
  userId: 'u1',
  miniAppId: 'app',
  scopes,
  consented,
  expiresAt,
  now,
});
const redeem = (at = now, miniAppId = 'app') => ({
  type: 'RedeemAuthCode' as const,
  codeHash: 'c1',
  miniAppId,
  grantId: 'g1',
  now: at,
});

describe('identity auth code decider', () => {
  it('given nothing, when auth is asked without consent, then AuthCodeIssued (scopes in canonical order)', () =>
    given([])
      .when(issue(['profile', 'auth'], ['profile']))
      .then([issued]));

  it('given nothing, when a consent scope the user has not granted is asked, then SCOPE_NOT_CONSENTED naming it', () => {
    given([])
      .when(issue(['auth', 'phone', 'email'], ['email']))
      .thenRejects('SCOPE_NOT_CONSENTED');
    const error = given([])
      .when(issue(['phone'], ['profile']))
      .thenRejects('SCOPE_NOT_CONSENTED');
    expect(error.details.scopes).to.deep.equal(['phone']);
  });

  it('given an issued code, when redeemed before it expires, then AuthCodeRedeemed with what it grants', () =>
    given([issued])
      .when(redeem('2026-03-01T10:01:29.999Z'))
      .then([{ ...redeemed, data: { ...redeemed.data, redeemedAt: '2026-03-01T10:01:29.999Z' } }]));

  it('given an issued code, when redeemed at or after its expiry, then AUTH_CODE_EXPIRED', () => {
    given([issued]).when(redeem(expiresAt)).thenRejects('AUTH_CODE_EXPIRED');
  });

  it('given a redeemed code, when redeemed again, then AUTH_CODE_ALREADY_REDEEMED naming its grant (even expired)', () => {
    given([issued, redeemed]).when(redeem()).thenRejects('AUTH_CODE_ALREADY_REDEEMED', { grantId: 'g1' });
    given([issued, redeemed]).when(redeem(expiresAt)).thenRejects('AUTH_CODE_ALREADY_REDEEMED', { grantId: 'g1' });
  });

  it('given a code, when another mini-app redeems it, then AUTH_CODE_OTHER_CLIENT, used or not', () => {
    given([issued]).when(redeem(now, 'other')).thenRejects('AUTH_CODE_OTHER_CLIENT');
    given([issued, redeemed]).when(redeem(now, 'other')).thenRejects('AUTH_CODE_OTHER_CLIENT');
  });

  it('given nothing, when redeemed, then AUTH_CODE_UNKNOWN', () => {
    given([]).when(redeem()).thenRejects('AUTH_CODE_UNKNOWN');
  });

  it('opens the grant from the redemption', () => {
    expect(grantIssuedFor(redeemed, { refreshTokenHash: 'r1', refreshExpiresAt: expiresAt })).to.deep.equal({
      type: 'TokenGrantIssued',
      data: {
        grantId: 'g1',
        userId: 'u1',
        miniAppId: 'app',
        scopes: ['auth', 'profile'],
        codeHash: 'c1',
        refreshTokenHash: 'r1',
        refreshExpiresAt: expiresAt,
        issuedAt: now,
      },
    });
  });
});
