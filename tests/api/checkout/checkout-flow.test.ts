/**
 * The checkout interface over HTTP on the whole app (PostgreSQL, NATS): applicable → preview → reserve → confirm →
 * refund → release, each code of docs/checkout.md's table, and one winner when checkouts race for one promotion.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { expectEnvelope } from '../support.js';
import { checkoutOk, checkoutRefusal, checkoutScene, line, listed, order } from './checkout-support.js';

describe('Checkout interface (/loyalty/v1/promotion) over the whole app', () => {
  let app: TestApp;
  let scene: Awaited<ReturnType<typeof checkoutScene>>;
  before(async () => {
    app = await startTestApp();
    scene = await checkoutScene(app);
  });
  after(() => app?.stop());

  const merchantOrder = (merchantId = 'M001', price = 150_000) => [order(merchantId, [line('i1', 2, price / 2)])];

  it('walks applicable → preview → reserve → get → confirm → refund, and the promotion comes back to the wallet', async () => {
    const masterId = await scene.master(); // 10% of a M001 order from 100k, at most 50k
    const caller = scene.caller();
    const [issued] = await scene.issue(masterId, [caller.userId]);
    const orders = merchantOrder();

    const shown = await listed(caller, issued!.promotion_id, orders);
    expect(shown).to.include({ is_eligibility: true, ineligible_reason: null, code: issued!.code });
    expect(shown.expires_at).to.equal(Date.parse('2030-01-01T00:00:00Z'));

    const preview = checkoutOk(await caller.preview(issued!.promotion_id, orders));
    expect(preview).to.include({ total_discount: 15_000, original_total: 150_000, final_amount: 135_000 });
    expect(preview.breakdown[0]!.discount).to.deep.equal({ amount: 15_000, scope: 'MERCHANT', merchant_id: 'M001' });
    expect(preview.breakdown[0]!.promotion).to.not.have.property('title');

    const reserved = checkoutOk(await caller.reserve(issued!.promotion_id, orders, { orderId: 'order-1' }));
    expect(reserved.discount.final_amount).to.equal(135_000);
    expect(reserved.discount.breakdown[0]!.promotion).to.include({ title: 'Giảm 10% đơn từ 100k', code: issued!.code });

    const got = checkoutOk(await caller.step('get-reservation', reserved.reservation_key));
    expect(got).to.include({ reservation_key: reserved.reservation_key, order_id: 'order-1', status: 'RESERVED' });
    expect(got.promotions[0]).to.include({ status: 'RESERVED', code_type: 'UNIQUE' });

    expect(checkoutOk(await caller.step('confirm', reserved.reservation_key)).promotions[0]!.status).to.equal('USED');
    checkoutRefusal(await caller.step('confirm', reserved.reservation_key), 409, '8012');
    checkoutRefusal(await caller.step('release', reserved.reservation_key), 409, '8012');

    expect(checkoutOk(await caller.step('refund', reserved.reservation_key)).promotions[0]!.status).to.equal('ISSUED');
    // A repeated refund answers the same and changes nothing.
    expect(checkoutOk(await caller.step('refund', reserved.reservation_key)).promotions[0]!.status).to.equal('ISSUED');
    const again = checkoutOk(await caller.reserve(issued!.promotion_id, orders, { orderId: 'order-2' }));
    expect(again.reservation_key).to.not.equal(reserved.reservation_key);
  });

  it('release returns the promotion; a repeat answers the same; confirm after it is 8010', async () => {
    const caller = scene.caller();
    const [p] = await scene.issue(await scene.master(), [caller.userId]);
    const r = checkoutOk(await caller.reserve(p!.promotion_id, merchantOrder()));
    expect(checkoutOk(await caller.step('release', r.reservation_key)).promotions[0]!.status).to.equal('ISSUED');
    expect(checkoutOk(await caller.step('release', r.reservation_key)).promotions[0]!.status).to.equal('ISSUED');
    checkoutRefusal(await caller.step('confirm', r.reservation_key), 404, '8010');
    checkoutRefusal(await caller.step('refund', r.reservation_key), 400, '8001');
  });

  it('a reservation is found only with its order id and by its wallet owner (8010)', async () => {
    const caller = scene.caller();
    const [p] = await scene.issue(await scene.master(), [caller.userId]);
    const r = checkoutOk(await caller.reserve(p!.promotion_id, merchantOrder()));
    checkoutRefusal(await caller.step('get-reservation', r.reservation_key, 'another-order'), 404, '8010');
    checkoutRefusal(await caller.step('confirm', r.reservation_key, 'another-order'), 404, '8010');
    checkoutRefusal(await scene.caller().step('get-reservation', r.reservation_key), 404, '8010');
    checkoutRefusal(await caller.step('get-reservation', randomUUID()), 404, '8010');
  });

  it('refuses with the seed codes: 8003, 8009, 8004, 8006, 8001, 8002, 8007', async () => {
    const caller = scene.caller();
    const masterId = await scene.master();
    const [p] = await scene.issue(masterId, [caller.userId]);
    checkoutRefusal(await caller.preview(999_999_999, merchantOrder()), 404, '8003');
    checkoutRefusal(await scene.caller().preview(p!.promotion_id, merchantOrder()), 422, '8009');
    checkoutRefusal(await caller.preview(p!.promotion_id, merchantOrder('M001', 90_000)), 422, '8006');
    checkoutRefusal(await caller.preview(p!.promotion_id, merchantOrder('M002')), 400, '8001');
    checkoutRefusal(await caller.preview(p!.promotion_id, merchantOrder(), 'SHARED'), 400, '8002');
    checkoutOk(await caller.reserve(p!.promotion_id, merchantOrder()));
    checkoutRefusal(await caller.reserve(p!.promotion_id, merchantOrder(), { orderId: 'order-9' }), 409, '8004');

    const ended = await scene.master({ valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-02-01T00:00:00Z' });
    // An ended master issues nothing.
    expectEnvelope(
      await scene.operator.call('POST', `/promotion-masters/${ended}/issued-promotions`, {
        json: { recipients: [{ user_id: caller.userId }] },
      }),
      400,
      'OPS-REQ-001',
    );
  });

  it('a pin_required promotion needs its pin (8002) and applicable shows it to its owner', async () => {
    const caller = scene.caller();
    const [p] = await scene.issue(await scene.master({ pin_required: true }), [caller.userId]);
    const shown = await listed(caller, p!.promotion_id, merchantOrder());
    expect(shown.pin_code).to.match(/^\d{6}$/);
    checkoutRefusal(await caller.reserve(p!.promotion_id, merchantOrder()), 400, '8002');
    checkoutRefusal(await caller.reserve(p!.promotion_id, merchantOrder(), { pin: '000000x' }), 400, '8002');
    checkoutOk(await caller.reserve(p!.promotion_id, merchantOrder(), { pin: shown.pin_code! }));
  });

  it("preview of a pin_required promotion needs no pin (the seed's preview entries carry none); reserve still does", async () => {
    const caller = scene.caller();
    const [p] = await scene.issue(await scene.master({ pin_required: true }), [caller.userId]);
    const shown = await listed(caller, p!.promotion_id, merchantOrder());
    const preview = checkoutOk(await caller.preview(p!.promotion_id, merchantOrder()));
    expect(preview).to.include({ total_discount: 15_000, final_amount: 135_000 });
    checkoutRefusal(await caller.reserve(p!.promotion_id, merchantOrder()), 400, '8002');
    checkoutOk(await caller.reserve(p!.promotion_id, merchantOrder(), { pin: shown.pin_code! }));
  });

  it('per_user_limit and total_quota count held and used uses (8008, 8005), and a release gives one back', async () => {
    const caller = scene.caller();
    const other = scene.caller();
    const masterId = await scene.master({ per_user_limit: 1, total_quota: 2 });
    const [a, b] = await scene.issue(masterId, [caller.userId, caller.userId]);
    const [c] = await scene.issue(masterId, [other.userId]);
    const third = scene.caller();
    const [d] = await scene.issue(masterId, [third.userId]);
    const r = checkoutOk(await caller.reserve(a!.promotion_id, merchantOrder()));
    checkoutRefusal(await caller.reserve(b!.promotion_id, merchantOrder(), { orderId: 'o2' }), 422, '8008');
    checkoutRefusal(await caller.preview(b!.promotion_id, merchantOrder()), 422, '8008');
    // Seen while one of the two uses of the quota is taken: the user's limit is what stops it.
    const listedB = await eventually(async () => {
      const found = await listed(caller, b!.promotion_id, merchantOrder());
      expect(found.ineligible_reason).to.equal('USAGE_LIMIT_REACHED');
      return found;
    });
    expect(listedB.is_eligibility).to.equal(false);
    checkoutOk(await other.reserve(c!.promotion_id, merchantOrder()));
    checkoutRefusal(await third.reserve(d!.promotion_id, merchantOrder()), 409, '8005');
    checkoutOk(await caller.step('release', r.reservation_key));
    checkoutOk(await third.reserve(d!.promotion_id, merchantOrder()));
  });

  it('applicable lists ineligible ones with a machine-readable reason', async () => {
    const caller = scene.caller();
    const [food] = await scene.issue(await scene.master({ categories: ['food'] }), [caller.userId]);
    const [own] = await scene.issue(await scene.master(), [caller.userId]);
    const [min] = await scene.issue(await scene.master({ min_order_value: 1_000_000 }), [caller.userId]);
    const orders = [order('M001', [line('i1', 1, 200_000, ['drinks'])])];
    expect((await listed(caller, food!.promotion_id, orders)).ineligible_reason).to.equal('NO_ITEM_IN_CATEGORY');
    expect((await listed(caller, min!.promotion_id, orders)).ineligible_reason).to.equal('MIN_ORDER_NOT_MET');
    // The caller's own promotion, on a checkout without an order of the caller: no order it applies to.
    const elsewhere = [order('M002', [line('i1', 1, 200_000)])];
    expect((await listed(caller, own!.promotion_id, elsewhere)).ineligible_reason).to.equal('SCOPE_MISMATCH');
  });

  it('reserve: an identical resend under its key answers the first; another body under it is 8409', async () => {
    const caller = scene.caller();
    const [p] = await scene.issue(await scene.master(), [caller.userId]);
    const key = randomUUID();
    const orderId = 'idem-1';
    const first = checkoutOk(await caller.reserve(p!.promotion_id, merchantOrder(), { key, orderId }));
    const resend = checkoutOk(await caller.reserve(p!.promotion_id, merchantOrder(), { key, orderId }));
    expect(resend).to.deep.equal(first);
    checkoutRefusal(await caller.reserve(p!.promotion_id, merchantOrder(), { key, orderId: 'other' }), 409, '8409');
  });

  it('checkouts racing for one UNIQUE promotion: exactly one wins, the others get 409 8004', async () => {
    const caller = scene.caller();
    // With limits too: the losers are told the promotion is held, not that its uses ran out.
    const [p] = await scene.issue(await scene.master({ per_user_limit: 1, total_quota: 5 }), [caller.userId]);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => caller.reserve(p!.promotion_id, merchantOrder(), { orderId: `race-${i}` })),
    );
    expect(answers.filter((a) => a.status === 200)).to.have.length(1);
    for (const a of answers.filter((x) => x.status !== 200)) checkoutRefusal(a, 409, '8004');
  });
});
