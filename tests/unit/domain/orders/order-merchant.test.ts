import { expect } from 'chai';
import type { OrderMerchantEvent } from '../../../../domain/orders/events.js';
import {
  evolveOrderApiKeyLookup,
  orderApiKeyAccess,
  orderApiKeyEventFor,
  orderMerchantDecider,
  type NewOrderKey,
} from '../../../../domain/orders/order-merchant.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(orderMerchantDecider);
const now = '2026-03-01T10:00:00.000Z';
const key = (keyId: number, environment: 'live' | 'test' = 'test'): NewOrderKey => ({
  keyId,
  environment,
  prefix: `ak_${environment}_abc${keyId}`,
  keyDigest: `d${keyId}`,
  secretCiphertext: `c${keyId}`,
});
const registered: OrderMerchantEvent = {
  type: 'OrderMerchantRegistered',
  data: { merchantId: 'P001', name: 'Ô tô', registeredAt: now },
};
const issued = (keyId: number, rotatedFrom: number | null = null): OrderMerchantEvent => ({
  type: 'OrderKeyIssued',
  data: { merchantId: 'P001', ...key(keyId), rotatedFrom, issuedAt: now },
});

describe('order merchant decider (docs/orders-keys.md, "Merchant keys")', () => {
  it('registers a merchant once', () => {
    given([]).when({ type: 'RegisterOrderMerchant', merchantId: 'P001', name: 'Ô tô', now }).then([registered]);
    given([registered])
      .when({ type: 'RegisterOrderMerchant', merchantId: 'P001', name: 'x', now })
      .thenRejects('ORDER_MERCHANT_EXISTS');
  });

  it('issues a key to a known merchant only', () => {
    given([])
      .when({ type: 'IssueOrderKey', merchantId: 'P001', key: key(1), now })
      .thenRejects('ORDER_MERCHANT_NOT_FOUND');
    given([registered])
      .when({ type: 'IssueOrderKey', merchantId: 'P001', key: key(1), now })
      .then([issued(1)]);
  });

  it('refuses a second active key of one environment, allows one per environment', () => {
    given([registered, issued(1)])
      .when({ type: 'IssueOrderKey', merchantId: 'P001', key: key(2), now })
      .thenRejects('ORDER_KEY_ACTIVE_EXISTS', { keyId: 1 });
    given([registered, issued(1)])
      .when({ type: 'IssueOrderKey', merchantId: 'P001', key: key(2, 'live'), now })
      .then([
        { type: 'OrderKeyIssued', data: { merchantId: 'P001', ...key(2, 'live'), rotatedFrom: null, issuedAt: now } },
      ]);
  });

  it('rotates: the successor is issued and the old key retires at the end of the overlap', () => {
    given([registered, issued(1)])
      .when({ type: 'RotateOrderKey', merchantId: 'P001', keyId: 1, key: key(2), overlapMs: 3_600_000, now })
      .then([
        issued(2, 1),
        {
          type: 'OrderKeyRetiring',
          data: {
            merchantId: 'P001',
            keyId: 1,
            keyDigest: 'd1',
            retiresAt: '2026-03-01T11:00:00.000Z',
            rotatedAt: now,
          },
        },
      ]);
  });

  it('rotates only an active key', () => {
    const retiring: OrderMerchantEvent = {
      type: 'OrderKeyRetiring',
      data: { merchantId: 'P001', keyId: 1, keyDigest: 'd1', retiresAt: now, rotatedAt: now },
    };
    given([registered, issued(1), retiring])
      .when({ type: 'RotateOrderKey', merchantId: 'P001', keyId: 1, key: key(3), overlapMs: 1, now })
      .thenRejects('ORDER_KEY_NOT_ACTIVE');
    given([registered])
      .when({ type: 'RotateOrderKey', merchantId: 'P001', keyId: 9, key: key(3), overlapMs: 1, now })
      .thenRejects('ORDER_KEY_NOT_FOUND');
  });

  it('revokes once; revoking again changes nothing', () => {
    const revoked: OrderMerchantEvent = {
      type: 'OrderKeyRevoked',
      data: { merchantId: 'P001', keyId: 1, keyDigest: 'd1', revokedAt: now },
    };
    given([registered, issued(1)])
      .when({ type: 'RevokeOrderKey', merchantId: 'P001', keyId: 1, now })
      .then([revoked]);
    given([registered, issued(1), revoked])
      .when({ type: 'RevokeOrderKey', merchantId: 'P001', keyId: 1, now })
      .then([]);
  });

  it('a key lookup: known, then retired after its overlap, revoked at once, of its environment only', () => {
    const lookup = [issued(1)].map((e) => orderApiKeyEventFor(e)!.event).reduce(evolveOrderApiKeyLookup, null);
    expect(orderApiKeyAccess(lookup, now, 'test')).to.deep.equal({
      ok: true,
      merchantId: 'P001',
      keyId: 1,
      secretCiphertext: 'c1',
    });
    expect(orderApiKeyAccess(lookup, now, 'live')).to.deep.equal({ ok: false, reason: 'WRONG_ENVIRONMENT' });
    expect(orderApiKeyAccess(null, now, 'test')).to.deep.equal({ ok: false, reason: 'UNKNOWN' });
    const retiring = evolveOrderApiKeyLookup(lookup, {
      type: 'OrderApiKeyRetiring',
      data: { keyId: 1, retiresAt: '2026-03-01T11:00:00.000Z' },
    });
    expect(orderApiKeyAccess(retiring, '2026-03-01T10:59:59.999Z', 'test').ok).to.equal(true);
    expect(orderApiKeyAccess(retiring, '2026-03-01T11:00:00.000Z', 'test')).to.deep.equal({
      ok: false,
      reason: 'RETIRED',
    });
    const revoked = evolveOrderApiKeyLookup(lookup, { type: 'OrderApiKeyRevoked', data: { keyId: 1, revokedAt: now } });
    expect(orderApiKeyAccess(revoked, now, 'test')).to.deep.equal({ ok: false, reason: 'REVOKED' });
  });
});
