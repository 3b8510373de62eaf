import { expect } from 'chai';
import { fold } from '../../../../domain/shared/decider.js';
import type { PoolTerms, VoucherPoolEvent } from '../../../../domain/shop/events.js';
import {
  voucherPoolDecider,
  type VoucherPool,
  type VoucherPoolChanges,
  type VoucherPoolCommand,
} from '../../../../domain/shop/voucher-pool.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(voucherPoolDecider);
const at = '2025-03-01T03:00:00.000Z';
const later = '2025-03-02T03:00:00.000Z';
const today = '2025-03-01';

const display = {
  title: 'Voucher Phở Thìn 100.000đ',
  shortTitle: 'Phở 100k',
  brandName: 'Phở Thìn',
  logoUrl: 'https://cdn.example.vn/l.png',
  bannerUrl: 'https://cdn.example.vn/b.png',
  thumbnailUrl: 'https://cdn.example.vn/t.png',
  description: 'Một tô phở bò',
};
const terms: PoolTerms = {
  usageType: 'OFFLINE',
  termsAndConditions: 'Dùng tại quán',
  validityDays: 30,
  usageLimit: 6,
  maxPerDay: 4,
  maxPerOrder: 3,
};
const created: VoucherPoolEvent = {
  type: 'VoucherPoolCreated',
  data: {
    poolId: 1,
    campaignId: 7,
    categoryId: 3,
    miniAppIds: ['food'],
    display,
    pricing: { faceValue: 100_000, sellingPrice: 90_000, discountedPrice: null, currency: 'VND' },
    totalQuantity: 10,
    terms,
    validity: null,
    createdAt: at,
  },
};
const update = (changes: VoucherPoolChanges): VoucherPoolCommand => ({
  type: 'UpdateVoucherPool',
  changes,
  now: later,
});
const reserve = (reservationKey: string, quantity: number): VoucherPoolCommand => ({
  type: 'ReserveVoucherStock',
  reservationKey,
  merchantId: 'm1',
  userId: 'u1',
  quantity,
  unitPrice: 90_000,
  currency: 'VND',
  day: today,
  now: at,
});

describe('voucher pool decider: operator updates', () => {
  it('given a pool, when part of its display changes, then the whole display as it now is is recorded', () => {
    given([created])
      .when(update({ display: { title: 'Voucher Phở Thìn 120.000đ', shortTitle: 'Phở 120k' } }))
      .then([
        {
          type: 'VoucherPoolDisplayUpdated',
          data: {
            poolId: 1,
            display: { ...display, title: 'Voucher Phở Thìn 120.000đ', shortTitle: 'Phở 120k' },
            updatedAt: later,
          },
        },
      ]);
  });

  it('given a pool, when terms, category, mini apps and validity change at once, then one event per part', () => {
    const validity = { startAt: '2025-04-01T00:00:00.000Z', endAt: '2025-05-01T00:00:00.000Z' };
    given([created])
      .when(
        update({
          terms: { maxPerDay: null, termsAndConditions: 'Mọi chi nhánh' },
          categoryId: 5,
          miniAppIds: ['food', 'web'],
          validity,
        }),
      )
      .then([
        {
          type: 'VoucherPoolTermsUpdated',
          data: {
            poolId: 1,
            terms: { ...terms, maxPerDay: null, termsAndConditions: 'Mọi chi nhánh' },
            updatedAt: later,
          },
        },
        { type: 'VoucherPoolCategoryChanged', data: { poolId: 1, categoryId: 5, updatedAt: later } },
        { type: 'VoucherPoolMiniAppsChanged', data: { poolId: 1, miniAppIds: ['food', 'web'], updatedAt: later } },
        { type: 'VoucherPoolValidityChanged', data: { poolId: 1, validity, updatedAt: later } },
      ]);
  });

  it('given a pool, when a change names no part, then nothing is appended', () => {
    given([created]).when(update({})).then([]);
  });

  it('given a pool, when changed to what it already has, then nothing is appended (a retried update changes nothing)', () => {
    given([created])
      .when(
        update({
          display: { brandName: 'Phở Thìn' },
          terms: { maxPerDay: 4 },
          categoryId: 3,
          miniAppIds: ['food'],
          validity: null,
        }),
      )
      .then([]);
  });

  // The form of a change (known fields only, their types) is checked by the operator API:
  // tests/unit/api/operator-schemas.test.ts. The decider keeps the pool's rules.
  const refusals: [string, VoucherPoolChanges][] = [
    ['terms.maxPerDay', { terms: { maxPerDay: 0 } }],
    ['terms.validityDays', { terms: { validityDays: 0 } }],
    ['categoryId', { categoryId: -1 }],
    ['validity.endAt', { validity: { startAt: at, endAt: at } }],
  ];
  for (const [field, changes] of refusals) {
    it(`given a pool, when updated with ${JSON.stringify(changes)}, then INVALID_POOL on ${field}`, () => {
      given([created]).when(update(changes)).thenRejects('INVALID_POOL', { field });
    });
  }

  it('given a deleted or missing pool, when updated, then POOL_NOT_FOUND', () => {
    given([created, { type: 'VoucherPoolDeleted', data: { poolId: 1, deletedAt: at } }])
      .when(update({ categoryId: 4 }))
      .thenRejects('POOL_NOT_FOUND');
    given([])
      .when(update({ categoryId: 4 }))
      .thenRejects('POOL_NOT_FOUND');
  });

  it('given updates, when folded, then the pool holds the new display, category, mini apps, validity and terms', () => {
    const validity = { startAt: '2025-04-01T00:00:00.000Z', endAt: '2025-05-01T00:00:00.000Z' };
    const pool = fold(voucherPoolDecider, [
      created,
      {
        type: 'VoucherPoolDisplayUpdated',
        data: { poolId: 1, display: { ...display, title: 'Mới' }, updatedAt: later },
      },
      { type: 'VoucherPoolCategoryChanged', data: { poolId: 1, categoryId: 9, updatedAt: later } },
      { type: 'VoucherPoolMiniAppsChanged', data: { poolId: 1, miniAppIds: [], updatedAt: later } },
      { type: 'VoucherPoolValidityChanged', data: { poolId: 1, validity, updatedAt: later } },
      { type: 'VoucherPoolTermsUpdated', data: { poolId: 1, terms: { ...terms, maxPerOrder: 1 }, updatedAt: later } },
    ]) as VoucherPool;
    expect([pool.display.title, pool.categoryId, pool.miniAppIds, pool.validity, pool.terms.maxPerOrder]).to.deep.equal(
      ['Mới', 9, [], validity, 1],
    );
  });

  it('given maxPerOrder lowered to 1, when a user reserves 2, then the new limit refuses it; stock and holds are untouched by the update', () => {
    const lowered = voucherPoolDecider.decide(
      update({ terms: { maxPerOrder: 1 } }),
      fold(voucherPoolDecider, [created]),
    );
    const pool = fold(voucherPoolDecider, [created, ...lowered]) as VoucherPool;
    expect([pool.remaining, pool.reserved, pool.holds.size]).to.deep.equal([10, 0, 0]);
    given([created, ...lowered])
      .when(reserve('r1', 2))
      .thenRejects('PURCHASE_LIMIT_EXCEEDED', { limit: 'maxPerOrder' });
  });

  it('given a user holding 4 today, when maxPerDay is raised to 6, then the same user may reserve 2 more', () => {
    const history: VoucherPoolEvent[] = [
      created,
      ...voucherPoolDecider.decide(reserve('r1', 3), fold(voucherPoolDecider, [created])),
    ];
    const afterFirst = fold(voucherPoolDecider, history);
    history.push(...voucherPoolDecider.decide(reserve('r2', 1), afterFirst));
    given(history).when(reserve('r3', 2)).thenRejects('PURCHASE_LIMIT_EXCEEDED', { limit: 'maxPerDay' });
    const raised = voucherPoolDecider.decide(update({ terms: { maxPerDay: 6 } }), fold(voucherPoolDecider, history));
    const [event] = voucherPoolDecider.decide(reserve('r3', 2), fold(voucherPoolDecider, [...history, ...raised]));
    expect(event).to.nested.include({ type: 'VoucherStockReserved', 'data.quantity': 2 });
  });
});
