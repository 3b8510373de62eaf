import { expect } from 'chai';
import { streams } from '../../../domain/shop/events.js';
import type { VoucherPoolAdmin } from '../../../application/shop/voucher-pool-admin.js';
import { PurchaseWorld, refusedWith } from './purchase-support.js';
import { asOperator } from '../../support/commands.js';

describe('VoucherPoolAdmin (PostgreSQL event store)', () => {
  let world: PurchaseWorld;
  let pools: VoucherPoolAdmin;

  before(async () => {
    world = await PurchaseWorld.create();
    ({ pools } = world.process());
  });
  after(() => world.close());

  it('creates a pool with an id from the sequence and records the operator', async () => {
    const created = await pools.create(asOperator('alice'), world.definition({ totalQuantity: 7 }));
    expect(created).to.deep.include({
      campaignId: world.campaignId,
      status: 'ACTIVE',
      totalQuantity: 7,
      remainingQuantity: 7,
      reservedQuantity: 0,
      soldQuantity: 0,
    });
    expect(created.poolId).to.be.a('number').greaterThan(0);
    const [event] = await world.store.readStream(streams.voucherPool(created.poolId));
    expect(event!.type).to.equal('VoucherPoolCreated');
    expect(event!.metadata.actor).to.deep.equal({ operator: 'alice' });
    expect(await pools.get(created.poolId)).to.deep.equal(created);
  });

  it('restocks, reprices and soft deletes', async () => {
    const { poolId } = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 1 }));
    expect(await pools.addStock(asOperator('ops'), poolId, 4)).to.include({ totalQuantity: 5, remainingQuantity: 5 });
    const pricing = { faceValue: 100_000, sellingPrice: 50_000, discountedPrice: 50_000, currency: 'VND' as const };
    await refusedWith(
      pools.reprice(asOperator('ops'), poolId, { ...pricing, discountedPrice: 45_000 }),
      'INVALID_POOL',
    );
    expect((await pools.reprice(asOperator('ops'), poolId, pricing)).pricing).to.deep.equal(pricing);
    expect(await pools.delete(asOperator('ops'), poolId)).to.include({ status: 'DELETED' });
    await refusedWith(pools.addStock(asOperator('ops'), poolId, 1), 'POOL_NOT_FOUND');
    await refusedWith(pools.delete(asOperator('ops'), poolId), 'POOL_NOT_FOUND');
    expect((await world.store.readStream(streams.voucherPool(poolId))).map((e) => e.type)).to.deep.equal([
      'VoucherPoolCreated',
      'VoucherPoolStockAdded',
      'VoucherPoolRepriced',
      'VoucherPoolDeleted',
    ]);
  });

  it('refuses invalid input naming the field, and a campaign that does not exist', async () => {
    const error = await refusedWith(
      pools.create(
        asOperator('ops'),
        world.definition({ pricing: { faceValue: 10, sellingPrice: 20, discountedPrice: null, currency: 'VND' } }),
      ),
      'INVALID_POOL',
    );
    expect(error.details.field).to.equal('pricing.sellingPrice');
    expect(
      (await refusedWith(pools.create(asOperator('ops'), world.definition({ campaignId: 424_242 })), 'INVALID_POOL'))
        .details.field,
    ).to.equal('campaignId');
    const { poolId } = await pools.create(asOperator('ops'), world.definition());
    expect((await refusedWith(pools.addStock(asOperator('ops'), poolId, 0), 'INVALID_POOL')).details.field).to.equal(
      'quantity',
    );
  });

  it('refuses a pool that does not exist', async () => {
    await refusedWith(pools.get(987_654), 'POOL_NOT_FOUND');
    await refusedWith(
      pools.reprice(asOperator('ops'), 987_654, {
        faceValue: 1,
        sellingPrice: 1,
        discountedPrice: null,
        currency: 'VND',
      }),
      'POOL_NOT_FOUND',
    );
  });
});
