import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { PurchaseService } from '../../../application/shop/purchase-service.js';
import type { VoucherPoolAdmin } from '../../../application/shop/voucher-pool-admin.js';
import { caller, order, PurchaseWorld, refusedWith } from './purchase-support.js';
import { asOperator } from '../../support/commands.js';

describe('PurchaseService idempotency and order ids (spec README, contradiction 1)', () => {
  let world: PurchaseWorld;

  before(async () => {
    world = await PurchaseWorld.create();
  });
  after(() => world.close());

  describe("mode 'replay' (default)", () => {
    let purchases: PurchaseService;
    let pools: VoucherPoolAdmin;
    let poolId: number;

    before(async () => {
      ({ purchases, pools } = world.process({ idempotencyMode: 'replay' }));
      poolId = (await pools.create(asOperator('ops'), world.definition({ totalQuantity: 50 }))).poolId;
    });

    it('answers an identical resend with the first response and reserves once', async () => {
      const key = randomUUID();
      const request = order(poolId, 2);
      const first = await purchases.reserve(caller(), key, request);
      const again = await purchases.reserve(caller(), key, { ...request, items: [...request.items] });
      expect(again).to.deep.equal(first);
      expect(await pools.get(poolId)).to.include({ reservedQuantity: 2 });
    });

    it('answers a resend with the reservation as it is now', async () => {
      const key = randomUUID();
      const request = order(poolId);
      const first = await purchases.reserve(caller(), key, request);
      await purchases.commit(caller(), first.reservationKey);
      const again = await purchases.reserve(caller(), key, request);
      expect(again).to.deep.include({ reservationKey: first.reservationKey, status: 'COMMITTED', items: first.items });
    });

    it('refuses a different body, or another user, under a used key', async () => {
      const key = randomUUID();
      const request = order(poolId);
      await purchases.reserve(caller(), key, request);
      await refusedWith(
        purchases.reserve(caller(), key, { ...request, orderId: randomUUID() }),
        'IDEMPOTENCY_KEY_REUSED',
      );
      await refusedWith(
        purchases.reserve(caller(), key, order(poolId, 2, 90_000, request.orderId)),
        'IDEMPOTENCY_KEY_REUSED',
      );
      await refusedWith(purchases.reserve(caller('someone-else'), key, request), 'IDEMPOTENCY_KEY_REUSED');
    });

    it('refuses an order id already used under another key, and keeps order ids per merchant', async () => {
      const request = order(poolId);
      await purchases.reserve(caller(), randomUUID(), request);
      await refusedWith(purchases.reserve(caller(), randomUUID(), request), 'ORDER_ID_USED');
      await refusedWith(purchases.reserve(caller('u2'), randomUUID(), { ...request }), 'ORDER_ID_USED');
      await purchases.reserve(caller('u1', 'other-merchant'), randomUUID(), request);
    });

    it('gives concurrent identical requests one reservation and the same answer', async () => {
      const before = (await pools.get(poolId)).reservedQuantity;
      const key = randomUUID();
      const request = order(poolId);
      const answers = await Promise.all(Array.from({ length: 5 }, () => purchases.reserve(caller(), key, request)));
      for (const a of answers) expect(a).to.deep.equal(answers[0]);
      expect((await pools.get(poolId)).reservedQuantity).to.equal(before + 1);
    });

    it('replays in another process, which learns of the key from the conflict', async () => {
      const key = randomUUID();
      const request = order(poolId);
      const first = await purchases.reserve(caller(), key, request);
      const reserved = (await pools.get(poolId)).reservedQuantity;
      const other = world.process({ idempotencyMode: 'replay' });
      expect(await other.purchases.reserve(caller(), key, request)).to.deep.equal(first);
      await refusedWith(other.purchases.reserve(caller(), randomUUID(), request), 'ORDER_ID_USED');
      expect((await pools.get(poolId)).reservedQuantity).to.equal(reserved);
    });

    it('lets a request refused for stock be sent again under the same key', async () => {
      const small = (await pools.create(asOperator('ops'), world.definition({ totalQuantity: 1 }))).poolId;
      const key = randomUUID();
      const request = order(small, 2);
      await refusedWith(purchases.reserve(caller(), key, request), 'OUT_OF_STOCK');
      await pools.addStock(asOperator('ops'), small, 1);
      expect((await purchases.reserve(caller(), key, request)).items[0]!.quantity).to.equal(2);
    });
  });

  describe("mode 'reject'", () => {
    let purchases: PurchaseService;
    let poolId: number;

    before(async () => {
      let pools: VoucherPoolAdmin;
      ({ purchases, pools } = world.process({ idempotencyMode: 'reject' }));
      poolId = (await pools.create(asOperator('ops'), world.definition({ totalQuantity: 50 }))).poolId;
    });

    it('refuses any resend under a used key, identical or not', async () => {
      const key = randomUUID();
      const request = order(poolId);
      await purchases.reserve(caller(), key, request);
      await refusedWith(purchases.reserve(caller(), key, request), 'IDEMPOTENCY_KEY_REUSED');
      await refusedWith(purchases.reserve(caller(), key, order(poolId)), 'IDEMPOTENCY_KEY_REUSED');
      await refusedWith(purchases.reserve(caller(), randomUUID(), request), 'ORDER_ID_USED');
    });

    it('lets one of concurrent identical requests through and refuses the others', async () => {
      const key = randomUUID();
      const request = order(poolId);
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => purchases.reserve(caller(), key, request)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
      expect(
        results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : [])),
      ).to.deep.equal(Array(4).fill('IDEMPOTENCY_KEY_REUSED'));
    });
  });
});
