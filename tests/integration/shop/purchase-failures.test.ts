import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import sinon from 'sinon';
import { loadAggregate } from '../../../application/shared/command-handler.js';
import { WrongExpectedVersionError, type StreamWrite } from '../../../application/shared/event-store.js';
import { streams } from '../../../domain/shop/events.js';
import { shopDecoders } from '../../../domain/shop/event-decoder.js';
import { voucherPoolDecider, type VoucherPool } from '../../../domain/shop/voucher-pool.js';
import { caller, order, PurchaseWorld } from './purchase-support.js';
import { asOperator } from '../../support/commands.js';

/** Failed appends: the store answers with an error (a conflict or an outage) once. */
describe('PurchaseService when an append fails', () => {
  let world: PurchaseWorld;

  before(async () => {
    world = await PurchaseWorld.create();
  });
  after(() => world.close());
  afterEach(() => sinon.restore());

  const stored = async (poolId: number) =>
    (await loadAggregate(world.store, voucherPoolDecider, shopDecoders.voucherPool, streams.voucherPool(poolId)))
      .state as VoucherPool;
  const writesPool = (writes: StreamWrite[], poolId: number) =>
    writes.some((w) => w.streamName === streams.voucherPool(poolId));

  it('decides again, on stored state only, the batch that met a conflict and the batch decided on top of it', async () => {
    const { purchases, pools } = world.process();
    const { poolId } = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 50 }));
    const appendMany = world.store.appendMany.bind(world.store);
    let failed = false;
    sinon.stub(world.store, 'appendMany').callsFake(async (writes) => {
      if (!failed && writesPool(writes, poolId)) {
        failed = true;
        // Stay in flight long enough for the next batch to be decided on top of this one.
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new WrongExpectedVersionError(streams.voucherPool(poolId), 0, 0);
      }
      return appendMany(writes);
    });
    const first = Array.from({ length: 10 }, (_, i) => purchases.reserve(caller(`a${i}`), randomUUID(), order(poolId)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = Array.from({ length: 10 }, (_, i) =>
      purchases.reserve(caller(`b${i}`), randomUUID(), order(poolId)),
    );
    const views = await Promise.all([...first, ...second]);

    expect(failed).to.equal(true);
    expect(new Set(views.map((v) => v.reservationKey)).size).to.equal(20);
    const pool = await stored(poolId);
    expect([pool.remaining, pool.reserved, pool.holds.size]).to.deep.equal([30, 20, 20]);
    expect(await pools.get(poolId)).to.include({ remainingQuantity: 30, reservedQuantity: 20 });
  });

  it('sends the commands of a batch that failed for another reason again one by one', async () => {
    const { purchases, pools } = world.process();
    const { poolId } = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 50 }));
    const appendMany = world.store.appendMany.bind(world.store);
    const sizes: number[] = [];
    let failed = false;
    sinon.stub(world.store, 'appendMany').callsFake(async (writes) => {
      if (writesPool(writes, poolId)) sizes.push(writes.length);
      if (!failed && writesPool(writes, poolId) && writes.length > 4) {
        failed = true;
        throw new Error('connection reset');
      }
      return appendMany(writes);
    });
    const views = await Promise.all(
      Array.from({ length: 10 }, (_, i) => purchases.reserve(caller(`c${i}`), randomUUID(), order(poolId))),
    );

    expect(failed).to.equal(true);
    expect(
      sizes.slice(1).every((n) => n === 4),
      'retried alone: 2 guards, the pool, the reservation',
    ).to.equal(true);
    expect(views).to.have.length(10);
    expect((await stored(poolId)).reserved).to.equal(10);
  });

  it('answers the error when a command fails alone', async () => {
    const { purchases, pools } = world.process();
    const { poolId } = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 5 }));
    sinon.stub(world.store, 'appendMany').rejects(new Error('database unavailable'));
    await purchases.reserve(caller(), randomUUID(), order(poolId)).then(
      () => expect.fail('expected the outage to surface'),
      (e: Error) => expect(e.message).to.equal('database unavailable'),
    );
    sinon.restore();
    // Nothing was cached ahead of the store: the next reservation sees the full stock.
    await purchases.reserve(caller(), randomUUID(), order(poolId, 5));
    expect((await stored(poolId)).remaining).to.equal(0);
  });
});
