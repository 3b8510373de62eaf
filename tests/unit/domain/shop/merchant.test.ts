import type { ApiKeyLookupEvent, MerchantEvent } from '../../../../domain/shop/events.js';
import { expect } from 'chai';
import { fold } from '../../../../domain/shared/decider.js';
import { DomainError } from '../../../../domain/shared/errors.js';
import {
  apiKeyAccess,
  apiKeyLookupEventFor,
  evolveApiKeyLookup,
  merchantDecider,
  type MerchantCommand,
  type NewApiKey,
} from '../../../../domain/shop/merchant.js';

const now = '2026-03-01T10:00:00.000Z';
const hash1 = 'a'.repeat(64);
const hash2 = 'b'.repeat(64);
const key1: NewApiKey = { apiKeyId: 1, prefix: 'pk_live_abcdef', keyHash: hash1, expiresAt: null };
const key2: NewApiKey = {
  apiKeyId: 2,
  prefix: 'pk_live_ghijkl',
  keyHash: hash2,
  expiresAt: '2026-05-31T17:00:00.000Z',
};

function decide(given: MerchantEvent[], command: MerchantCommand): MerchantEvent[] {
  return merchantDecider.decide(command, fold(merchantDecider, given));
}

function refusal(given: MerchantEvent[], command: MerchantCommand): DomainError {
  try {
    decide(given, command);
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  return expect.fail('expected a DomainError');
}

const register = (
  overrides: Partial<Extract<MerchantCommand, { type: 'RegisterMerchant' }>> = {},
): MerchantCommand => ({
  type: 'RegisterMerchant',
  merchantId: 'M0001',
  name: 'Coffee House',
  apiKey: key1,
  now,
  ...overrides,
});

const registered: MerchantEvent[] = decide([], register());

describe('merchant decider', () => {
  describe('register', () => {
    it('given no merchant, registers it with its first API key (hash and prefix only)', () => {
      const events = decide([], register({ apiKey: key2 }));
      expect(events).to.deep.equal([
        { type: 'MerchantRegistered', data: { merchantId: 'M0001', name: 'Coffee House', registeredAt: now } },
        {
          type: 'MerchantApiKeyIssued',
          data: {
            merchantId: 'M0001',
            apiKeyId: 2,
            prefix: 'pk_live_ghijkl',
            keyHash: hash2,
            expiresAt: '2026-05-31T17:00:00.000Z',
            issuedAt: now,
          },
        },
      ]);
    });

    it('given the merchant exists, refuses with MERCHANT_EXISTS', () => {
      expect(refusal(registered, register({ name: 'Other' })).code).to.equal('MERCHANT_EXISTS');
    });

    // The form of a merchant id, a name and a date-time is checked by the operator API:
    // tests/unit/api/operator-schemas.test.ts. The decider keeps the rule against the clock.
    for (const [what, expiresAt] of Object.entries({ 'in the past': '2026-02-01T00:00:00.000Z', 'exactly now': now })) {
      it(`refuses a key expiry ${what} as INVALID_INPUT on apiKeyExpiresAt`, () => {
        const e = refusal([], register({ apiKey: { ...key1, expiresAt } }));
        expect([e.code, e.details.field]).to.deep.equal(['INVALID_INPUT', 'apiKeyExpiresAt']);
      });
    }
  });

  describe('issue API key', () => {
    it('given a merchant, issues another key', () => {
      expect(decide(registered, { type: 'IssueApiKey', merchantId: 'M0001', apiKey: key2, now })).to.deep.equal([
        {
          type: 'MerchantApiKeyIssued',
          data: {
            merchantId: 'M0001',
            apiKeyId: 2,
            prefix: 'pk_live_ghijkl',
            keyHash: hash2,
            expiresAt: '2026-05-31T17:00:00.000Z',
            issuedAt: now,
          },
        },
      ]);
    });

    it('given no merchant, refuses with MERCHANT_NOT_FOUND', () => {
      expect(refusal([], { type: 'IssueApiKey', merchantId: 'M0001', apiKey: key2, now }).code).to.equal(
        'MERCHANT_NOT_FOUND',
      );
    });

    it('refuses an expiry in the past as INVALID_INPUT on expiresAt', () => {
      const e = refusal(registered, {
        type: 'IssueApiKey',
        merchantId: 'M0001',
        apiKey: { ...key2, expiresAt: '2020-01-01T00:00:00.000Z' },
        now,
      });
      expect([e.code, e.details.field]).to.deep.equal(['INVALID_INPUT', 'expiresAt']);
    });
  });

  describe('revoke API key', () => {
    const revoke: MerchantCommand = { type: 'RevokeApiKey', merchantId: 'M0001', apiKeyId: 1, now };

    it('given an active key, revokes it', () => {
      expect(decide(registered, revoke)).to.deep.equal([
        { type: 'MerchantApiKeyRevoked', data: { merchantId: 'M0001', apiKeyId: 1, keyHash: hash1, revokedAt: now } },
      ]);
    });

    it('given a revoked key, changes nothing (a retried revocation succeeds)', () => {
      expect(decide([...registered, ...decide(registered, revoke)], revoke)).to.deep.equal([]);
    });

    it('given no such key, refuses with API_KEY_NOT_FOUND', () => {
      expect(refusal(registered, { ...revoke, apiKeyId: 9 }).code).to.equal('API_KEY_NOT_FOUND');
    });

    it('given no merchant, refuses with MERCHANT_NOT_FOUND', () => {
      expect(refusal([], revoke).code).to.equal('MERCHANT_NOT_FOUND');
    });
  });

  it('given no event, the state is NONE', () => {
    expect(merchantDecider.initialState).to.deep.equal({ status: 'NONE' });
  });

  it('folds keys with their status, expiry and revocation', () => {
    const later = '2026-03-02T00:00:00.000Z';
    const events = [
      ...registered,
      ...decide(registered, { type: 'IssueApiKey', merchantId: 'M0001', apiKey: key2, now }),
      {
        type: 'MerchantApiKeyRevoked',
        data: { merchantId: 'M0001', apiKeyId: 1, keyHash: hash1, revokedAt: later },
      } as const,
    ];
    expect(fold(merchantDecider, events)).to.deep.equal({
      status: 'ACTIVE',
      merchantId: 'M0001',
      name: 'Coffee House',
      registeredAt: now,
      apiKeys: [
        {
          apiKeyId: 1,
          prefix: 'pk_live_abcdef',
          keyHash: hash1,
          status: 'REVOKED',
          expiresAt: null,
          issuedAt: now,
          revokedAt: later,
        },
        {
          apiKeyId: 2,
          prefix: 'pk_live_ghijkl',
          keyHash: hash2,
          status: 'ACTIVE',
          expiresAt: '2026-05-31T17:00:00.000Z',
          issuedAt: now,
          revokedAt: null,
        },
      ],
    });
  });
});

describe('API key lookup', () => {
  const [, issued] = registered;
  const revoked: MerchantEvent = {
    type: 'MerchantApiKeyRevoked',
    data: { merchantId: 'M0001', apiKeyId: 1, keyHash: hash1, revokedAt: now },
  };

  it('writes a claim on the key hash for every issued key and a revocation for every revoked one', () => {
    expect(apiKeyLookupEventFor(issued!)).to.deep.equal({
      keyHash: hash1,
      event: { type: 'ApiKeyClaimed', data: { merchantId: 'M0001', apiKeyId: 1, expiresAt: null, claimedAt: now } },
    });
    expect(apiKeyLookupEventFor(revoked)).to.deep.equal({
      keyHash: hash1,
      event: { type: 'ApiKeyRevoked', data: { merchantId: 'M0001', apiKeyId: 1, revokedAt: now } },
    });
    expect(apiKeyLookupEventFor(registered[0]!)).to.equal(null);
  });

  const lookupOf = (events: ApiKeyLookupEvent[]) => events.reduce(evolveApiKeyLookup, null);
  const claim = (expiresAt: string | null): ApiKeyLookupEvent => ({
    type: 'ApiKeyClaimed',
    data: { merchantId: 'M0001', apiKeyId: 1, expiresAt, claimedAt: now },
  });

  it('given no claim, the key is unknown', () => {
    expect(apiKeyAccess(lookupOf([]), now)).to.deep.equal({ ok: false, reason: 'UNKNOWN' });
  });

  it('given a claim without expiry, the key identifies its merchant', () => {
    expect(apiKeyAccess(lookupOf([claim(null)]), '2099-01-01T00:00:00.000Z')).to.deep.equal({
      ok: true,
      merchantId: 'M0001',
    });
  });

  it('given a revocation, the key is revoked', () => {
    expect(apiKeyAccess(lookupOf([claim(null), apiKeyLookupEventFor(revoked)!.event]), now)).to.deep.equal({
      ok: false,
      reason: 'REVOKED',
    });
  });

  it('given an expiry, the key works until just before it and is expired from that instant on', () => {
    const lookup = lookupOf([claim('2026-04-01T00:00:00.000Z')]);
    expect(apiKeyAccess(lookup, '2026-03-31T23:59:59.999Z')).to.deep.equal({ ok: true, merchantId: 'M0001' });
    expect(apiKeyAccess(lookup, '2026-04-01T00:00:00.000Z')).to.deep.equal({ ok: false, reason: 'EXPIRED' });
  });
});
