/**
 * One secure_hash, one webhook (docs/orders-signing.md, "One signature, one webhook"; issue 29, item 3): a captured
 * (event_timestamp, secure_hash) is refused with any other body, on any other endpoint and for any other order; a
 * `|` inside a signed field is refused naming it; an update cannot change the customer or the deeplink; a resend of
 * the same body keeps its answer. Over HTTP, behind the gateway, on PostgreSQL with the projector running: the
 * portal's view of the order is checked after a later legitimate webhook shows, so "nothing changed" is not read from
 * a read model that had not caught up.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { call, expectOk, operatorHeaders } from '../support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook, sign, type MerchantKeys } from './support.js';

type Kind = 'created' | 'updated' | 'cancelled';
type Body = Parameters<typeof sign>[2];

interface Detail {
  customer_id: string | null;
  status: string | null;
  cancelled: boolean;
  order: Record<string, unknown>;
  history: { event: string }[];
}

describe('Order view webhooks: a signature binds its webhook (HTTP, PostgreSQL, projector)', () => {
  let app: TestApp;
  let keys: MerchantKeys;
  const merchant = 'P_SIG';
  const t = Date.now() - 600_000;

  const events = async (orderId: string) =>
    (await app.container.store.readStream(`order-${merchant}-${orderId}`)).map((e) => e.type);
  const portalDetail = async (orderId: string) =>
    expectOk(
      await call<Detail>(app.baseUrl, 'GET', `/operator/v1/orders/${merchant}/${orderId}`, {
        headers: operatorHeaders(),
      }),
    );
  const portalCustomerOrders = async (customerId: string) =>
    expectOk(
      await call<{ orders: { order_id: string }[] }>(
        app.baseUrl,
        'GET',
        `/operator/v1/orders?merchant_id=${merchant}&customer_id=${customerId}`,
        { headers: operatorHeaders() },
      ),
    ).orders.map((o) => o.order_id);
  /** Sends `body` with the secure_hash given (a captured one), as `kind`, under a fresh X-Request-Id. */
  const replay = (kind: Kind, body: Body, secureHash: string) =>
    sendWebhook(app, kind, { ...body, secure_hash: secureHash } as Body, { keys, unsigned: true });
  /** A later, legitimate update; waits until the portal shows it, so the projector has seen everything before it. */
  const settle = async (orderId: string, at: number) => {
    const marker = `SETTLED-${at}`;
    const body = { event_timestamp: at, order: { order_id: orderId, pnl_order_status: marker } };
    expectOrders(await sendWebhook(app, 'updated', body, { keys }), 200, 0);
    return eventually(async () => {
      const detail = await portalDetail(orderId);
      expect(detail.order.pnl_order_status).to.equal(marker);
      return detail;
    });
  };

  before(async () => {
    app = await startTestApp();
    keys = await merchantWithKey(app, merchant);
  });
  after(() => app?.stop());

  it("a captured update's (event_timestamp, secure_hash) with another body under a new X-Request-Id is refused; nothing is appended and the other user never sees the order", async () => {
    expectOrders(await sendWebhook(app, 'created', createdBody('sig-1', { event_timestamp: t }), { keys }), 200, 0);
    const update = { event_timestamp: t + 1000, order: { order_id: 'sig-1', status: 'CONFIRMED' } };
    const captured = sign(keys.secretKey, 'updated', update);
    expectOrders(await replay('updated', update, captured), 200, 0);

    // The attack: the same pair, an update that hands the order to another user with a phishing link.
    const hijack = {
      event_timestamp: update.event_timestamp,
      order: {
        order_id: 'sig-1',
        status: 'CONFIRMED',
        customer: { customer_id: 'user-2', name: 'Attacker' },
        deeplink: 'https://phishing.example/pay',
      },
    };
    expectOrders(await replay('updated', hijack, captured), 409, 4092, /order\.customer/);
    // The same pair with a body the decider would take (another status): the signature is refused.
    const other = { event_timestamp: update.event_timestamp, order: { order_id: 'sig-1', status: 'REFUNDED' } };
    expect(expectOrders(await replay('updated', other, captured), 401, 4014, /secure_hash/)).to.deep.equal({
      field: 'secure_hash',
    });
    // Hex is compared case-insensitively, so the claim is too.
    expectOrders(await replay('updated', other, captured.toUpperCase()), 401, 4014);
    expect(await events('sig-1')).to.deep.equal(['OrderCreated', 'OrderUpdated']);

    const detail = await settle('sig-1', t + 2000);
    expect(detail).to.include({ customer_id: 'user-1', status: 'CONFIRMED' });
    expect(detail.order.deeplink).to.equal('superapp://orders/sig-1');
    expect(await portalCustomerOrders('user-2')).to.deep.equal([]);
  });

  it('the same pair sent to /orders/cancelled (which signs the same string) is refused and the order is not cancelled', async () => {
    expectOrders(await sendWebhook(app, 'created', createdBody('sig-2', { event_timestamp: t }), { keys }), 200, 0);
    const update = { event_timestamp: t + 1000, order: { order_id: 'sig-2', status: 'CONFIRMED' } };
    const captured = sign(keys.secretKey, 'updated', update);
    expectOrders(await replay('updated', update, captured), 200, 0);

    expectOrders(await replay('cancelled', update, captured), 401, 4014);
    const bare = { event_timestamp: update.event_timestamp, order: { order_id: 'sig-2' } };
    expectOrders(await replay('cancelled', bare, captured), 401, 4014);
    expect(await events('sig-2')).to.deep.equal(['OrderCreated', 'OrderUpdated']);

    const detail = await settle('sig-2', t + 2000);
    expect(detail).to.include({ status: 'CONFIRMED', cancelled: false });
    expect(detail.history.map((h) => h.event)).not.to.include('order.cancelled');
  });

  it("a created's pair read as another order (the seed's optional fields leave the string ambiguous) is refused", async () => {
    // ts|grand_total|miniapp_id|order_id|platform_code|seller_merchant_id|total_amount, with values chosen so that
    // it also reads as branch_id|ts|grand_total|miniapp_id|order_id|platform_code|total_amount of order "HOSTAPP".
    const g = Date.now() - 1000;
    const body = createdBody(
      'sig-3',
      { event_timestamp: t, miniapp_id: '900' },
      { business_unit_id: undefined, branch_id: undefined, seller_merchant_id: 'SELLER-9' },
    );
    body.order.amounts = { currency: 'VND', grand_total: g, total_amount: g + 1000 };
    const hash = sign(keys.secretKey, 'created', body);
    expectOrders(await replay('created', body, hash), 200, 0);
    const { seller_merchant_id: _seller, ...order } = body.order;
    const reread = {
      ...body,
      event_timestamp: g,
      miniapp_id: 'sig-3',
      platform_code: 'SELLER-9',
      order: {
        ...order,
        order_id: 'HOSTAPP',
        branch_id: String(t),
        amounts: { currency: 'VND', grand_total: 900, total_amount: g + 1000 },
      },
    };
    expect(sign(keys.secretKey, 'created', reread)).to.equal(hash); // the same string to sign
    expectOrders(await replay('created', reread, hash), 401, 4014);
    expect(await events('HOSTAPP')).to.deep.equal([]);
  });

  it('an update parked before its created claims its signature: the same pair on /cancelled is refused', async () => {
    const early = { event_timestamp: t + 500, order: { order_id: 'sig-3b', status: 'EARLY' } };
    const earlyHash = sign(keys.secretKey, 'updated', early);
    expect(expectOrders(await replay('updated', early, earlyHash), 200, 0).outcome).to.equal('PARKED');
    expectOrders(await replay('cancelled', early, earlyHash), 401, 4014);
    expect(await events('sig-3b')).to.deep.equal(['OrderEventParked']);
  });

  it('`|` inside a signed field is refused naming the field, and no second order is made from one signature', async () => {
    // The sender signed ts|gt|mini|sig-4|HOSTAPP|SELLER-9|total for order sig-4 ...
    const body = createdBody('sig-4', { event_timestamp: t }, { seller_merchant_id: 'SELLER-9' });
    const hash = sign(keys.secretKey, 'created', body);
    expectOrders(await replay('created', body, hash), 200, 0);
    // ... which reads the same with order_id "sig-4|HOSTAPP", platform_code "SELLER-9" and no seller.
    const { seller_merchant_id: _seller, ...order } = body.order;
    const moved = { ...body, platform_code: 'SELLER-9', order: { ...order, order_id: 'sig-4|HOSTAPP' } };
    expect(expectOrders(await replay('created', moved, hash), 400, 4001, /order\.order_id/)).to.deep.equal({
      field: 'order.order_id',
    });
    expect(await events('sig-4|HOSTAPP')).to.deep.equal([]);

    // Signed by the merchant itself, a `|` is still refused in every signed field, each named.
    const cases: [string, Body][] = [
      ['order.order_id', createdBody('sig|5', { event_timestamp: t })],
      ['platform_code', createdBody('sig-5', { event_timestamp: t, platform_code: 'HOST|APP' })],
      ['miniapp_id', createdBody('sig-5', { event_timestamp: t, miniapp_id: 'car|mini' })],
      ['order.branch_id', createdBody('sig-5', { event_timestamp: t }, { branch_id: 'BR|07' })],
      ['order.business_unit_id', createdBody('sig-5', { event_timestamp: t }, { business_unit_id: 'BU|01' })],
      ['order.seller_merchant_id', createdBody('sig-5', { event_timestamp: t }, { seller_merchant_id: 'S|9' })],
    ];
    for (const [field, signed] of cases) {
      const data = expectOrders(await sendWebhook(app, 'created', signed, { keys }), 400, 4001, /\|/);
      expect(data, field).to.deep.equal({ field });
    }
    for (const kind of ['updated', 'cancelled'] as const) {
      const data = expectOrders(
        await sendWebhook(app, kind, { event_timestamp: t, order: { order_id: 'sig-4|x' } }, { keys }),
        400,
        4001,
      );
      expect(data).to.deep.equal({ field: 'order.order_id' });
    }
    expect(await events('sig-5')).to.deep.equal([]);
    expect(await events('sig|5')).to.deep.equal([]);
  });

  it('an update (freshly signed) that changes the customer or the deeplink is refused naming it; the same values pass', async () => {
    expectOrders(await sendWebhook(app, 'created', createdBody('sig-6', { event_timestamp: t }), { keys }), 200, 0);
    const update = (at: number, order: Record<string, unknown>) => ({
      event_timestamp: at,
      order: { order_id: 'sig-6', ...order },
    });
    const created = createdBody('sig-6').order as { customer: object; deeplink: string };
    expectOrders(
      await sendWebhook(app, 'updated', update(t + 1000, { customer: { customer_id: 'user-2', name: 'X' } }), { keys }),
      409,
      4092,
      /order\.customer/,
    );
    const phishing = update(t + 1001, { deeplink: 'https://phishing.example/pay' });
    expect(expectOrders(await sendWebhook(app, 'updated', phishing, { keys }), 409, 4092)).to.deep.equal({
      field: 'order.deeplink',
    });
    expect(expectOrders(await sendWebhook(app, 'cancelled', phishing, { keys }), 409, 4092)).to.deep.equal({
      field: 'order.deeplink',
    });
    const same = update(t + 1002, { status: 'PAID', customer: created.customer, deeplink: created.deeplink });
    const answer = expectOrders(await sendWebhook(app, 'updated', same, { keys }), 200, 0);
    expect(answer).to.include({ outcome: 'APPLIED' });
    expect(answer.applied_fields).to.deep.equal(['status']);
    expect(await events('sig-6')).to.deep.equal(['OrderCreated', 'OrderUpdated']);

    const detail = await settle('sig-6', t + 3000);
    expect(detail).to.include({ customer_id: 'user-1', status: 'PAID' });
    expect(detail.order.deeplink).to.equal(created.deeplink);
  });

  it('a body with a wrong secure_hash is refused before its extension maps are walked: deep ones cost nothing', async () => {
    // Three branches nested 4000 deep in order.metadata: the raw-text walk (quadratic in depth before issue 29) used
    // to run before the signature check and held the event loop for seconds. Refused with a 4xx in well under that
    // (the signature's 4014 here; a JSON depth limit in front, where there is one, refuses it sooner).
    const deep = `{"a":${'{"a":'.repeat(4000)}1${'}'.repeat(4000)},"b":${'['.repeat(4000)}${']'.repeat(4000)},"c":${'{"c":'.repeat(4000)}{}${'}'.repeat(4000)}}`;
    const body = { ...createdBody('sig-deep', { event_timestamp: t }), secure_hash: 'f'.repeat(64) };
    const text = JSON.stringify(body).replace('"order":{', () => `"order":{"metadata":${deep},`);
    const started = process.hrtime.bigint();
    const res = await sendWebhook(app, 'created', body as Body, { keys, unsigned: true, rawBody: text });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect(res.status, res.text).to.be.oneOf([400, 401]);
    if (res.status === 401) expectOrders(res, 401, 4014);
    expect(ms, `answered in ${ms} ms`).to.be.below(1000);
    expect(await events('sig-deep')).to.deep.equal([]);
  });

  it('a resend of the same body to the same endpoint keeps its answer: the first answer under its X-Request-Id, DUPLICATE under a new one', async () => {
    const created = createdBody('sig-7', { event_timestamp: t });
    expectOrders(await sendWebhook(app, 'created', created, { keys }), 200, 0);
    for (const [kind, body] of [
      ['updated', { event_timestamp: t + 1000, order: { order_id: 'sig-7', status: 'CONFIRMED' } }],
      ['cancelled', { event_timestamp: t + 2000, order: { order_id: 'sig-7' } }],
    ] as [Kind, Body][]) {
      const requestId = randomUUID();
      const first = expectOrders(await sendWebhook(app, kind, body, { keys, requestId }), 200, 0);
      expect(first.outcome).to.equal('APPLIED');
      expect(expectOrders(await sendWebhook(app, kind, body, { keys, requestId }), 200, 0)).to.deep.equal(first);
      expect(expectOrders(await sendWebhook(app, kind, body, { keys }), 200, 0)).to.include({ outcome: 'DUPLICATE' });
    }
    // The created again, byte for byte, under a new X-Request-Id.
    expect(expectOrders(await sendWebhook(app, 'created', created, { keys }), 200, 0).outcome).to.equal('DUPLICATE');
    expect(await events('sig-7')).to.deep.equal(['OrderCreated', 'OrderUpdated', 'OrderCancelled']);
  });
});
