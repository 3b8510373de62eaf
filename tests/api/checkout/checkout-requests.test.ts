/**
 * The checkout interface's refusals of bad requests and credentials (docs/checkout.md, "Requests" and "Codes"): the
 * checkout envelope with a 4xx and a message naming the field or header, never a 500 or a stack trace.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { call } from '../support.js';
import { checkoutRefusal, checkoutScene, line, order, type CheckoutCaller } from './checkout-support.js';

describe('Checkout interface: bad requests and credentials', () => {
  let app: TestApp;
  let caller: CheckoutCaller;
  before(async () => {
    app = await startTestApp();
    caller = (await checkoutScene(app)).caller();
  });
  after(() => app?.stop());

  const orders = [order('M001', [line('i1', 1, 100_000)])];
  const applicable = (json: unknown, headers = {}) => caller.post('applicable', json, headers);

  it('credentials: gateway pair, env, X-Promotion-API-Key and its merchant', async () => {
    checkoutRefusal(await applicable({ orders }, { client_secret: 'wrong' }), 401, '8401');
    checkoutRefusal(await applicable({ orders }, { env: undefined }), 400, '8400', /env/);
    checkoutRefusal(await applicable({ orders }, { env: 'prod' }), 403, '8403');
    checkoutRefusal(await applicable({ orders }, { 'X-Promotion-API-Key': undefined }), 401, '8401', /required/);
    checkoutRefusal(await applicable({ orders }, { 'X-Promotion-API-Key': 'pk_nope' }), 401, '8401', /invalid/);
    checkoutRefusal(await applicable({ orders }, { 'X-Merchant-Id': 'SOMEONE-ELSE' }), 403, '8403');
  });

  it('headers: X-Request-Id, X-Auth-Audience, X-App-Id, X-App-User-Id, and X-Idempotency-Key on reserve', async () => {
    checkoutRefusal(await applicable({ orders }, { 'X-Request-Id': 'not-a-uuid' }), 400, '8400', /X-Request-Id/);
    for (const h of ['X-Auth-Audience', 'X-App-Id', 'X-App-User-Id'])
      checkoutRefusal(await applicable({ orders }, { [h]: undefined }), 400, '8400', new RegExp(h));
    const body = { order_id: 'o1', selected_promotions: [{ promotion_id: 1, code_type: 'UNIQUE' }], orders };
    checkoutRefusal(await caller.post('reserve', body), 400, '8400', /X-Idempotency-Key header is required/);
    checkoutRefusal(await caller.post('reserve', body, { 'X-Idempotency-Key': 'abc' }), 400, '8400', /UUID/);
  });

  it('bodies: every field checked, subtotal = sum(unit_price × quantity), one entry per merchant, one promotion', async () => {
    const bad: [unknown, RegExp][] = [
      [{}, /orders is required/],
      [{ orders: [] }, /orders: must hold at least one order/],
      [{ orders: [{ ...orders[0], subtotal: 99 }] }, /orders\.0\.subtotal: must equal sum/],
      [{ orders: [orders[0], orders[0]] }, /one entry per merchant/],
      [{ orders: [{ merchant_id: 'M1', subtotal: 0, items: [] }] }, /at least one item/],
      [{ orders: [order('M1', [line('a', 0, 10)])] }, /quantity: must be at least 1/],
      [{ orders: [order('M1', [line('a', 1, 10.5)])] }, /whole number of VND/],
      [{ orders: [order('M1', [line('a', 1, 10), line('a', 1, 10)])] }, /item_id: must be unique/],
      [{ orders, extra: 1 }, /Unrecognized key/],
      [{ orders: [{ ...orders[0], merchant_id: 'M\u0000' }] }, /control character/],
    ];
    for (const [body, message] of bad) checkoutRefusal(await applicable(body), 400, '8400', message);
    const two = [
      { promotion_id: 1, code_type: 'UNIQUE' },
      { promotion_id: 2, code_type: 'UNIQUE' },
    ];
    checkoutRefusal(
      await caller.post('preview-discount', { selected_promotions: two, orders }),
      400,
      '8400',
      /one promotion per checkout/,
    );
    checkoutRefusal(
      await caller.post('confirm', { reservation_key: 'nope', order_id: 'o1' }),
      400,
      '8400',
      /reservation_key: must be a reservation key/,
    );
  });

  it('negative unit prices are allowed when the subtotal adds up', async () => {
    const res = await eventually(async () => {
      const answer = await applicable({ orders: [order('M1', [line('a', 2, 50_000), line('refund', 1, -10_000)])] });
      expect(answer.status, answer.text).to.equal(200); // once the projector made its tables
      return answer;
    });
    expect(res.body!.code).to.equal('0');
  });

  it('malformed JSON, a wrong media type, an unknown path: the envelope with 8400, 8415, 8404', async () => {
    const raw = (path: string, body: string, type = 'application/json') =>
      call(app.baseUrl, 'POST', `/loyalty/v1/promotion/${path}`, {
        rawBody: body,
        headers: { ...caller.headers(), 'Content-Type': type },
      });
    checkoutRefusal(await raw('applicable', '{"orders": ['), 400, '8400', /not valid JSON/);
    checkoutRefusal(await raw('applicable', 'orders=1', 'text/plain'), 415, '8415');
    checkoutRefusal(await raw('no-such-thing', '{}'), 404, '8404');
    const id = randomUUID();
    checkoutRefusal(await caller.post('get-reservation', { reservation_key: id, order_id: 'o1' }), 404, '8010');
  });
});
