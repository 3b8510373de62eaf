/**
 * Lengths are counted in characters, i.e. Unicode code points, as the seeds say (issue 30; docs/conventions.md,
 * "Text lengths"): on every interface a value of emoji at the limit (twice as many UTF-16 units) is accepted, and one
 * more character is refused with the interface's own code and message, appending nothing.
 */
import { randomUUID } from 'node:crypto';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import {
  apiSpecification,
  expectNewEvents,
  expectNoNewEvents,
  expectResponse,
  matching,
  type ApiRequest,
} from '../../support/api-spec.js';
import { promotionMasterBody } from '../../support/checkout-fixtures.js';
import { buildFastApp } from '../../support/fast-app.js';
import { fastShopMerchant, fastShopPool, fastShopScene } from '../../support/fast-shop-scene.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { createdBody, sign } from '../orders/support.js';
import { operatorHeaders, reserveBody, shopHeaders, type Envelope, type ReservationData } from '../support.js';
import { apiKey, keyLookup, merchant as paymentsMerchant, secretKey, timestamp } from './payments-scene.js';

const now = '2026-03-01T10:00:00.000Z';
const given = apiSpecification({ app: buildFastApp, now });

/** `n` characters of 2 UTF-16 units each (U+1F600): `n` characters as the seeds count, `2n` as `String.length` does. */
const emoji = (n: number) => '😀'.repeat(n);

describe('Text lengths in characters (code points) on every interface, fast', () => {
  it('shop: an orderId of 128 emoji and a release reason of 256 are taken; one more is SHOP-REQ-001', async () => {
    const scene = given(...fastShopScene);
    const headers = (extra: Record<string, string> = {}) => shopHeaders(fastShopMerchant, 'u-1', extra);
    const reserve = (orderId: string): ApiRequest => ({
      method: 'POST',
      path: '/api/v1/vouchers/reserve',
      headers: headers({ 'X-Idempotency-Key': randomUUID() }),
      json: reserveBody([{ pool: fastShopPool }], orderId),
    });
    await scene.when(reserve(emoji(129))).then(
      expectResponse(400, {
        body: matching({ code: 'SHOP-REQ-001', message: 'orderId: orderId is at most 128 characters' }),
      }),
      expectNoNewEvents(),
    );
    const { response } = await scene
      .when<Envelope<ReservationData>>(reserve(emoji(128)))
      .then(expectResponse(200, { body: matching({ code: 'SUCCESS', data: matching({ orderId: emoji(128) }) }) }));
    const release = (reason: string): ApiRequest => ({
      method: 'POST',
      path: '/api/v1/vouchers/release',
      headers: headers(),
      json: { reservationKey: response.body.data.reservationKey, reason },
    });
    await scene.when(release(emoji(257))).then(
      expectResponse(400, {
        body: matching({ code: 'SHOP-REQ-001', message: 'reason: reason is at most 256 characters' }),
      }),
      expectNoNewEvents(),
    );
    await scene.when(release(emoji(256))).then(expectResponse(200, { body: matching({ code: 'SUCCESS' }) }));
  });

  it('checkout: item names of 500 emoji and an order_id of 128 are taken; one more is 8400 naming the field', async () => {
    const scene = given(...fastShopScene);
    const operator = (path: string, json: unknown): ApiRequest => ({
      method: 'POST',
      path: `/operator/v1${path}`,
      headers: operatorHeaders(),
      json,
    });
    const master = await scene
      .when<Envelope<{ promotion_master_id: number }>>(
        operator(
          '/promotion-masters',
          promotionMasterBody({ merchant_id: 'M1', categories: null, per_user_limit: null }),
        ),
      )
      .then(expectResponse(201));
    const masterId = master.response.body.data.promotion_master_id;
    const issued = await scene
      .when<Envelope<{ issued: { promotion_id: number }[] }>>(
        operator(`/promotion-masters/${masterId}/issued-promotions`, { recipients: [{ user_id: 'u-1' }] }),
      )
      .then(expectResponse(201));
    const promotionId = issued.response.body.data.issued[0]!.promotion_id;

    const checkout = (path: string, json: unknown): ApiRequest => ({
      method: 'POST',
      path: `/loyalty/v1/promotion${path}`,
      headers: {
        ...gatewayHeaders(),
        env: 'dev',
        'X-Auth-Audience': 'superapp',
        'X-Merchant-Id': 'M1',
        'X-App-Id': 'miniapp-1',
        'X-App-User-Id': 'u-1',
        'X-Promotion-API-Key': fastShopMerchant.apiKey,
        'X-Request-Id': randomUUID(),
        'X-Idempotency-Key': randomUUID(),
      },
      json,
    });
    const orders = (name: string) => [
      {
        merchant_id: 'M1',
        subtotal: 200_000,
        items: [
          { item_id: emoji(64), sku: emoji(128), name, quantity: 1, unit_price: 200_000, categories: [emoji(100)] },
        ],
      },
    ];
    const selected = [{ promotion_id: promotionId, code_type: 'UNIQUE' }];
    await scene.when(checkout('/preview-discount', { selected_promotions: selected, orders: orders(emoji(501)) })).then(
      expectResponse(400, {
        body: matching({
          code: '8400',
          message: 'orders.0.items.0.name: String must contain at most 500 character(s)',
        }),
      }),
      expectNoNewEvents(),
    );
    await scene
      .when(checkout('/preview-discount', { selected_promotions: selected, orders: orders(emoji(500)) }))
      .then(expectResponse(200, { body: matching({ code: '0', data: matching({ total_discount: 20_000 }) }) }));
    const reserve = (orderId: string) =>
      checkout('/reserve', { order_id: orderId, selected_promotions: selected, orders: orders(emoji(500)) });
    await scene
      .when(reserve(emoji(129)))
      .then(
        expectResponse(400, { body: matching({ code: '8400', message: 'order_id: must be at most 128 characters' }) }),
        expectNoNewEvents(),
      );
    await scene
      .when(reserve(emoji(128)))
      .then(
        expectResponse(200, { body: matching({ code: '0' }) }),
        expectNewEvents(/^checkoutReservation-/, [
          { type: 'CheckoutReserved', data: matching({ orderId: emoji(128) }) },
        ]),
      );
  });

  it('payment hub: a description of 255 emoji and a customerName of 255 are taken; one more is 4001 naming it', async () => {
    const init = (description: string, customerName: string, requestId: string): ApiRequest => ({
      method: 'POST',
      path: '/api/payments/v1/transactions',
      headers: {
        ...gatewayHeaders(),
        'X-Payment-API-Key': apiKey,
        'X-Request-ID': requestId,
        'X-Timestamp': timestamp,
      },
      json: {
        orderId: 'ĐH-1',
        referenceId: 'TC-1',
        amount: 150000,
        currency: 'VND',
        description,
        paymentMethodCode: 'WALLET',
        providerId: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02',
        orderInfo: { orderCreatedAt: 1767225600000, customerName, notes: emoji(2000) },
        secureHash: hmacSha256Hex(secretKey, 'ĐH-1|TC-1|150000|VND|1767225600000'),
      },
    });
    const refused = (field: string) =>
      expectResponse(400, {
        body: matching({
          code: 4001,
          message: 'Invalid request',
          data: matching({ field, detail: `${field}: must be 1 to 255 characters` }),
        }),
      });
    await given(paymentsMerchant, keyLookup)
      .when(init(emoji(256), 'Nguyễn Văn An', 'req-1'))
      .then(refused('description'), expectNoNewEvents());
    await given(paymentsMerchant, keyLookup)
      .when(init('Xe điện', emoji(256), 'req-2'))
      .then(
        expectResponse(400, {
          body: matching({
            code: 4001,
            message: 'Invalid request',
            data: matching({
              field: 'orderInfo.customerName',
              detail: 'orderInfo.customerName: String must contain at most 255 character(s)',
            }),
          }),
        }),
        expectNoNewEvents(),
      );
    await given(paymentsMerchant, keyLookup)
      .when(init(emoji(255), emoji(255), 'req-3'))
      .then(
        expectResponse(200, { body: matching({ code: 0 }) }),
        expectNewEvents(/^transaction-/, [
          {
            type: 'TransactionInitiated',
            data: matching({ description: emoji(255), orderInfo: matching({ customerName: emoji(255) }) }),
          },
          { type: 'TransactionProcessing', data: matching({}) },
        ]),
      );
  });

  it('order view: a customer name of 128 emoji (the issue) and an order_name of 256 are taken; one more is 4001', async () => {
    const scene = given();
    const operator = (path: string, json: unknown): ApiRequest => ({
      method: 'POST',
      path: `/operator/v1${path}`,
      headers: operatorHeaders(),
      json,
    });
    await scene
      .when(operator('/order-merchants', { merchant_id: 'M1', name: 'Merchant M1' }))
      .then(expectResponse(201));
    const issued = await scene
      .when<Envelope<{ api_key: string; secret_key: string }>>(
        operator('/order-merchants/M1/keys', { environment: 'test' }),
      )
      .then(expectResponse(201));
    const { api_key: apiKey, secret_key: secretKey } = issued.response.body.data;
    const webhook = (order: Record<string, unknown>): ApiRequest => {
      const body = createdBody('o-1', { event_timestamp: Date.parse(now) - 60_000 }, order);
      return {
        method: 'POST',
        path: '/order/cov/webhook/v1/orders/created',
        headers: { ...gatewayHeaders(), 'X-API-Key': apiKey, 'X-Request-Id': randomUUID() },
        json: { secure_hash: sign(secretKey, 'created', body), ...body },
      };
    };
    const customer = (name: string) => ({ customer_id: 'user-1', name, phone: '0901234567' });
    await scene.when(webhook({ customer: customer(emoji(129)) })).then(
      expectResponse(400, {
        body: {
          code: 4001,
          message: 'order.customer.name: must be at most 128 characters',
          data: { field: 'order.customer.name' },
        },
      }),
      expectNoNewEvents(),
    );
    await scene.when(webhook({ customer: customer(emoji(128)), order_name: emoji(256) })).then(
      expectResponse(200, { body: matching({ code: 0, data: matching({ outcome: 'CREATED' }) }) }),
      expectNewEvents('order-M1-o-1', [
        {
          type: 'OrderCreated',
          data: matching({ order: matching({ order_name: emoji(256), customer: matching({ name: emoji(128) }) }) }),
        },
      ]),
    );
  });

  it('operator API (identity, and every trimmed text field): a name of 128 emoji is taken; one more is OPS-REQ-001', async () => {
    const user = (name: string): ApiRequest => ({
      method: 'POST',
      path: '/operator/v1/identity/users',
      headers: operatorHeaders(),
      json: { user_id: 'u-1', name: ` ${name} ` },
    });
    await given()
      .when(user(emoji(129)))
      .then(
        expectResponse(400, {
          body: {
            code: 'OPS-REQ-001',
            message: 'name: must be a string of 1 to 128 characters',
            data: { field: 'name' },
          },
        }),
        expectNoNewEvents(),
      );
    await given()
      .when(user(emoji(128)))
      .then(
        expectResponse(201, { body: matching({ data: matching({ name: emoji(128) }) }) }),
        expectNewEvents('identityUser-u-1', [{ type: 'UserRegistered', data: matching({ name: emoji(128) }) }]),
      );
  });
});
