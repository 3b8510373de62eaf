/**
 * A promotion's life beyond one checkout, on the whole app (PostgreSQL, NATS, the relay, projectors, timers): a
 * voucher bought in the shop arrives in the buyer's wallet and pays at checkout; validity ends by a stored timer;
 * an operator cancels; with a time-to-live, a reservation expires (contradiction 3: docs/checkout.md).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { natsTestApp } from '../../support/nats.js';
import { expectOk, reserveBody, shopScene, Shopper } from '../support.js';
import { checkoutOk, checkoutRefusal, checkoutScene, line, listed, order } from './checkout-support.js';

interface IssuedPromotionData {
  status: string;
  source: string;
  code: string;
}

describe('Checkout lifecycle over the whole app', () => {
  describe('without a time-to-live (the default), on NATS JetStream', () => {
    const running = natsTestApp();
    let app: TestApp;
    let scene: Awaited<ReturnType<typeof checkoutScene>>;
    before(async () => {
      app = running();
      scene = await checkoutScene(app);
    });

    it('a voucher bought in the shop lands in the wallet (through NATS) and pays at checkout', async () => {
      const shop = await shopScene(app.baseUrl);
      const pool = await shop.operator.createPool(shop.campaign.id, { totalQuantity: 5 });
      const buyer = new Shopper(app.baseUrl, shop.merchant);
      const reserved = await buyer.reserved(reserveBody([{ pool, quantity: 1 }]));
      expectOk(await buyer.commit(reserved.reservationKey));
      const voucher = reserved.items[0]!.vouchers[0]!;

      const caller = scene.caller(buyer.userId);
      const orders = [order('ANY-MERCHANT', [line('i1', 1, 500_000)])];
      const shown = await listed(caller, voucher.issuedPromotionId, orders);
      expect(shown).to.include({ code: voucher.voucherCode, is_eligibility: true });
      expect(shown.expires_at).to.equal(Date.parse(voucher.expiresAt));

      const r = checkoutOk(await caller.reserve(voucher.issuedPromotionId, orders));
      expect(r.discount.total_discount).to.equal(voucher.faceValue);
      expect(r.discount.breakdown[0]!.discount.scope).to.equal('PLATFORM');
      checkoutOk(await caller.step('confirm', r.reservation_key));

      // Delivered again (a redelivery, a replay of the log), the commit issues nothing twice.
      const store = app.container.store;
      const commit = (await store.readStream(`shopReservation-${reserved.reservationKey}`)).find(
        (e) => e.type === 'ShopReservationCommitted',
      )!;
      await app.container.services.checkout.wallet.issueBoughtVouchers(
        {
          reservationKey: reserved.reservationKey,
          merchantId: shop.merchant.merchantId,
          userId: buyer.userId,
          vouchers: [
            {
              issuedPromotionId: voucher.issuedPromotionId,
              code: voucher.voucherCode,
              voucherPoolId: pool.poolId,
              title: 'again',
              faceValue: voucher.faceValue,
              purchasedAt: voucher.purchasedAt,
              expiresAt: voucher.expiresAt,
            },
          ],
        },
        { eventId: commit.id, correlationId: commit.id },
      );
      const issued = (await store.readStream(`issuedPromotion-${voucher.issuedPromotionId}`)).filter(
        (e) => e.type === 'PromotionIssued',
      );
      expect(issued).to.have.length(1);
      const rows = await app.container.knex('checkout_wallet').where({ promotion_id: voucher.issuedPromotionId });
      expect(rows).to.have.length(1);
    });

    it('a promotion whose validity ends is EXPIRED by its stored timer; preview answers 8007', async () => {
      const caller = scene.caller();
      const until = new Date(Date.now() + 1500).toISOString();
      const [p] = await scene.issue(await scene.master({ valid_until: until }), [caller.userId]);
      const orders = [order('M001', [line('i1', 1, 200_000)])];
      const status = await eventually(async () => {
        const got = expectOk(
          await scene.operator.call<IssuedPromotionData>('GET', `/issued-promotions/${p!.promotion_id}`),
        );
        expect(got.status).to.equal('EXPIRED');
        return got.status;
      }, 10_000);
      expect(status).to.equal('EXPIRED');
      checkoutRefusal(await caller.preview(p!.promotion_id, orders), 422, '8007');
      expect((await listed(caller, p!.promotion_id, orders)).ineligible_reason).to.equal('EXPIRED');
    });

    it('an operator cancels an unused promotion; held by a checkout it is refused', async () => {
      const caller = scene.caller();
      const [a, b] = await scene.issue(await scene.master(), [caller.userId, caller.userId]);
      const cancelled = expectOk(
        await scene.operator.call<IssuedPromotionData>('POST', `/issued-promotions/${a!.promotion_id}/cancel`, {
          json: { reason: 'issued by mistake' },
        }),
      );
      expect(cancelled.status).to.equal('CANCELLED');
      checkoutRefusal(await caller.preview(a!.promotion_id, [order('M001', [line('i', 1, 200_000)])]), 400, '8001');
      checkoutOk(await caller.reserve(b!.promotion_id, [order('M001', [line('i', 1, 200_000)])]));
      const refused = await scene.operator.call('POST', `/issued-promotions/${b!.promotion_id}/cancel`, { json: {} });
      expect(refused.status, refused.text).to.equal(409);
    });

    it('a paused master: its promotions are not applicable (8001, NOT_ACTIVE) until resumed; ENDED is final', async () => {
      const caller = scene.caller();
      const masterId = await scene.master();
      const [p] = await scene.issue(masterId, [caller.userId]);
      const orders = [order('M001', [line('i', 1, 200_000)])];
      const status = (value: string) =>
        scene.operator.call<{ status: string }>('POST', `/promotion-masters/${masterId}/status`, {
          json: { status: value },
        });
      expect(expectOk(await status('PAUSED')).status).to.equal('PAUSED');
      checkoutRefusal(await caller.preview(p!.promotion_id, orders), 400, '8001', /paused or ended/);
      await eventually(async () =>
        expect((await listed(caller, p!.promotion_id, orders)).ineligible_reason).to.equal('NOT_ACTIVE'),
      );
      expectOk(await status('ACTIVE'));
      checkoutOk(await caller.preview(p!.promotion_id, orders));
      expectOk(await status('ENDED'));
      expect((await status('ACTIVE')).status).to.equal(400);
    });

    it('operator issue with imported codes: unique per master; a resend under its key issues nothing twice', async () => {
      const masterId = await scene.master();
      const key = randomUUID();
      const body = { recipients: [{ user_id: 'u-import', code: 'SUMMER-2026-0001' }] };
      const issue = () =>
        scene.operator.call<{ issued: { promotion_id: number; code: string }[] }>(
          'POST',
          `/promotion-masters/${masterId}/issued-promotions`,
          { json: body, headers: { 'X-Idempotency-Key': key } },
        );
      const first = expectOk(await issue(), 201);
      expect(first.issued[0]!.code).to.equal('SUMMER-2026-0001');
      expect(expectOk(await issue(), 201)).to.deep.equal(first);
      const again = await scene.operator.call('POST', `/promotion-masters/${masterId}/issued-promotions`, {
        json: body,
      });
      expect(again.status, again.text).to.equal(400);
      expect(again.text).to.match(/recipients\[0\]\.code/);
    });
  });

  describe('with CHECKOUT_RESERVATION_TTL_SECONDS=1', () => {
    let app: TestApp;
    let scene: Awaited<ReturnType<typeof checkoutScene>>;
    before(async () => {
      app = await startTestApp({ env: { CHECKOUT_RESERVATION_TTL_SECONDS: '1' } });
      scene = await checkoutScene(app);
    });
    after(() => app?.stop());

    const orders = [order('M001', [line('i1', 1, 200_000)])];

    it('confirm past the time-to-live answers 8011 and the promotion is back in the wallet', async () => {
      const caller = scene.caller();
      const [p] = await scene.issue(await scene.master(), [caller.userId]);
      const r = checkoutOk(await caller.reserve(p!.promotion_id, orders));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      checkoutRefusal(await caller.step('confirm', r.reservation_key), 409, '8011');
      const got = checkoutOk(await caller.step('get-reservation', r.reservation_key));
      expect(got.status).to.equal('EXPIRED');
      expect(got.promotions[0]!.status).to.equal('ISSUED');
      checkoutRefusal(await caller.step('confirm', r.reservation_key), 409, '8011');
      checkoutOk(await caller.reserve(p!.promotion_id, orders, { orderId: 'order-2' }));
    });

    it('its stored timer expires a reservation nobody confirms, and frees its order for another', async () => {
      const caller = scene.caller();
      const [p, q] = await scene.issue(await scene.master(), [caller.userId, caller.userId]);
      const orderId = `ttl-${randomUUID()}`;
      const r = checkoutOk(await caller.reserve(p!.promotion_id, orders, { orderId }));
      checkoutRefusal(await caller.reserve(q!.promotion_id, orders, { orderId }), 409, '8004');
      await eventually(async () => {
        const got = checkoutOk(await caller.step('get-reservation', r.reservation_key));
        expect(got.status).to.equal('EXPIRED');
      }, 10_000);
      // One promotion per order (docs/checkout.md): the expired reservation no longer holds the order.
      checkoutOk(await caller.reserve(q!.promotion_id, orders, { orderId }));
    });
  });
});
