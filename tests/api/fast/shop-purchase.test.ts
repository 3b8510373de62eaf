import { streams } from '../../../domain/shop/events.js';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { reserveRequestHash } from '../../../application/shop/purchase-service.js';
import { AesGcmVoucherCodeCipher } from '../../../infrastructure/shop/voucher-code-cipher.js';
import {
  apiSpecification,
  existingStream,
  expectAppended,
  expectNoNewEvents,
  expectResponse,
  satisfying,
  type ApiRequest,
} from '../../support/api-spec.js';
import { buildFastApp, fastAppSecrets } from '../../support/fast-app.js';
import { fastShopMerchant, fastShopPool, fastShopScene } from '../../support/fast-shop-scene.js';
import { reserveBody, shopHeaders, type Envelope, type ReservationData } from '../support.js';

const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-01T10:05:00.000Z';
const given = apiSpecification({ app: buildFastApp, now });
const cipher = new AesGcmVoucherCodeCipher(fastAppSecrets.VOUCHER_CODE_KEY);

const merchant = fastShopMerchant;
const userId = 'u-1';
const shopScene = fastShopScene;
const pool = fastShopPool;

function reserve(body: unknown, idempotencyKey: string): ApiRequest {
  return {
    method: 'POST',
    path: '/api/v1/vouchers/reserve',
    headers: shopHeaders(merchant, userId, { 'X-Idempotency-Key': idempotencyKey }),
    json: body,
  };
}

const commit = (reservationKey: string): ApiRequest => ({
  method: 'POST',
  path: '/api/v1/vouchers/commit',
  headers: shopHeaders(merchant, userId),
  json: { reservationKey },
});

describe('Shop API, fast: the purchase flow over the in-memory store', () => {
  it('reserves, then commits: the stock held then sold, the reservation placed then committed, order and key claimed', async () => {
    const scene = given(...shopScene);
    const body = reserveBody([{ pool, quantity: 2 }], 'ORD-1');
    const idempotencyKey = randomUUID();
    const requestHash = reserveRequestHash(userId, { ...body, currency: 'VND' });

    const reserved = await scene.when<Envelope<ReservationData>>(reserve(body, idempotencyKey)).then(
      expectResponse(200, {
        body: ({ response }) => ({
          code: 'SUCCESS',
          message: 'Success',
          data: {
            reservationKey: response.body.data.reservationKey,
            orderId: 'ORD-1',
            reservedAt: now,
            expiresAt: '2026-03-01T10:15:00.000Z',
            items: [{ voucherPoolId: 101, quantity: 2, vouchers: response.body.data.items[0]!.vouchers }],
          },
        }),
      }),
      expectAppended(({ response }) => {
        const { reservationKey, items } = response.body.data;
        const vouchers = items[0]!.vouchers.map((v) => ({
          issuedPromotionId: v.issuedPromotionId,
          encryptedCode: satisfying(
            (text) =>
              typeof text === 'string' &&
              cipher.decrypt(text, { reservationKey, issuedPromotionId: v.issuedPromotionId }) === v.voucherCode,
            `${v.voucherCode} encrypted, bound to its voucher`,
          ),
          faceValue: 100_000,
          sellingPrice: 90_000,
          currency: 'VND',
          purchasedAt: now,
          expiresAt: '2026-03-31T10:00:00.000Z',
        }));
        const buyer = { merchantId: 'M1', userId };
        return {
          'voucherPool-101': [
            {
              type: 'VoucherStockReserved',
              data: {
                poolId: 101,
                reservationKey,
                ...buyer,
                quantity: 2,
                unitPrice: 90_000,
                day: '2026-03-01',
                reservedAt: now,
              },
            },
          ],
          [streams.reservation(reservationKey)]: [
            {
              type: 'ShopReservationPlaced',
              data: {
                reservationKey,
                orderId: 'ORD-1',
                ...buyer,
                idempotencyKey,
                requestHash,
                amount: 180_000,
                currency: 'VND',
                reservedAt: now,
                expiresAt: '2026-03-01T10:15:00.000Z',
                items: [{ voucherPoolId: 101, quantity: 2, unitPrice: 90_000, vouchers }],
              },
            },
          ],
          'shopOrder-M1:ORD-1': [
            {
              type: 'ShopOrderIdClaimed',
              data: { merchantId: 'M1', orderId: 'ORD-1', reservationKey, requestHash, claimedAt: now },
            },
          ],
          [`shopIdempotency-M1:${idempotencyKey}`]: [
            {
              type: 'ShopIdempotencyKeyUsed',
              data: { merchantId: 'M1', idempotencyKey, requestHash, reservationKey, orderId: 'ORD-1', usedAt: now },
            },
          ],
        };
      }),
    );
    const { reservationKey, items } = reserved.response.body.data;
    expect(items[0]!.vouchers.map((v) => v.issuedPromotionId)).to.have.length(2);

    scene.clock.set(later);
    await scene.when(commit(reservationKey)).then(
      expectResponse(200, {
        body: {
          code: 'SUCCESS',
          message: 'Success',
          data: { reservationKey, orderId: 'ORD-1', committedAt: later, items },
        },
      }),
      expectAppended({
        [streams.reservation(reservationKey)]: [
          { type: 'ShopReservationCommitted', data: { reservationKey, committedAt: later } },
        ],
        'voucherPool-101': [
          { type: 'VoucherStockSold', data: { poolId: 101, reservationKey, quantity: 2, soldAt: later } },
        ],
      }),
    );
  });

  it('refuses more than the remaining stock with 400 SHOP-PUR-012, and appends nothing', () =>
    given(...shopScene)
      .when(reserve(reserveBody([{ pool, quantity: 11 }]), randomUUID()))
      .then(
        expectResponse(400, { body: { code: 'SHOP-PUR-012', message: 'only 10 left of pool 101', data: null } }),
        expectNoNewEvents(),
      ));

  it('refuses an order id the merchant already used with 409 SHOP-PUR-011, and appends nothing', () =>
    given(
      ...shopScene,
      existingStream('shopOrder-M1:ORD-1', [
        {
          type: 'ShopOrderIdClaimed',
          data: { merchantId: 'M1', orderId: 'ORD-1', reservationKey: randomUUID(), requestHash: 'x', claimedAt: now },
        },
      ]),
    )
      .when(reserve(reserveBody([{ pool }], 'ORD-1'), randomUUID()))
      .then(
        expectResponse(409, { body: { code: 'SHOP-PUR-011', message: /order id/, data: null } }),
        expectNoNewEvents(),
      ));

  it("records the request in every event it appends: request id, the caller's correlation id, the buyer as actor", async () => {
    const requestId = randomUUID();
    const request = reserve(reserveBody([{ pool }], 'ORD-9'), randomUUID());
    request.headers = { ...request.headers, 'X-Request-Id': requestId, 'X-Correlation-Id': 'checkout-42' };
    await given(...shopScene)
      .when(request)
      .then(expectResponse(200), ({ appended }) => {
        const events = [...appended.values()].flat();
        expect(events).to.have.length.above(3);
        expect(new Set(events.map((e) => e.metadata.commandId)).size, 'one command').to.equal(1);
        for (const event of events)
          expect(event.metadata).to.deep.equal({
            commandId: event.metadata.commandId,
            correlationId: 'checkout-42',
            requestId,
            actor: { merchantId: 'M1', userId },
            occurredAt: now,
          });
      });
  });
});

describe('Shop API, fast: one reservation holds at most SHOP_MAX_VOUCHERS_PER_RESERVATION vouchers', () => {
  const big = apiSpecification({
    app: (deps) => buildFastApp({ ...deps, env: { SHOP_MAX_VOUCHERS_PER_RESERVATION: '5' } }),
    now,
  });

  it('refuses one voucher more than the cap over all lines with 400 SHOP-REQ-001, appending nothing', () =>
    big(...shopScene)
      .when(reserve(reserveBody([{ pool, quantity: 6 }], 'ORD-CAP'), randomUUID()))
      .then(
        expectResponse(400, {
          body: {
            code: 'SHOP-REQ-001',
            message: 'items ask for 6 vouchers; one reservation holds at most 5',
            data: null,
          },
        }),
        expectNoNewEvents(),
      ));

  it('reserves exactly the cap', () =>
    big(...shopScene)
      .when(reserve(reserveBody([{ pool, quantity: 5 }], 'ORD-CAP-5'), randomUUID()))
      .then(expectResponse(200)));
});
