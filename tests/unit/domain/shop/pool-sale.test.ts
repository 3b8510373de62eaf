/**
 * On sale (docs/shop-purchase.md, "On sale"): a pool sells only while its campaign is ACTIVE, of type SELL and inside
 * its window; it keeps the terms of the newest campaign revision it was given; a reservation made before a pause is
 * still committed.
 */
import { expect } from 'chai';
import type { VoucherPoolEvent } from '../../../../domain/shop/events.js';
import { campaignPoolsDecider, notOnSale, type PoolSale } from '../../../../domain/shop/pool-sale.js';
import { voucherPoolDecider, type VoucherPoolCommand } from '../../../../domain/shop/voucher-pool.js';
import { scenario } from '../../../support/decider-spec.js';
import { poolCreated } from '../../../support/shop-events.js';

const given = scenario(voucherPoolDecider);
const at = '2026-03-10T03:00:00.000Z';

const onSale: PoolSale = {
  campaignRevision: 2,
  status: 'ACTIVE',
  type: 'SELL',
  startAt: '2026-03-01T00:00:00.000Z',
  endAt: '2026-04-01T00:00:00.000Z',
};

/** Pool 1 of campaign 7 (10 vouchers at 90.000đ), with the campaign's terms when given. */
const created = (sale?: PoolSale): VoucherPoolEvent => {
  const pool = poolCreated(1, 7);
  return { ...pool, data: { ...pool.data, ...(sale ? { sale } : {}) } };
};
const saleChanged = (sale: PoolSale): VoucherPoolEvent => ({
  type: 'VoucherPoolSaleChanged',
  data: { poolId: 1, sale, changedAt: at },
});
const reserve = (now = at): VoucherPoolCommand => ({
  type: 'ReserveVoucherStock',
  reservationKey: 'r1',
  merchantId: 'm1',
  userId: 'u1',
  quantity: 1,
  unitPrice: 90_000,
  currency: 'VND',
  day: now.slice(0, 10),
  now,
});
const reservedR1: VoucherPoolEvent = {
  type: 'VoucherStockReserved',
  data: {
    poolId: 1,
    reservationKey: 'r1',
    merchantId: 'm1',
    userId: 'u1',
    quantity: 1,
    unitPrice: 90_000,
    day: at.slice(0, 10),
    reservedAt: at,
  },
};

describe('voucher pool: on sale', () => {
  it('given a pool created with its campaign ACTIVE and inside the window, when reserved, then it sells', () => {
    given([created(onSale)])
      .when(reserve())
      .then([reservedR1]);
  });

  for (const [why, sale, now] of [
    ['its campaign is DRAFT', { ...onSale, status: 'DRAFT' }, at],
    ['its campaign is APPROVED, not yet ACTIVE', { ...onSale, status: 'APPROVED' }, at],
    ['its campaign is PAUSED', { ...onSale, status: 'PAUSED' }, at],
    ['its campaign is ENDED', { ...onSale, status: 'ENDED' }, at],
    ['its campaign is not of type SELL', { ...onSale, type: 'GIFT' }, at],
    ['its sale has not started (a presale shows it)', onSale, '2026-02-28T23:59:59.999Z'],
    ['its sale ended at endAt', onSale, '2026-04-01T00:00:00.000Z'],
  ] as const) {
    it(`refuses a reserve as POOL_NOT_FOUND (the detail's 404) when ${why}`, () => {
      given([created(sale as PoolSale)])
        .when(reserve(now))
        .thenRejects('POOL_NOT_FOUND', { poolId: 1 });
    });
  }

  it('given a pool from before the rule (no terms), when reserved, then it sells as before', () => {
    given([created()]).when(reserve()).then([reservedR1]);
  });

  it('given its campaign paused after a reserve, when the reservation is committed, then it is sold all the same', () => {
    given([created(onSale), reservedR1, saleChanged({ ...onSale, campaignRevision: 3, status: 'PAUSED' })])
      .when({ type: 'SellVoucherStock', reservationKey: 'r1', now: at })
      .then([{ type: 'VoucherStockSold', data: { poolId: 1, reservationKey: 'r1', quantity: 1, soldAt: at } }]);
  });

  it('given the campaign paused, when reserved, then refused; resumed later, then it sells again', () => {
    const paused = { ...onSale, campaignRevision: 3, status: 'PAUSED' } as const;
    given([created(onSale), saleChanged(paused)])
      .when(reserve())
      .thenRejects('POOL_NOT_FOUND');
    given([created(onSale), saleChanged(paused), saleChanged({ ...onSale, campaignRevision: 4 })])
      .when(reserve())
      .then([reservedR1]);
  });

  describe('copying the terms', () => {
    const paused: PoolSale = { ...onSale, campaignRevision: 3, status: 'PAUSED' };
    it('takes the terms of a newer campaign revision, even when they read the same', () => {
      given([created(onSale)])
        .when({ type: 'SyncVoucherPoolSale', sale: paused, now: at })
        .then([saleChanged(paused)]);
      given([created(onSale)])
        .when({ type: 'SyncVoucherPoolSale', sale: { ...onSale, campaignRevision: 5 }, now: at })
        .then([saleChanged({ ...onSale, campaignRevision: 5 })]);
    });
    it('ignores the terms of the same or an older revision (a late copy never undoes a newer one)', () => {
      given([created(onSale), saleChanged(paused)])
        .when({ type: 'SyncVoucherPoolSale', sale: { ...onSale, campaignRevision: 2 }, now: at })
        .then([]);
      given([created(onSale), saleChanged(paused)])
        .when({ type: 'SyncVoucherPoolSale', sale: paused, now: at })
        .then([]);
    });
    it('gives terms to a pool from before the rule, and nothing to a deleted or missing pool', () => {
      given([created()])
        .when({ type: 'SyncVoucherPoolSale', sale: paused, now: at })
        .then([saleChanged(paused)]);
      given([created(onSale), { type: 'VoucherPoolDeleted', data: { poolId: 1, deletedAt: at } }])
        .when({ type: 'SyncVoucherPoolSale', sale: paused, now: at })
        .then([]);
      given([]).when({ type: 'SyncVoucherPoolSale', sale: paused, now: at }).then([]);
    });
  });

  it('notOnSale names the reason', () => {
    expect(notOnSale(onSale, at)).to.equal(undefined);
    expect(notOnSale({ ...onSale, status: 'PAUSED' }, at)).to.equal('its campaign is PAUSED');
    expect(notOnSale(onSale, '2026-02-01T00:00:00.000Z')).to.equal('its sale starts at 2026-03-01T00:00:00.000Z');
  });
});

describe('campaign pools index', () => {
  const givenIndex = scenario(campaignPoolsDecider);
  const listed = (poolId: number) => ({
    type: 'CampaignPoolListed' as const,
    data: { campaignId: 7, poolId, listedAt: at },
  });
  it('lists a pool once', () => {
    givenIndex([])
      .when({ type: 'ListCampaignPool', campaignId: 7, poolId: 1, now: at })
      .then([listed(1)]);
    givenIndex([listed(1)])
      .when({ type: 'ListCampaignPool', campaignId: 7, poolId: 1, now: at })
      .then([]);
    givenIndex([listed(1)])
      .when({ type: 'ListCampaignPool', campaignId: 7, poolId: 2, now: at })
      .then([listed(2)]);
  });
});
