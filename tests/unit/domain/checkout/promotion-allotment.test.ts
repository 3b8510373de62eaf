/** An operator's allotment of a master's promotions, given/when/then (domain/checkout/promotion-allotment.ts). */
import type { PromotionMasterState } from '../../../../domain/checkout/index.js';
import { promotionAllotmentDecider } from '../../../../domain/checkout/promotion-allotment.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(promotionAllotmentDecider);
const now = '2026-03-01T10:00:00.000Z';
const master = (status: 'ACTIVE' | 'PAUSED' | 'ENDED' = 'ACTIVE'): PromotionMasterState => ({
  status,
  promotionMasterId: 7,
  title: 'T',
  shortTitle: 'T',
  promotionType: 'VOUCHER',
  codeType: 'UNIQUE',
  discount: { type: 'FIXED', amount: 10_000 },
  minOrderValue: 0,
  scope: { type: 'PLATFORM' },
  categories: null,
  validFrom: '2026-03-01T00:00:00.000Z',
  validUntil: '2026-04-01T00:00:00.000Z',
  perUserLimit: null,
  totalQuota: null,
  pinRequired: false,
  logoUrl: null,
  bannerUrl: null,
  createdAt: now,
  updatedAt: now,
});
const allotments = [{ promotionId: 1, userId: 'u1', encryptedCode: 'k1.x', encryptedPin: null }];
const allot = (m = master(), at = now, list = allotments) => ({
  type: 'AllotPromotions' as const,
  allotmentId: 'a1',
  master: m,
  allotments: list,
  now: at,
});
const allotted = {
  type: 'PromotionsAllotted' as const,
  data: { allotmentId: 'a1', promotionMasterId: 7, allotments, allottedAt: now },
};

describe('promotion allotment decider', () => {
  it('allots from an ACTIVE master inside its validity', () => given([]).when(allot()).then([allotted]));
  it('the same allotment again is a no-op', () => given([allotted]).when(allot()).then([]));
  it('refuses a paused or ended master, one past its validity, no recipient, no master', () => {
    given([])
      .when(allot(master('PAUSED')))
      .thenRejects('INVALID_PROMOTION_MASTER', { field: 'promotion_master_id' });
    given([])
      .when(allot(master('ENDED')))
      .thenRejects('INVALID_PROMOTION_MASTER');
    given([]).when(allot(master(), '2026-04-01T00:00:00.000Z')).thenRejects('INVALID_PROMOTION_MASTER');
    given([])
      .when(allot(master(), now, []))
      .thenRejects('INVALID_PROMOTION_MASTER', { field: 'recipients' });
    given([])
      .when(allot({ status: 'NONE' }))
      .thenRejects('PROMOTION_MASTER_NOT_FOUND');
  });
});
