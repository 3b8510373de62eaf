import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { PurchaseService } from '../../../application/shop/purchase-service.js';
import type { VoucherPoolAdmin } from '../../../application/shop/voucher-pool-admin.js';
import { streams } from '../../../domain/shop/events.js';
import { caller, order, PurchaseWorld, refusedWith, start } from './purchase-support.js';
import { asOperator } from '../../support/commands.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('PurchaseService (PostgreSQL event store)', () => {
  let world: PurchaseWorld;
  let purchases: PurchaseService;
  let pools: VoucherPoolAdmin;

  before(async () => {
    world = await PurchaseWorld.create();
    ({ purchases, pools } = world.process());
  });
  after(() => world.close());

  describe('reserve, commit, release, get', () => {
    it('reserves: holds the stock and issues vouchers whose codes are stored only encrypted', async () => {
      const pool = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 10 }));
      const view = await purchases.reserve(caller(), randomUUID(), order(pool.poolId, 3, 90_000, 'order-happy'));

      expect(view.reservationKey).to.match(uuid);
      expect(view).to.include({
        orderId: 'order-happy',
        status: 'RESERVED',
        reservedAt: start,
        expiresAt: '2026-03-01T03:15:00.000Z',
      });
      expect(view).not.to.have.any.keys('committedAt', 'releasedAt');
      expect(view.items).to.have.length(1);
      const [item] = view.items;
      expect(item).to.include({ voucherPoolId: pool.poolId, quantity: 3 });
      expect(item!.vouchers).to.have.length(3);
      for (const v of item!.vouchers) {
        expect(v).to.include({
          faceValue: 100_000,
          sellingPrice: 90_000,
          currency: 'VND',
          purchasedAt: start,
          expiresAt: '2026-03-31T03:00:00.000Z',
        });
        expect(v.voucherCode).to.match(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
      }
      expect(new Set(item!.vouchers.map((v) => v.issuedPromotionId)).size).to.equal(3);

      const stored = JSON.stringify(await world.store.readStream(streams.reservation(view.reservationKey)));
      for (const v of item!.vouchers) expect(stored).not.to.include(v.voucherCode);
      expect(await pools.get(pool.poolId)).to.include({ remainingQuantity: 7, reservedQuantity: 3, soldQuantity: 0 });
      expect(await purchases.get(caller(), view.reservationKey)).to.deep.equal(view);
    });

    it('commits once: the stock is sold; a second commit or a release is refused', async () => {
      const pool = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 5 }));
      const reserved = await purchases.reserve(caller(), randomUUID(), order(pool.poolId, 2));
      world.clock.advance(60_000);
      const committed = await purchases.commit(caller(), reserved.reservationKey);

      expect(committed).to.deep.include({
        status: 'COMMITTED',
        committedAt: world.clock.now().toISOString(),
        items: reserved.items,
      });
      expect(await pools.get(pool.poolId)).to.include({ remainingQuantity: 3, reservedQuantity: 0, soldQuantity: 2 });
      await refusedWith(purchases.commit(caller(), reserved.reservationKey), 'RESERVATION_NOT_RESERVED');
      await refusedWith(purchases.release(caller(), reserved.reservationKey, null), 'RESERVATION_ALREADY_FINAL');
      expect((await purchases.get(caller(), reserved.reservationKey)).status).to.equal('COMMITTED');
      expect(await pools.get(pool.poolId)).to.include({ remainingQuantity: 3, soldQuantity: 2 });
    });

    it('releases once with its reason logged: the stock and the quota come back', async () => {
      const pool = await pools.create(
        asOperator('ops'),
        world.definition({ totalQuantity: 2, terms: { usageLimit: 2 } }),
      );
      const reserved = await purchases.reserve(caller(), randomUUID(), order(pool.poolId, 2));
      const released = await purchases.release(caller(), reserved.reservationKey, 'PAYMENT_FAILED');

      expect(released).to.include({ status: 'RELEASED', releasedAt: world.clock.now().toISOString() });
      expect(
        world.logged.find((l) => (l.meta as { reservationKey?: string })?.reservationKey === reserved.reservationKey)
          ?.meta,
      ).to.include({
        reason: 'PAYMENT_FAILED',
      });
      expect(await pools.get(pool.poolId)).to.include({ remainingQuantity: 2, reservedQuantity: 0 });
      await refusedWith(purchases.release(caller(), reserved.reservationKey, null), 'RESERVATION_ALREADY_FINAL');
      await refusedWith(purchases.commit(caller(), reserved.reservationKey), 'RESERVATION_NOT_RESERVED');
      // The user's total limit counted the released vouchers back.
      await purchases.reserve(caller(), randomUUID(), order(pool.poolId, 2));
    });

    it('shows, commits and releases a reservation only for its own merchant and user', async () => {
      const pool = await pools.create(asOperator('ops'), world.definition());
      const { reservationKey } = await purchases.reserve(caller('owner'), randomUUID(), order(pool.poolId));
      for (const stranger of [caller('other'), caller('owner', 'm2')]) {
        await refusedWith(purchases.get(stranger, reservationKey), 'RESERVATION_NOT_FOUND');
        await refusedWith(purchases.commit(stranger, reservationKey), 'RESERVATION_NOT_FOUND');
        await refusedWith(purchases.release(stranger, reservationKey, null), 'RESERVATION_NOT_FOUND');
      }
      for (const call of [
        purchases.get(caller(), randomUUID()),
        purchases.commit(caller(), randomUUID()),
        purchases.release(caller(), randomUUID(), null),
      ]) {
        await refusedWith(call, 'RESERVATION_NOT_FOUND');
      }
      expect((await purchases.get(caller('owner'), reservationKey)).status).to.equal('RESERVED');
    });
  });

  describe('reserve refusals', () => {
    it('refuses an amount other than the items total before touching anything', async () => {
      const pool = await pools.create(asOperator('ops'), world.definition());
      const key = randomUUID();
      const request = { ...order(pool.poolId, 2), amount: 1 };
      await refusedWith(purchases.reserve(caller(), key, request), 'AMOUNT_MISMATCH');
      expect(await world.store.readStream(streams.idempotencyGuard('m1', key))).to.deep.equal([]);
      expect(await world.store.readStream(streams.orderGuard('m1', request.orderId))).to.deep.equal([]);
      expect(await pools.get(pool.poolId)).to.include({ remainingQuantity: 100 });
    });

    it('refuses two lines for one pool', async () => {
      const pool = await pools.create(asOperator('ops'), world.definition());
      const line = { voucherPoolId: pool.poolId, unitPrice: 90_000, quantity: 1 };
      const error = await refusedWith(
        purchases.reserve(caller(), randomUUID(), {
          orderId: randomUUID(),
          amount: 180_000,
          currency: 'VND',
          items: [line, line],
        }),
        'INVALID_REQUEST',
      );
      expect(error.details.field).to.equal('items[1].voucherPoolId');
    });

    it('refuses price, currency, stock and per-order limit mismatches', async () => {
      const pool = await pools.create(
        asOperator('ops'),
        world.definition({ totalQuantity: 3, terms: { maxPerOrder: 2 } }),
      );
      await refusedWith(purchases.reserve(caller(), randomUUID(), order(pool.poolId, 1, 80_000)), 'PRICE_MISMATCH');
      await refusedWith(
        purchases.reserve(caller(), randomUUID(), { ...order(pool.poolId), currency: 'VPOINT' }),
        'CURRENCY_MISMATCH',
      );
      await refusedWith(purchases.reserve(caller(), randomUUID(), order(pool.poolId, 3)), 'PURCHASE_LIMIT_EXCEEDED');
      await purchases.reserve(caller('a'), randomUUID(), order(pool.poolId, 2));
      await refusedWith(purchases.reserve(caller('b'), randomUUID(), order(pool.poolId, 2)), 'OUT_OF_STOCK');
    });

    it('refuses a missing or deleted pool', async () => {
      await refusedWith(purchases.reserve(caller(), randomUUID(), order(999_999)), 'POOL_NOT_FOUND');
      const pool = await pools.create(asOperator('ops'), world.definition());
      await pools.delete(asOperator('ops'), pool.poolId);
      await refusedWith(purchases.reserve(caller(), randomUUID(), order(pool.poolId)), 'POOL_NOT_FOUND');
    });

    it('reserves on several pools all or nothing', async () => {
      const a = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 5 }));
      const b = await pools.create(
        asOperator('ops'),
        world.definition({
          totalQuantity: 1,
          pricing: { faceValue: 50_000, sellingPrice: 40_000, discountedPrice: null, currency: 'VND' },
        }),
      );
      const both = (qb: number) => ({
        orderId: randomUUID(),
        amount: 2 * 90_000 + qb * 40_000,
        currency: 'VND' as const,
        items: [
          { voucherPoolId: a.poolId, unitPrice: 90_000, quantity: 2 },
          { voucherPoolId: b.poolId, unitPrice: 40_000, quantity: qb },
        ],
      });
      await refusedWith(purchases.reserve(caller(), randomUUID(), both(2)), 'OUT_OF_STOCK');
      expect(await pools.get(a.poolId)).to.include({ remainingQuantity: 5 });
      const view = await purchases.reserve(caller(), randomUUID(), both(1));
      expect(view.items.map((i) => [i.voucherPoolId, i.vouchers.length])).to.deep.equal([
        [a.poolId, 2],
        [b.poolId, 1],
      ]);
      expect(await pools.get(a.poolId)).to.include({ remainingQuantity: 3 });
      expect(await pools.get(b.poolId)).to.include({ remainingQuantity: 0 });
    });
  });

  describe('concurrency on one pool', () => {
    it('of 300 parallel reserves on a stock of 100, exactly 100 succeed and each is readable', async () => {
      const pool = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 100 }));
      const results = await Promise.allSettled(
        Array.from({ length: 300 }, (_, i) =>
          purchases.reserve(caller(`flash-${i}`), randomUUID(), order(pool.poolId)),
        ),
      );
      const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const lost = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []));
      expect(won).to.have.length(100);
      expect(new Set(lost)).to.deep.equal(new Set(['OUT_OF_STOCK']));
      expect(await pools.get(pool.poolId)).to.include({ remainingQuantity: 0, reservedQuantity: 100 });
      const ids = won.flatMap((v) => v.items[0]!.vouchers.map((x) => x.issuedPromotionId));
      expect(new Set(ids).size).to.equal(100);
      for (const view of won) {
        const userId = `flash-${results.findIndex((r) => r.status === 'fulfilled' && r.value === view)}`;
        expect(await purchases.get(caller(userId), view.reservationKey)).to.deep.equal(view);
      }
    });

    it('lets one user racing 30 parallel reserves past maxPerDay=5 get exactly 5', async () => {
      const pool = await pools.create(asOperator('ops'), world.definition({ terms: { maxPerDay: 5 } }));
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, () => purchases.reserve(caller('greedy'), randomUUID(), order(pool.poolId))),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(5);
      expect(
        new Set(results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []))),
      ).to.deep.equal(new Set(['PURCHASE_LIMIT_EXCEEDED']));
      expect(await pools.get(pool.poolId)).to.include({ remainingQuantity: 95 });
    });
  });

  describe('stop', () => {
    it('answers every queued command, then refuses new ones', async () => {
      const own = world.process();
      const pool = await own.pools.create(asOperator('ops'), world.definition({ totalQuantity: 10 }));
      const pending = Array.from({ length: 20 }, (_, i) =>
        own.purchases.reserve(caller(`s${i}`), randomUUID(), order(pool.poolId)),
      );
      await own.purchases.stop();
      const settled = await Promise.allSettled(pending);
      expect(settled.filter((r) => r.status === 'fulfilled')).to.have.length(10);
      await own.purchases.reserve(caller(), randomUUID(), order(pool.poolId)).then(
        () => expect.fail('a stopped service must refuse'),
        (e: Error) => expect(e.message).to.include('stopped'),
      );
    });
  });
});
