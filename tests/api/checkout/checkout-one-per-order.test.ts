/**
 * One promotion per order (seed 000 part B: "exactly one selected promotion; stacking is not supported yet"; issue
 * 30 item 6; docs/checkout.md, "One promotion per order"), over the whole app (PostgreSQL, NATS): a second
 * reservation of an order whose reservation is held is 409 8004, of one whose reservation was confirmed 409 8012;
 * a release or refund frees the order; concurrent reserves of one order have one winner.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { checkoutOrderStream } from '../../../application/checkout/reservation-writes.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { checkoutOk, checkoutRefusal, checkoutScene, line, order } from './checkout-support.js';

describe('Checkout: one promotion per order', () => {
  let app: TestApp;
  let scene: Awaited<ReturnType<typeof checkoutScene>>;
  before(async () => {
    app = await startTestApp();
    scene = await checkoutScene(app);
  });
  after(() => app?.stop());

  const orders = () => [order('M001', [line('i1', 2, 75_000)])];

  it('a second promotion reserved for a held order is 409 8004; the first stays held and confirms', async () => {
    const caller = scene.caller();
    const [a, b] = await scene.issue(await scene.master(), [caller.userId, caller.userId]);
    const orderId = `ord-${randomUUID()}`;
    const first = checkoutOk(await caller.reserve(a!.promotion_id, orders(), { orderId }));
    const second = checkoutRefusal(await caller.reserve(b!.promotion_id, orders(), { orderId }), 409, '8004');
    // The seed's message, the specifics in data; the holder's reservation key is not shown.
    expect(second).to.deep.equal({
      field: 'order_id',
      reason: 'ORDER_ALREADY_RESERVED',
      detail: `order ${orderId} holds a promotion already (one per order): release it first`,
    });
    // The refused one was not reserved: it serves another order.
    checkoutOk(await caller.reserve(b!.promotion_id, orders(), { orderId: `${orderId}-other` }));
    // The same order id from another user of the merchant is the same order: refused too.
    const other = scene.caller();
    const [d] = await scene.issue(await scene.master(), [other.userId]);
    checkoutRefusal(await other.reserve(d!.promotion_id, orders(), { orderId }), 409, '8004');
    expect(checkoutOk(await caller.step('confirm', first.reservation_key)).promotions[0]!.status).to.equal('USED');
  });

  it('after a release (or a refund) the order may be reserved again; after a confirm it is 409 8012', async () => {
    const caller = scene.caller();
    const [a, b, c] = await scene.issue(await scene.master(), [caller.userId, caller.userId, caller.userId]);
    const orderId = `ord-${randomUUID()}`;
    const first = checkoutOk(await caller.reserve(a!.promotion_id, orders(), { orderId }));
    checkoutOk(await caller.step('release', first.reservation_key));
    const second = checkoutOk(await caller.reserve(b!.promotion_id, orders(), { orderId }));
    checkoutOk(await caller.step('confirm', second.reservation_key));
    expect(checkoutRefusal(await caller.reserve(c!.promotion_id, orders(), { orderId }), 409, '8012')).to.deep.equal({
      field: 'order_id',
      reason: 'ORDER_ALREADY_CONFIRMED',
      detail: `order ${orderId} has a confirmed promotion already`,
    });
    checkoutOk(await caller.step('refund', second.reservation_key));
    const third = checkoutOk(await caller.reserve(c!.promotion_id, orders(), { orderId }));
    expect(third.reservation_key).to.not.be.oneOf([first.reservation_key, second.reservation_key]);
  });

  it('another merchant may use the same order id: orders are per merchant', async () => {
    const own = scene.caller();
    const [a] = await scene.issue(await scene.master(), [own.userId]);
    const orderId = `ord-${randomUUID()}`;
    checkoutOk(await own.reserve(a!.promotion_id, orders(), { orderId }));
    const elsewhere = await checkoutScene(app, {}, 'M002');
    const theirs = elsewhere.caller();
    const [b] = await elsewhere.issue(await elsewhere.master({ merchant_id: 'M002' }), [theirs.userId]);
    checkoutOk(await theirs.reserve(b!.promotion_id, [order('M002', [line('i1', 2, 75_000)])], { orderId }));
  });

  it('a resend under its X-Idempotency-Key answers the first reservation, not the order refusal', async () => {
    const caller = scene.caller();
    const [a] = await scene.issue(await scene.master(), [caller.userId]);
    const orderId = `ord-${randomUUID()}`;
    const key = randomUUID();
    const first = checkoutOk(await caller.reserve(a!.promotion_id, orders(), { orderId, key }));
    expect(checkoutOk(await caller.reserve(a!.promotion_id, orders(), { orderId, key }))).to.deep.equal(first);
  });

  it('a claim whose reservation was never written (a partial write on EventStoreDB) is taken over', async () => {
    const caller = scene.caller();
    const [a] = await scene.issue(await scene.master(), [caller.userId]);
    const orderId = `ord-${randomUUID()}`;
    const ghost = randomUUID();
    await app.container.store.append(
      checkoutOrderStream(caller.merchant.merchantId, orderId),
      [
        {
          id: randomUUID(),
          type: 'CheckoutOrderClaimed',
          data: {
            merchantId: caller.merchant.merchantId,
            orderId,
            reservationKey: ghost,
            claimedAt: new Date().toISOString(),
          },
          metadata: { occurredAt: new Date().toISOString() },
        },
      ],
      'no_stream',
    );
    checkoutOk(await caller.reserve(a!.promotion_id, orders(), { orderId }));
  });

  it('8 concurrent reserves of different promotions for one order: exactly one 200, the others 409 8004', async () => {
    const caller = scene.caller();
    const masterId = await scene.master();
    const promotions = await scene.issue(
      masterId,
      Array.from({ length: 8 }, () => caller.userId),
    );
    const orderId = `ord-${randomUUID()}`;
    const answers = await Promise.all(promotions.map((p) => caller.reserve(p.promotion_id, orders(), { orderId })));
    const won = answers.filter((r) => r.status === 200);
    expect(won, answers.map((r) => `${r.status} ${r.body?.code}`).join()).to.have.length(1);
    for (const r of answers.filter((x) => x.status !== 200)) checkoutRefusal(r, 409, '8004');
    // Exactly one promotion is held: the winner's.
    const key = (won[0]!.body!.data as { reservation_key: string }).reservation_key;
    const held = checkoutOk(await caller.step('get-reservation', key, orderId));
    expect(held.promotions).to.have.length(1);
    checkoutOk(await caller.step('release', key, orderId));
    checkoutOk(await caller.reserve(promotions[0]!.promotion_id, orders(), { orderId }));
  });
});
