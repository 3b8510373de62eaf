/** The shop as the fast API specs find it (docs/testing.md): a merchant's API key, an active campaign, one pool. */
import { apiKeyHash } from '../../application/shop/credentials.js';
import type { ApiKeyClaimed } from '../../domain/shop/events.js';
import type { ShopMerchant } from '../api/support.js';
import { existingStream } from './api-spec.js';
import { activation, campaignCreated, poolCreated } from './shop-events.js';

export const fastShopMerchant: ShopMerchant = { merchantId: 'M1', apiKey: 'pk_test_0123456789abcdef', apiKeyId: 1 };

const keyClaimed: ApiKeyClaimed = {
  type: 'ApiKeyClaimed',
  data: { merchantId: 'M1', apiKeyId: 1, expiresAt: null, claimedAt: '2026-01-01T00:00:00.000Z' },
};

/** The merchant's API key, campaign 1 (active) and its pool 101 of 10 vouchers at 90.000đ. */
export const fastShopScene = [
  existingStream(`apiKey-${apiKeyHash(fastShopMerchant.apiKey)}`, [keyClaimed]),
  existingStream('campaign-1', [campaignCreated(1), ...activation(1, '2026-01-01T00:00:00.000Z')]),
  existingStream('voucherPool-101', [poolCreated(101, 1, { totalQuantity: 10 })]),
];

/** Pool 101, as a reserve line names it. */
export const fastShopPool = { poolId: 101, pricing: poolCreated(101, 1).data.pricing };
