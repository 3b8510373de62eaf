import {
  promotionMasterDecider,
  type PromotionMasterCreated,
  type PromotionMasterDefinition,
} from '../../../../domain/checkout/index.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(promotionMasterDecider);
const now = '2026-03-01T10:00:00.000Z';

const definition: PromotionMasterDefinition = {
  title: 'Giảm 10% đơn từ 100k',
  shortTitle: 'Giảm 10%',
  promotionType: 'VOUCHER',
  codeType: 'UNIQUE',
  discount: { type: 'PERCENTAGE', percentage: 10, maxDiscount: 50_000 },
  minOrderValue: 100_000,
  scope: { type: 'MERCHANT', merchantId: 'M001' },
  categories: ['food'],
  validFrom: '2026-03-01T00:00:00.000Z',
  validUntil: '2026-04-01T00:00:00.000Z',
  perUserLimit: 1,
  totalQuota: 1000,
  pinRequired: false,
  logoUrl: null,
  bannerUrl: 'https://cdn.example.com/banner.png',
};

const create = (changes: Partial<PromotionMasterDefinition> = {}) => ({
  type: 'CreatePromotionMaster' as const,
  promotionMasterId: 7,
  definition: { ...definition, ...changes },
  now,
});

const created: PromotionMasterCreated = {
  type: 'PromotionMasterCreated',
  data: { ...definition, promotionMasterId: 7, status: 'ACTIVE', createdAt: now },
};

describe('promotion master decider', () => {
  it('creates an ACTIVE promotion master from its definition, at now', () => given([]).when(create()).then([created]));

  it('creates one without limits, for the whole order, with a fixed discount', () => {
    const open = create({ discount: { type: 'FIXED', amount: 20_000 }, categories: null, perUserLimit: null });
    given([])
      .when(open)
      .then([
        {
          type: 'PromotionMasterCreated',
          data: { ...open.definition, promotionMasterId: 7, status: 'ACTIVE', createdAt: now },
        },
      ]);
  });

  it('refuses an id already used (a sequence that handed it out twice)', () =>
    given([created]).when(create()).thenRejects('PROMOTION_MASTER_EXISTS'));

  it('refuses valid_until not after valid_from, naming the field', () =>
    given([])
      .when(create({ validUntil: definition.validFrom }))
      .thenRejects('INVALID_PROMOTION_MASTER', { field: 'valid_until' }));

  it('refuses a per-user limit above the total quota', () =>
    given([])
      .when(create({ perUserLimit: 5, totalQuota: 4 }))
      .thenRejects('INVALID_PROMOTION_MASTER', { field: 'per_user_limit' }));

  it('refuses an empty category list (null means the whole order)', () =>
    given([])
      .when(create({ categories: [] }))
      .thenRejects('INVALID_PROMOTION_MASTER', { field: 'categories' }));
});

describe('promotion master decider: status', () => {
  const status = (value: 'ACTIVE' | 'PAUSED' | 'ENDED', at = now) => ({
    type: 'ChangePromotionMasterStatus' as const,
    status: value,
    now: at,
  });
  const changed = (value: 'ACTIVE' | 'PAUSED' | 'ENDED') => ({
    type: 'PromotionMasterStatusChanged' as const,
    data: { promotionMasterId: 7, status: value, changedAt: now },
  });
  it('pauses, resumes and ends; the same status again is a no-op; ENDED is final', () => {
    given([created])
      .when(status('PAUSED'))
      .then([changed('PAUSED')]);
    given([created, changed('PAUSED')])
      .when(status('ACTIVE'))
      .then([changed('ACTIVE')]);
    given([created]).when(status('ACTIVE')).then([]);
    given([created, changed('ENDED')])
      .when(status('ACTIVE'))
      .thenRejects('INVALID_PROMOTION_MASTER', { field: 'status' });
    given([]).when(status('PAUSED')).thenRejects('PROMOTION_MASTER_NOT_FOUND');
  });
});
