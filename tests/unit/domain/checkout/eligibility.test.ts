/** Eligibility of a wallet promotion for orders, as a table (domain/checkout/eligibility.ts). */
import { expect } from 'chai';
import type { CheckoutOrder } from '../../../../domain/checkout/discount.js';
import {
  eligibility,
  ineligibilityError,
  type Ineligibility,
  type MasterRules,
  type WalletPromotion,
} from '../../../../domain/checkout/eligibility.js';

const now = '2026-06-01T10:00:00.000Z';
const master: MasterRules = {
  title: 'T',
  shortTitle: 'T',
  promotionType: 'VOUCHER',
  codeType: 'UNIQUE',
  discount: { type: 'FIXED', amount: 20_000 },
  minOrderValue: 100_000,
  scope: { type: 'PLATFORM' },
  categories: null,
  validFrom: '2026-01-01T00:00:00.000Z',
  validUntil: '2027-01-01T00:00:00.000Z',
  perUserLimit: 1,
  totalQuota: 10,
  pinRequired: false,
  logoUrl: null,
  bannerUrl: null,
  status: 'ACTIVE',
};
const promotion: WalletPromotion = {
  promotionId: 42,
  status: 'ISSUED',
  validFrom: '2026-05-01T00:00:00.000Z',
  validUntil: '2026-07-01T00:00:00.000Z',
};
const orders: CheckoutOrder[] = [
  { merchantId: 'M1', subtotal: 150_000, items: [{ itemId: 'a', quantity: 1, unitPrice: 150_000, categories: [] }] },
];

const cases: [
  string,
  Partial<WalletPromotion>,
  Partial<MasterRules>,
  { total: number; byUser: number },
  Ineligibility | number,
][] = [
  ['eligible: the fixed amount', {}, {}, { total: 0, byUser: 0 }, 20_000],
  ['held by a checkout', { status: 'RESERVED' }, {}, { total: 0, byUser: 0 }, 'RESERVED'],
  ['marked expired', { status: 'EXPIRED' }, {}, { total: 0, byUser: 0 }, 'EXPIRED'],
  ['past validity, timer not fired yet', { validUntil: now }, {}, { total: 0, byUser: 0 }, 'EXPIRED'],
  ['used', { status: 'USED' }, {}, { total: 0, byUser: 0 }, 'NOT_ISSUED'],
  ['cancelled', { status: 'CANCELLED' }, {}, { total: 0, byUser: 0 }, 'NOT_ISSUED'],
  ['not valid yet', { validFrom: '2026-06-02T00:00:00.000Z' }, {}, { total: 0, byUser: 0 }, 'NOT_YET_VALID'],
  ['master paused', {}, { status: 'PAUSED' }, { total: 0, byUser: 0 }, 'NOT_ACTIVE'],
  ['SHARED', {}, { codeType: 'SHARED' }, { total: 0, byUser: 0 }, 'SHARED_NOT_SUPPORTED'],
  ['quota taken', {}, {}, { total: 10, byUser: 0 }, 'QUOTA_EXHAUSTED'],
  ['user limit taken', {}, {}, { total: 3, byUser: 1 }, 'USAGE_LIMIT_REACHED'],
  ['minimum not met', {}, { minOrderValue: 150_001 }, { total: 0, byUser: 0 }, 'MIN_ORDER_NOT_MET'],
  [
    'another merchant',
    {},
    { scope: { type: 'MERCHANT', merchantId: 'M2' } },
    { total: 0, byUser: 0 },
    'SCOPE_MISMATCH',
  ],
  ['no item of the category', {}, { categories: ['food'] }, { total: 0, byUser: 0 }, 'NO_ITEM_IN_CATEGORY'],
];

describe('eligibility of a wallet promotion', () => {
  for (const [name, p, m, usage, expected] of cases)
    it(name, () => {
      const verdict = eligibility({ ...promotion, ...p }, { ...master, ...m }, orders, now, usage);
      if (typeof expected === 'number') expect(verdict).to.deep.equal({ eligible: true, amount: expected });
      else expect(verdict).to.deep.equal({ eligible: false, reason: expected });
    });

  it('each reason has its refusal code', () => {
    const codes = (
      [
        ['RESERVED', 'PROMOTION_ALREADY_RESERVED'],
        ['EXPIRED', 'PROMOTION_EXPIRED'],
        ['MIN_ORDER_NOT_MET', 'ORDER_MINIMUM_NOT_MET'],
        ['SHARED_NOT_SUPPORTED', 'SHARED_NOT_SUPPORTED'],
        ['QUOTA_EXHAUSTED', 'QUOTA_EXHAUSTED'],
        ['USAGE_LIMIT_REACHED', 'USAGE_LIMIT_REACHED'],
        ['SCOPE_MISMATCH', 'PROMOTION_NOT_APPLICABLE'],
        ['NOT_ACTIVE', 'PROMOTION_NOT_APPLICABLE'],
      ] as const
    ).map(([reason, code]) => [ineligibilityError(reason, 42).code, code]);
    for (const [got, want] of codes) expect(got).to.equal(want);
  });
});
