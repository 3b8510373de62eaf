import { expect } from 'chai';
import {
  secureHashMatches,
  secureHashOf,
  stringToSign,
  type SignedWebhook,
} from '../../../../application/orders/secure-hash.js';

/** Vectors computed with openssl (docs/orders-signing.md, "Signing"): printf '%s' "$STRING" | openssl dgst -sha256 -hmac "$KEY". */
const key = 'vector-secret-key-0123456789abcdef';
const source = { created_by: 'u1', platform_code: 'HOSTAPP', miniapp_id: 'car-mini' };
const amounts = { currency: 'VND', total_amount: 10_000_000, grand_total: 9_500_000 };
const created = (order: SignedWebhook['order']): SignedWebhook => ({
  kind: 'CREATED',
  eventTimestamp: 1_767_225_600_000,
  orderId: 'ORD-1',
  source,
  order: { amounts, ...order },
});

const vectors: [string, SignedWebhook, string, string][] = [
  [
    'created with branch_id, business_unit_id and seller_merchant_id',
    created({ branch_id: 'BR-07', business_unit_id: 'BU-01', seller_merchant_id: 'SELLER-9' }),
    'BR-07|BU-01|1767225600000|9500000|car-mini|ORD-1|HOSTAPP|SELLER-9|10000000',
    'bf97b408f664503b83bbdec4c7e9f6c8d7f2e09196fb6a1b51c66dc85b7ba31f',
  ],
  [
    'created without any "only if present" field',
    created({}),
    '1767225600000|9500000|car-mini|ORD-1|HOSTAPP|10000000',
    '91e91140d586231a2665bfca67411d3e9b836516edd4f2ddf6578cfeb45b9c29',
  ],
  [
    'created with seller_merchant_id only (its alphabetical place, after platform_code)',
    created({ seller_merchant_id: 'SELLER-9' }),
    '1767225600000|9500000|car-mini|ORD-1|HOSTAPP|SELLER-9|10000000',
    '02613a01b02435e647c8147ec3665ddbdfa06b7e4daab48dbb4fc3cd1a5e48b0',
  ],
  [
    'created with branch_id only',
    created({ branch_id: 'BR-07' }),
    'BR-07|1767225600000|9500000|car-mini|ORD-1|HOSTAPP|10000000',
    '78b163bc61267de513b11d6d3ef4658a74f8dd1e40386927bcbf86071e51abe7',
  ],
  [
    'created with business_unit_id only',
    created({ business_unit_id: 'BU-01' }),
    'BU-01|1767225600000|9500000|car-mini|ORD-1|HOSTAPP|10000000',
    'c3013c330bb2cee3eb140dde35f1fb5bc0488e5996cd00e4b4d0a5fbb9d8c2cc',
  ],
  [
    'created with branch_id and business_unit_id, without seller_merchant_id',
    created({ branch_id: 'BR-07', business_unit_id: 'BU-01' }),
    'BR-07|BU-01|1767225600000|9500000|car-mini|ORD-1|HOSTAPP|10000000',
    '9c385432541b66c39513b41d9d7b34c3056389070d746b55e5722ce443176442',
  ],
  [
    'created with business_unit_id and seller_merchant_id, without branch_id',
    created({ business_unit_id: 'BU-01', seller_merchant_id: 'SELLER-9' }),
    'BU-01|1767225600000|9500000|car-mini|ORD-1|HOSTAPP|SELLER-9|10000000',
    '74e090e82625d338130628cdc02ab94b726a88bc54b4b9d89920b6be3e0ddd33',
  ],
  [
    'created with branch_id and seller_merchant_id, without business_unit_id',
    created({ branch_id: 'BR-07', seller_merchant_id: 'SELLER-9' }),
    'BR-07|1767225600000|9500000|car-mini|ORD-1|HOSTAPP|SELLER-9|10000000',
    '82bde3606be2b257c79ea57d66eaea487b6f20e42b873a2ce5fb39612dc91589',
  ],
  [
    'created with fractional amounts: their integer parts',
    created({ amounts: { currency: 'VND', total_amount: 10_000_000.75, grand_total: 9_500_000.99 } }),
    '1767225600000|9500000|car-mini|ORD-1|HOSTAPP|10000000',
    '91e91140d586231a2665bfca67411d3e9b836516edd4f2ddf6578cfeb45b9c29',
  ],
  [
    'updated with amounts',
    { kind: 'UPDATED', eventTimestamp: 1_767_225_600_000, orderId: 'ORD-1', order: { amounts, status: 'PAID' } },
    '1767225600000|9500000|ORD-1|10000000',
    '1efc36198c2d20cddb051906cb009e895870eabcdb080fbb2efcd1647d161d7c',
  ],
  [
    'updated without amounts',
    { kind: 'UPDATED', eventTimestamp: 1_767_225_600_000, orderId: 'ORD-1', order: { status: 'PAID' } },
    '1767225600000|ORD-1',
    'c1b81e41826553117504190cba95a965ba78db75faa9e36c48f169976cffe4a4',
  ],
  [
    'updated with amounts but neither grand_total nor total_amount: without amounts',
    { kind: 'UPDATED', eventTimestamp: 1_767_225_600_000, orderId: 'ORD-1', order: { amounts: { paid_amount: 5 } } },
    '1767225600000|ORD-1',
    'c1b81e41826553117504190cba95a965ba78db75faa9e36c48f169976cffe4a4',
  ],
  [
    'cancelled (amounts never enter)',
    { kind: 'CANCELLED', eventTimestamp: 1_767_225_600_000, orderId: 'ORD-1', order: { amounts } },
    '1767225600000|ORD-1',
    'c1b81e41826553117504190cba95a965ba78db75faa9e36c48f169976cffe4a4',
  ],
];

describe('webhook secure_hash (docs/orders-signing.md, "Signing")', () => {
  for (const [what, webhook, string, hash] of vectors) {
    it(`${what}: ${string}`, () => {
      expect(stringToSign(webhook)).to.equal(string);
      expect(secureHashOf(key, webhook)).to.equal(hash);
      expect(secureHashMatches(key, webhook, hash)).to.equal(true);
      expect(secureHashMatches(key, webhook, hash.toUpperCase())).to.equal(true);
      expect(secureHashMatches(`${key}x`, webhook, hash)).to.equal(false);
      expect(secureHashMatches(key, webhook, hash.slice(0, 63))).to.equal(false);
    });
  }
});
