/**
 * Who reaches what at the checkout (docs/checkout.md, "Who reaches what"), over the whole app: a merchant sees and
 * reserves only promotions usable at it (the platform's and its own), and a reservation answers only the merchant
 * that made it. Merchant B has its own valid key and names A's user in X-App-User-Id.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { CheckoutCaller, checkoutOk, checkoutRefusal, checkoutScene, line, listed, order } from './checkout-support.js';

describe('Checkout: each merchant reaches only its own (HTTP, PostgreSQL)', () => {
  let app: TestApp;
  let scene: Awaited<ReturnType<typeof checkoutScene>>;
  /** Merchant B, with a valid key of its own, calling for the user `userId`. */
  let merchantB: (userId: string) => CheckoutCaller;
  before(async () => {
    app = await startTestApp();
    scene = await checkoutScene(app); // merchant M001
    const b = await scene.operator.createMerchant({ merchantId: 'M002' });
    merchantB = (userId) => new CheckoutCaller(app.baseUrl, b, userId);
  });
  after(() => app?.stop());

  const ordersOf = (merchantId: string) => [order(merchantId, [line('i1', 2, 75_000)])];
  const streamLength = async (name: string) => (await app.container.store.readStream(name)).length;

  it("B cannot read, confirm, release or refund A's reservation: 8010, and nothing changes", async () => {
    const a = scene.caller();
    const [p] = await scene.issue(await scene.master({ scope: 'PLATFORM', merchant_id: null }), [a.userId]);
    const r = checkoutOk(await a.reserve(p!.promotion_id, ordersOf('M001')));
    const b = merchantB(a.userId); // the same user and order id: only the merchant differs
    const streams = [`checkoutReservation-${r.reservation_key}`, `issuedPromotion-${p!.promotion_id}`];
    const before = await Promise.all(streams.map(streamLength));

    for (const step of ['get-reservation', 'confirm', 'release', 'refund'] as const)
      expect(checkoutRefusal(await b.step(step, r.reservation_key), 404, '8010'), step).to.deep.equal({
        reservation_key: r.reservation_key,
        detail: 'no such reservation for this order and user',
      });
    expect(await Promise.all(streams.map(streamLength))).to.deep.equal(before);

    // A's reservation is as A left it, and A still confirms it; then B cannot refund it either.
    expect(checkoutOk(await a.step('get-reservation', r.reservation_key)).status).to.equal('RESERVED');
    expect(checkoutOk(await a.step('confirm', r.reservation_key)).promotions[0]!.status).to.equal('USED');
    const confirmed = await Promise.all(streams.map(streamLength));
    checkoutRefusal(await b.step('refund', r.reservation_key), 404, '8010');
    checkoutRefusal(await b.step('release', r.reservation_key), 404, '8010');
    expect(await Promise.all(streams.map(streamLength))).to.deep.equal(confirmed);
  });

  it("applicable never lists another merchant's promotion, its code or its pin; the platform's and B's own are listed", async () => {
    const user = scene.caller();
    const [ofA] = await scene.issue(await scene.master({ pin_required: true }), [user.userId]); // scoped to M001
    const [ofB] = await scene.issue(await scene.master({ merchant_id: 'M002' }), [user.userId]);
    const [platform] = await scene.issue(await scene.master({ scope: 'PLATFORM', merchant_id: null }), [user.userId]);
    // A sees its own (with its pin) once the read model has it; so the wallet holds all three for B's look too.
    const shownToA = await listed(user, ofA!.promotion_id, ordersOf('M001'));
    expect(shownToA.pin_code).to.match(/^\d{6}$/);
    await listed(user, platform!.promotion_id, ordersOf('M001'));

    const b = merchantB(user.userId);
    await listed(b, ofB!.promotion_id, ordersOf('M002'));
    // Whatever orders B sends, even one naming M001: A's promotion is not in the answer.
    for (const orders of [ordersOf('M002'), ordersOf('M001'), [...ordersOf('M001'), ...ordersOf('M002')]]) {
      const res = await b.applicable(orders);
      const ids = checkoutOk(res).applicable_promotions.discount_promotions.map((p) => p.promotion_id);
      expect(ids).to.include.members([ofB!.promotion_id, platform!.promotion_id]);
      expect(ids).to.not.include(ofA!.promotion_id);
      expect(res.text).to.not.include(ofA!.code);
      expect(res.text).to.not.include(`"pin_code":"${shownToA.pin_code}"`);
    }
  });

  it("preview and reserve of another merchant's promotion: 8003 (pin or not, orders naming it or not), nothing appended", async () => {
    const user = scene.caller();
    const [ofA] = await scene.issue(await scene.master({ pin_required: true }), [user.userId]);
    const pin = (await listed(user, ofA!.promotion_id, ordersOf('M001'))).pin_code!;
    const b = merchantB(user.userId);
    const promotionStream = `issuedPromotion-${ofA!.promotion_id}`;
    const before = await streamLength(promotionStream);

    for (const orders of [ordersOf('M001'), ordersOf('M002')]) {
      expect(checkoutRefusal(await b.preview(ofA!.promotion_id, orders), 404, '8003')).to.deep.equal({
        promotion_id: ofA!.promotion_id,
        detail: `no promotion ${ofA!.promotion_id}`,
      });
      checkoutRefusal(await b.reserve(ofA!.promotion_id, orders, { pin }), 404, '8003');
      // A wrong pin is not checked either: B learns nothing of A's promotion, not even whether a pin is right.
      checkoutRefusal(await b.reserve(ofA!.promotion_id, orders, { pin: '000000' }), 404, '8003');
    }
    expect(await streamLength(promotionStream)).to.equal(before);
    // Still A's to use.
    checkoutOk(await user.reserve(ofA!.promotion_id, ordersOf('M001'), { pin }));
  });

  it("a platform promotion is usable at any merchant; B's own at B only", async () => {
    const user = scene.caller();
    const [ofB] = await scene.issue(await scene.master({ merchant_id: 'M002' }), [user.userId]);
    checkoutRefusal(await user.preview(ofB!.promotion_id, ordersOf('M002')), 404, '8003'); // A, for B's
    const b = merchantB(user.userId);
    const r = checkoutOk(await b.reserve(ofB!.promotion_id, ordersOf('M002')));
    expect(r.discount.breakdown[0]!.discount).to.deep.equal({ amount: 15_000, scope: 'MERCHANT', merchant_id: 'M002' });
  });
});
