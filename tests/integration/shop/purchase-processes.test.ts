import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import sinon from 'sinon';
import { WrongExpectedVersionError } from '../../../application/shared/event-store.js';
import { loadAggregate } from '../../../application/shared/command-handler.js';
import { streams } from '../../../domain/shop/events.js';
import { shopDecoders } from '../../../domain/shop/event-decoder.js';
import { voucherPoolDecider, type VoucherPool } from '../../../domain/shop/voucher-pool.js';
import { caller, order, PurchaseWorld, refusedWith } from './purchase-support.js';
import { asOperator } from '../../support/commands.js';

describe('PurchaseService in two processes on one database', () => {
  let world: PurchaseWorld;

  before(async () => {
    world = await PurchaseWorld.create();
  });
  after(() => world.close());

  const stored = async (poolId: number) =>
    (await loadAggregate(world.store, voucherPoolDecider, shopDecoders.voucherPool, streams.voucherPool(poolId)))
      .state as VoucherPool;

  it('never oversells when both race on one pool: conflicts reload and decide again', async () => {
    const a = world.process();
    const b = world.process();
    const { poolId } = await a.pools.create(asOperator('ops'), world.definition({ totalQuantity: 100 }));
    await b.pools.get(poolId); // both caches warm, so the race goes through the conflict path
    const appends = sinon.spy(world.store, 'appendMany');
    const results = await Promise.allSettled(
      Array.from({ length: 300 }, (_, i) =>
        (i % 2 === 0 ? a : b).purchases.reserve(caller(`p-${i}`), randomUUID(), order(poolId)),
      ),
    );
    appends.restore();
    const outcomes = await Promise.allSettled(appends.returnValues);
    expect(
      outcomes.some((o) => o.status === 'rejected' && o.reason instanceof WrongExpectedVersionError),
      'some batch met a conflict',
    ).to.equal(true);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).to.have.length(100);
    expect(
      new Set(results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []))),
    ).to.deep.equal(new Set(['OUT_OF_STOCK']));
    const pool = await stored(poolId);
    expect([pool.remaining, pool.reserved, pool.holds.size]).to.deep.equal([0, 100, 100]);
  });

  it('keeps per-user daily limits across processes', async () => {
    const a = world.process();
    const b = world.process();
    const { poolId } = await a.pools.create(asOperator('ops'), world.definition({ terms: { maxPerDay: 5 } }));
    await b.pools.get(poolId);
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? a : b).purchases.reserve(caller('twice'), randomUUID(), order(poolId)),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(5);
    expect((await stored(poolId)).reserved).to.equal(5);
  });

  it('does not refuse from a stale cache: stock added or a price changed elsewhere is seen', async () => {
    const a = world.process();
    const b = world.process();
    const { poolId } = await a.pools.create(asOperator('ops'), world.definition({ totalQuantity: 1 }));
    await a.purchases.reserve(caller(), randomUUID(), order(poolId));
    await refusedWith(a.purchases.reserve(caller(), randomUUID(), order(poolId)), 'OUT_OF_STOCK');

    await b.pools.addStock(asOperator('ops'), poolId, 2);
    await a.purchases.reserve(caller(), randomUUID(), order(poolId));

    await b.pools.reprice(asOperator('ops'), poolId, {
      faceValue: 100_000,
      sellingPrice: 70_000,
      discountedPrice: null,
      currency: 'VND',
    });
    await a.purchases.reserve(caller(), randomUUID(), order(poolId, 1, 70_000));
    await refusedWith(a.purchases.reserve(caller(), randomUUID(), order(poolId, 1, 90_000)), 'PRICE_MISMATCH');
  });

  it('commits and releases in one process what the other reserved', async () => {
    const a = world.process();
    const b = world.process();
    const { poolId } = await a.pools.create(asOperator('ops'), world.definition({ totalQuantity: 10 }));
    const first = await a.purchases.reserve(caller(), randomUUID(), order(poolId, 2));
    const second = await a.purchases.reserve(caller(), randomUUID(), order(poolId, 3));
    await b.purchases.commit(caller(), first.reservationKey);
    await b.purchases.release(caller(), second.reservationKey, 'USER_CANCELLED');
    // a still caches both as RESERVED: its commit conflicts, reloads and refuses.
    await refusedWith(a.purchases.commit(caller(), second.reservationKey), 'RESERVATION_NOT_RESERVED');
    await refusedWith(a.purchases.release(caller(), first.reservationKey, null), 'RESERVATION_ALREADY_FINAL');
    const pool = await stored(poolId);
    expect([pool.remaining, pool.reserved, pool.sold]).to.deep.equal([8, 0, 2]);
  });
});
