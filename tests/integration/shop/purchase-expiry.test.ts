import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { streams } from '../../../domain/shop/events.js';
import { caller, order, PurchaseWorld, refusedWith, sweepUntil } from './purchase-support.js';
import { asOperator } from '../../support/commands.js';

describe('PurchaseService reservation expiry (spec README, contradiction 2)', () => {
  let world: PurchaseWorld;

  before(async () => {
    world = await PurchaseWorld.create();
  });
  after(() => world.close());

  describe('automatic expiry on', () => {
    it('expireDue releases due reservations only; a later release or commit is RESERVATION_EXPIRED', async () => {
      const { purchases, pools } = world.process({ autoExpiry: true, reservationTtlSeconds: 60 });
      const { poolId } = await pools.create(
        asOperator('ops'),
        world.definition({ totalQuantity: 10, terms: { maxPerDay: 3 } }),
      );
      const due = await purchases.reserve(caller(), randomUUID(), order(poolId, 3));
      world.clock.advance(30_000);
      const fresh = await purchases.reserve(caller('later'), randomUUID(), order(poolId, 1));
      world.clock.advance(30_000);

      expect(await sweepUntil(purchases, 1)).to.equal(1);
      expect(await purchases.expireDue()).to.equal(0);
      expect(await pools.get(poolId)).to.include({ remainingQuantity: 9, reservedQuantity: 1 });
      const view = await purchases.get(caller(), due.reservationKey);
      expect(view).to.include({ status: 'RELEASED', releasedAt: world.clock.now().toISOString() });
      expect((await world.store.readStream(streams.reservation(due.reservationKey))).map((e) => e.type)).to.deep.equal([
        'ShopReservationPlaced',
        'ShopReservationExpired',
      ]);
      await refusedWith(purchases.release(caller(), due.reservationKey, null), 'RESERVATION_EXPIRED');
      await refusedWith(purchases.commit(caller(), due.reservationKey), 'RESERVATION_EXPIRED');
      // The expired vouchers count no more against the user's daily limit.
      await purchases.reserve(caller(), randomUUID(), order(poolId, 3));
      expect((await purchases.get(caller('later'), fresh.reservationKey)).status).to.equal('RESERVED');
    });

    it('expires a due reservation on the spot when it is committed before the sweep ran', async () => {
      const { purchases, pools } = world.process({ autoExpiry: true, reservationTtlSeconds: 60 });
      const { poolId } = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 5 }));
      const { reservationKey } = await purchases.reserve(caller(), randomUUID(), order(poolId, 2));
      world.clock.advance(60_000);
      await refusedWith(purchases.commit(caller(), reservationKey), 'RESERVATION_EXPIRED');
      expect(await pools.get(poolId)).to.include({ remainingQuantity: 5, soldQuantity: 0 });
      expect((await purchases.get(caller(), reservationKey)).status).to.equal('RELEASED');
      await purchases.expireDue();
      expect((await world.store.readStream(streams.reservation(reservationKey))).map((e) => e.type)).to.deep.equal([
        'ShopReservationPlaced',
        'ShopReservationExpired',
      ]);
    });

    it('finds due reservations after a restart, from the event store alone', async () => {
      const before = world.process({ autoExpiry: true, reservationTtlSeconds: 60 });
      const { poolId } = await before.pools.create(asOperator('ops'), world.definition({ totalQuantity: 5 }));
      const { reservationKey } = await before.purchases.reserve(caller(), randomUUID(), order(poolId));
      await before.purchases.stop();
      world.clock.advance(61_000);
      const after = world.process({ autoExpiry: true, reservationTtlSeconds: 60 });
      for (let i = 0; i < 100 && (await after.purchases.get(caller(), reservationKey)).status === 'RESERVED'; i++)
        await sweepUntil(after.purchases, 1);
      expect((await after.purchases.get(caller(), reservationKey)).status).to.equal('RELEASED');
      expect(await after.pools.get(poolId)).to.include({ remainingQuantity: 5 });
    });
  });

  describe('automatic expiry off (default)', () => {
    it('keeps a reservation past expiresAt until it is committed or released', async () => {
      const { purchases, pools } = world.process({ autoExpiry: false, reservationTtlSeconds: 60 });
      const { poolId } = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 5 }));
      const a = await purchases.reserve(caller(), randomUUID(), order(poolId));
      const b = await purchases.reserve(caller(), randomUUID(), order(poolId));
      world.clock.advance(3_600_000);
      expect(await purchases.expireDue()).to.equal(0);
      expect((await purchases.get(caller(), a.reservationKey)).status).to.equal('RESERVED');
      expect((await purchases.commit(caller(), a.reservationKey)).status).to.equal('COMMITTED');
      expect((await purchases.release(caller(), b.reservationKey, 'TIMEOUT')).status).to.equal('RELEASED');
    });
  });
});
