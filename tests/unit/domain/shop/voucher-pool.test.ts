import { expect } from 'chai';
import { fold } from '../../../../domain/shared/decider.js';
import type { PoolPricing, VoucherPoolEvent } from '../../../../domain/shop/events.js';
import type { PoolDefinition } from '../../../../domain/shop/pool-definition.js';
import {
  buyerUsage,
  voucherPoolDecider,
  type VoucherPool,
  type VoucherPoolCommand,
} from '../../../../domain/shop/voucher-pool.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(voucherPoolDecider);
const at = '2025-03-01T03:00:00.000Z';
const today = '2025-03-01';
const tomorrow = '2025-03-02';

const pricing: PoolPricing = { faceValue: 100_000, sellingPrice: 90_000, discountedPrice: null, currency: 'VND' };
const definition: PoolDefinition = {
  campaignId: 7,
  categoryId: 3,
  miniAppIds: ['app-1'],
  display: {
    title: 'Coffee 100k',
    shortTitle: 'Coffee',
    brandName: 'Brew',
    logoUrl: 'l',
    bannerUrl: 'b',
    thumbnailUrl: 't',
    description: 'd',
  },
  pricing,
  totalQuantity: 10,
  terms: {
    usageType: 'ONLINE',
    termsAndConditions: 'none',
    validityDays: 30,
    usageLimit: 6,
    maxPerDay: 4,
    maxPerOrder: 3,
  },
  validity: null,
};

const created = (overrides: Partial<PoolDefinition> = {}): VoucherPoolEvent => ({
  type: 'VoucherPoolCreated',
  data: { poolId: 1, ...definition, ...overrides, createdAt: at },
});

const reserve = (
  overrides: Partial<Extract<VoucherPoolCommand, { type: 'ReserveVoucherStock' }>> = {},
): VoucherPoolCommand => ({
  type: 'ReserveVoucherStock',
  reservationKey: 'r1',
  merchantId: 'm1',
  userId: 'u1',
  quantity: 2,
  unitPrice: 90_000,
  currency: 'VND',
  day: today,
  now: at,
  ...overrides,
});

const reserved = (
  reservationKey: string,
  quantity: number,
  opts: { userId?: string; merchantId?: string; day?: string } = {},
): VoucherPoolEvent => ({
  type: 'VoucherStockReserved',
  data: {
    poolId: 1,
    reservationKey,
    merchantId: opts.merchantId ?? 'm1',
    userId: opts.userId ?? 'u1',
    quantity,
    unitPrice: 90_000,
    day: opts.day ?? today,
    reservedAt: at,
  },
});

const released = (
  reservationKey: string,
  quantity: number,
  opts: { userId?: string; day?: string } = {},
): VoucherPoolEvent => ({
  type: 'VoucherStockReleased',
  data: {
    poolId: 1,
    reservationKey,
    merchantId: 'm1',
    userId: opts.userId ?? 'u1',
    quantity,
    day: opts.day ?? today,
    reason: 'RELEASED',
    releasedAt: at,
  },
});

const sold = (reservationKey: string, quantity: number): VoucherPoolEvent => ({
  type: 'VoucherStockSold',
  data: { poolId: 1, reservationKey, quantity, soldAt: at },
});

const deleted: VoucherPoolEvent = { type: 'VoucherPoolDeleted', data: { poolId: 1, deletedAt: at } };

describe('voucher pool decider', () => {
  describe('create', () => {
    it('creates a valid pool', () => {
      given([])
        .when({ type: 'CreateVoucherPool', poolId: 1, now: at, ...definition })
        .then([created()]);
    });

    it('refuses a pool id already used', () => {
      given([created()])
        .when({ type: 'CreateVoucherPool', poolId: 1, now: at, ...definition })
        .thenRejects('INVALID_POOL', { field: 'poolId' });
    });

    const invalid: [string, Partial<PoolDefinition>][] = [
      ['pricing.faceValue', { pricing: { ...pricing, faceValue: -1 } }],
      ['pricing.sellingPrice', { pricing: { ...pricing, sellingPrice: 1.5 } }],
      ['pricing.sellingPrice', { pricing: { ...pricing, sellingPrice: 100_001 } }],
      ['pricing.discountedPrice', { pricing: { ...pricing, discountedPrice: 90_001 } }],
      // Below the selling price too: the buyer pays the selling price, so no lower price is advertised.
      ['pricing.discountedPrice', { pricing: { ...pricing, discountedPrice: 89_999 } }],
      ['pricing.currency', { pricing: { ...pricing, currency: 'USD' as never } }],
      ['totalQuantity', { totalQuantity: -1 }],
      ['totalQuantity', { totalQuantity: 2.5 }],
      ['terms.usageLimit', { terms: { ...definition.terms, usageLimit: 0 } }],
      ['terms.maxPerDay', { terms: { ...definition.terms, maxPerDay: 0 } }],
      ['terms.maxPerOrder', { terms: { ...definition.terms, maxPerOrder: -3 } }],
      ['terms.validityDays', { terms: { ...definition.terms, validityDays: 0 } }],
      ['terms.usageType', { terms: { ...definition.terms, usageType: 'BOTH' as never } }],
      ['validity.endAt', { validity: { startAt: at, endAt: at } }],
      ['campaignId', { campaignId: 0 }],
      ['display.title', { display: { ...definition.display, title: 5 as never } }],
    ];
    for (const [field, overrides] of invalid) {
      it(`refuses an invalid ${field}`, () => {
        given([])
          .when({ type: 'CreateVoucherPool', poolId: 1, now: at, ...definition, ...overrides })
          .thenRejects('INVALID_POOL', { field });
      });
    }

    it('refuses missing or null pricing and terms on their first field', () => {
      for (const [overrides, field] of [
        [{ pricing: undefined }, 'pricing.faceValue'],
        [{ pricing: null }, 'pricing.faceValue'],
        [{ terms: undefined }, 'terms.usageType'],
        [{ terms: null }, 'terms.usageType'],
      ] as [Partial<PoolDefinition>, string][]) {
        given([])
          .when({ type: 'CreateVoucherPool', poolId: 1, now: at, ...definition, ...overrides })
          .thenRejects('INVALID_POOL', { field });
      }
      given([created()])
        .when({ type: 'RepriceVoucherPool', pricing: null as never, now: at })
        .thenRejects('INVALID_POOL', { field: 'pricing.faceValue' });
    });

    it('accepts null limits, a zero stock and a discounted price equal to the selling price', () => {
      const terms = { ...definition.terms, usageLimit: null, maxPerDay: null, maxPerOrder: null };
      const overrides = { terms, totalQuantity: 0, pricing: { ...pricing, discountedPrice: 90_000 } };
      given([])
        .when({ type: 'CreateVoucherPool', poolId: 1, now: at, ...definition, ...overrides })
        .then([created(overrides)]);
    });
  });

  describe('add stock, reprice, delete', () => {
    it('adds stock to total and remaining', () => {
      given([created()])
        .when({ type: 'AddVoucherStock', quantity: 5, now: at })
        .then([{ type: 'VoucherPoolStockAdded', data: { poolId: 1, quantity: 5, addedAt: at } }]);
      const pool = fold(voucherPoolDecider, [
        created(),
        { type: 'VoucherPoolStockAdded', data: { poolId: 1, quantity: 5, addedAt: at } },
      ]) as VoucherPool;
      expect([pool.totalQuantity, pool.remaining]).to.deep.equal([15, 15]);
    });

    it('refuses a stock addition that is not a positive integer', () => {
      given([created()])
        .when({ type: 'AddVoucherStock', quantity: 0, now: at })
        .thenRejects('INVALID_POOL', { field: 'quantity' });
    });

    it('reprices with a valid pricing and refuses an invalid one', () => {
      const next = { ...pricing, sellingPrice: 80_000 };
      given([created()])
        .when({ type: 'RepriceVoucherPool', pricing: next, now: at })
        .then([{ type: 'VoucherPoolRepriced', data: { poolId: 1, pricing: next, repricedAt: at } }]);
      given([created()])
        .when({ type: 'RepriceVoucherPool', pricing: { ...pricing, sellingPrice: 200_000 }, now: at })
        .thenRejects('INVALID_POOL', { field: 'pricing.sellingPrice' });
    });

    it('soft deletes a pool once', () => {
      given([created()]).when({ type: 'DeleteVoucherPool', now: at }).then([deleted]);
      given([created(), deleted]).when({ type: 'DeleteVoucherPool', now: at }).thenRejects('POOL_NOT_FOUND');
    });

    for (const command of [
      { type: 'AddVoucherStock', quantity: 1, at },
      { type: 'RepriceVoucherPool', pricing, at },
      { type: 'DeleteVoucherPool', now: at },
    ] as VoucherPoolCommand[]) {
      it(`refuses ${command.type} on a missing or deleted pool`, () => {
        given([]).when(command).thenRejects('POOL_NOT_FOUND');
        given([created(), deleted]).when(command).thenRejects('POOL_NOT_FOUND');
      });
    }
  });

  describe('reserve', () => {
    it('holds stock for the reservation', () => {
      given([created()])
        .when(reserve())
        .then([reserved('r1', 2)]);
      const pool = fold(voucherPoolDecider, [created(), reserved('r1', 2)]) as VoucherPool;
      expect([pool.remaining, pool.reserved, pool.sold]).to.deep.equal([8, 2, 0]);
      expect(pool.holds.get('r1')).to.deep.equal({ merchantId: 'm1', userId: 'u1', quantity: 2, day: today });
    });

    it('refuses a missing or deleted pool', () => {
      given([]).when(reserve()).thenRejects('POOL_NOT_FOUND');
      given([created(), deleted]).when(reserve()).thenRejects('POOL_NOT_FOUND');
    });

    it('refuses a unit price other than the current selling price', () => {
      given([created()])
        .when(reserve({ unitPrice: 100_000 }))
        .thenRejects('PRICE_MISMATCH', { poolId: 1, sellingPrice: 90_000 });
      const repriced: VoucherPoolEvent = {
        type: 'VoucherPoolRepriced',
        data: { poolId: 1, pricing: { ...pricing, sellingPrice: 80_000 }, repricedAt: at },
      };
      given([created(), repriced]).when(reserve()).thenRejects('PRICE_MISMATCH');
      given([created(), repriced])
        .when(reserve({ unitPrice: 80_000 }))
        .then([{ ...reserved('r1', 2), data: { ...reserved('r1', 2).data, unitPrice: 80_000 } } as VoucherPoolEvent]);
    });

    it("refuses a currency other than the pool's", () => {
      given([created()])
        .when(reserve({ currency: 'VPOINT' }))
        .thenRejects('CURRENCY_MISMATCH', { poolCurrency: 'VND' });
    });

    it('refuses more than the remaining stock', () => {
      const stocked = created({
        totalQuantity: 3,
        terms: { ...definition.terms, maxPerOrder: null, maxPerDay: null, usageLimit: null },
      });
      given([stocked, reserved('r0', 2, { userId: 'u2' })])
        .when(reserve({ quantity: 2 }))
        .thenRejects('OUT_OF_STOCK', { remaining: 1 });
      given([stocked, reserved('r0', 2, { userId: 'u2' })])
        .when(reserve({ quantity: 1 }))
        .then([reserved('r1', 1)]);
    });

    it('refuses a stock check after an early release only if the stock is really gone', () => {
      const stocked = created({ totalQuantity: 2 });
      given([stocked, reserved('r0', 2, { userId: 'u2' }), released('r0', 2, { userId: 'u2' })])
        .when(reserve())
        .then([reserved('r1', 2)]);
      given([stocked, reserved('r0', 2, { userId: 'u2' }), sold('r0', 2)])
        .when(reserve())
        .thenRejects('OUT_OF_STOCK');
    });

    it('refuses more than maxPerOrder in one reservation', () => {
      given([created()])
        .when(reserve({ quantity: 4 }))
        .thenRejects('PURCHASE_LIMIT_EXCEEDED', { limit: 'maxPerOrder' });
    });

    it('counts reserved and sold vouchers of the day against maxPerDay', () => {
      const history = [created(), reserved('r0', 2), sold('r0', 2), reserved('r2', 1)];
      given(history)
        .when(reserve({ quantity: 2 }))
        .thenRejects('PURCHASE_LIMIT_EXCEEDED', { limit: 'maxPerDay', allowed: 1 });
      given(history)
        .when(reserve({ quantity: 1 }))
        .then([reserved('r1', 1)]);
    });

    it('starts a new daily count on the next day', () => {
      given([created(), reserved('r0', 3)])
        .when(reserve({ quantity: 3, day: tomorrow }))
        .then([reserved('r1', 3, { day: tomorrow })]);
    });

    it('counts every day against the total usageLimit', () => {
      const history = [created(), reserved('r0', 3, { day: '2025-02-27' }), reserved('r2', 2, { day: '2025-02-28' })];
      given(history)
        .when(reserve({ quantity: 2 }))
        .thenRejects('PURCHASE_LIMIT_EXCEEDED', { limit: 'usageLimit', allowed: 1 });
    });

    it('gives the quota back when a reservation is released', () => {
      const history = [created(), reserved('r0', 3), reserved('r2', 1), released('r0', 3)];
      given(history)
        .when(reserve({ quantity: 3 }))
        .then([reserved('r1', 3)]);
    });

    it('gives back only the total when an earlier day is released', () => {
      const history = [
        created(),
        reserved('r0', 2, { day: '2025-02-28' }),
        reserved('r2', 4),
        released('r0', 2, { day: '2025-02-28' }),
      ];
      const pool = fold(voucherPoolDecider, history) as VoucherPool;
      expect(buyerUsage(pool, 'm1', 'u1', today)).to.deep.equal({ daily: 4, total: 4 });
      given(history)
        .when(reserve({ quantity: 1 }))
        .thenRejects('PURCHASE_LIMIT_EXCEEDED', { limit: 'maxPerDay' });
    });

    it('keeps limits apart per user and per merchant', () => {
      const history = [created(), reserved('r0', 3), reserved('r2', 1)];
      given(history)
        .when(reserve({ quantity: 3, userId: 'u2' }))
        .then([reserved('r1', 3, { userId: 'u2' })]);
      given(history)
        .when(reserve({ quantity: 3, merchantId: 'm2' }))
        .then([reserved('r1', 3, { merchantId: 'm2' })]);
    });

    it('refuses a quantity that is not a positive integer', () => {
      given([created()])
        .when(reserve({ quantity: 0 }))
        .thenRejects('INVALID_REQUEST', { field: 'quantity' });
    });
  });

  describe('release and sell', () => {
    it('releases what the reservation holds and returns the stock', () => {
      given([created(), reserved('r1', 2)])
        .when({ type: 'ReleaseVoucherStock', reservationKey: 'r1', reason: 'RELEASED', now: at })
        .then([released('r1', 2)]);
      const pool = fold(voucherPoolDecider, [created(), reserved('r1', 2), released('r1', 2)]) as VoucherPool;
      expect([pool.remaining, pool.reserved, pool.holds.has('r1'), pool.usage.size]).to.deep.equal([10, 0, false, 0]);
    });

    it('releases stock even of a deleted pool', () => {
      given([created(), reserved('r1', 2), deleted])
        .when({ type: 'ReleaseVoucherStock', reservationKey: 'r1', reason: 'RELEASED', now: at })
        .then([released('r1', 2)]);
    });

    it('sells what the reservation holds, keeping it counted for the buyer', () => {
      given([created(), reserved('r1', 2)])
        .when({ type: 'SellVoucherStock', reservationKey: 'r1', now: at })
        .then([sold('r1', 2)]);
      const pool = fold(voucherPoolDecider, [created(), reserved('r1', 2), sold('r1', 2)]) as VoucherPool;
      expect([pool.remaining, pool.reserved, pool.sold]).to.deep.equal([8, 0, 2]);
      expect(buyerUsage(pool, 'm1', 'u1', today)).to.deep.equal({ daily: 2, total: 2 });
    });

    it('does nothing for a reservation holding nothing (already released or sold)', () => {
      for (const history of [
        [created()],
        [created(), reserved('r1', 2), released('r1', 2)],
        [created(), reserved('r1', 2), sold('r1', 2)],
        [],
      ]) {
        given(history)
          .when({ type: 'ReleaseVoucherStock', reservationKey: 'r1', reason: 'RELEASED', now: at })
          .then([]);
        given(history).when({ type: 'SellVoucherStock', reservationKey: 'r1', now: at }).then([]);
      }
    });
  });

  it('keeps one compact record per buyer however many purchases', () => {
    const history: VoucherPoolEvent[] = [
      created({ totalQuantity: 100_000, terms: { ...definition.terms, usageLimit: null, maxPerDay: null } }),
    ];
    for (let i = 0; i < 20_000; i++) {
      history.push(reserved(`r${i}`, 1, { userId: `u${i % 5000}` }));
      if (i % 2 === 0) history.push(sold(`r${i}`, 1));
    }
    const pool = fold(voucherPoolDecider, history) as VoucherPool;
    expect(pool.usage.size).to.equal(5000);
    expect(pool.holds.size).to.equal(10_000);
    expect([pool.remaining, pool.reserved, pool.sold]).to.deep.equal([80_000, 10_000, 10_000]);
    expect(buyerUsage(pool, 'm1', 'u42', today)).to.deep.equal({ daily: 4, total: 4 });
  });
});
