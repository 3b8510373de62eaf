import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { fixedClock } from '../../../application/shared/clock.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call } from '../support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook, sign, type MerchantKeys } from './support.js';

/** The three webhooks over HTTP, behind the gateway, on PostgreSQL (docs/orders-responses.md, "Answers and codes"). */
describe('Order view webhooks (HTTP, PostgreSQL)', () => {
  let app: TestApp;
  let keys: MerchantKeys;
  let other: MerchantKeys;
  const orderEvents = async (merchantId: string, orderId: string) =>
    (await app.container.store.readStream(`order-${merchantId}-${orderId}`)).map((e) => e.type);

  before(async () => {
    app = await startTestApp({ background: false });
    keys = await merchantWithKey(app, 'P_WH');
    other = await merchantWithKey(app, 'P_OTHER');
  });
  after(() => app?.stop());

  it('created: 200, code 0, outcome CREATED; the event carries the snapshot and the merchant as actor', async () => {
    const data = expectOrders(await sendWebhook(app, 'created', createdBody('wh-1'), { keys }), 200, 0, /Success/);
    expect(data).to.deep.equal({
      order_id: 'wh-1',
      event: 'order.created',
      outcome: 'CREATED',
      applied_fields: [],
      stale_fields: [],
      early_applied: 0,
      early_discarded: 0,
      warnings: [],
    });
    const [created] = await app.container.store.readStream('order-P_WH-wh-1');
    expect(created!.type).to.equal('OrderCreated');
    expect(created!.metadata.actor).to.deep.equal({ merchantId: 'P_WH' });
    expect(created!.data).to.deep.include({
      source: { created_by: 'user-1', platform_code: 'HOSTAPP', miniapp_id: 'car-mini' },
    });
  });

  it('an order_type not among the named ones is accepted and flagged', async () => {
    const data = expectOrders(
      await sendWebhook(app, 'created', createdBody('wh-taxi', {}, { order_type: 'TAXI' }), { keys }),
      200,
      0,
    );
    expect(data.warnings).to.deep.equal([
      'order_type TAXI is not one of the named product types; accepted and flagged',
    ]);
  });

  it('X-Request-Id: an identical resend gets the first answer and appends nothing; another body under it is 409 4090', async () => {
    const requestId = randomUUID();
    const body = createdBody('wh-idem');
    const first = expectOrders(await sendWebhook(app, 'created', body, { keys, requestId }), 200, 0);
    const again = expectOrders(await sendWebhook(app, 'created', body, { keys, requestId }), 200, 0);
    expect(again).to.deep.equal(first);
    expect(await orderEvents('P_WH', 'wh-idem')).to.deep.equal(['OrderCreated']);
    const changed = createdBody('wh-idem', { event_timestamp: body.event_timestamp + 1 });
    expectOrders(
      await sendWebhook(app, 'created', changed, { keys, requestId }),
      409,
      4090,
      /X-Request-Id|idempotency/i,
    );
  });

  it('a repeat under a new X-Request-Id is a DUPLICATE no-op; a created with other content is 409 4091', async () => {
    const body = createdBody('wh-rep');
    expectOrders(await sendWebhook(app, 'created', body, { keys }), 200, 0);
    // A retry with a fresh event_timestamp is still the same created.
    const retry = { ...body, event_timestamp: body.event_timestamp + 5000 };
    expect(expectOrders(await sendWebhook(app, 'created', retry, { keys }), 200, 0).outcome).to.equal('DUPLICATE');
    const otherContent = createdBody('wh-rep', {}, { status: 'OTHER' });
    expectOrders(await sendWebhook(app, 'created', otherContent, { keys }), 409, 4091);
    expect(await orderEvents('P_WH', 'wh-rep')).to.deep.equal(['OrderCreated']);
  });

  it('updated and cancelled: applied, late (stale), early (parked then applied), immutable fields refused', async () => {
    const t = Date.now() - 50_000;
    expectOrders(await sendWebhook(app, 'created', createdBody('wh-up', { event_timestamp: t }), { keys }), 200, 0);
    const paid = {
      event_timestamp: t + 2000,
      order: {
        order_id: 'wh-up',
        payment_status: 'PAID',
        amounts: { grand_total: 9_500_000, total_amount: 10_000_000, paid_amount: 9_500_000 },
      },
    };
    expect(expectOrders(await sendWebhook(app, 'updated', paid, { keys }), 200, 0)).to.include({ outcome: 'APPLIED' });
    const late = { event_timestamp: t + 1000, order: { order_id: 'wh-up', payment_status: 'PENDING' } };
    const stale = expectOrders(await sendWebhook(app, 'updated', late, { keys }), 200, 0);
    expect(stale).to.include({ outcome: 'STALE' });
    expect(stale.stale_fields).to.deep.equal(['payment_status']);
    const moved = { event_timestamp: t + 3000, order: { order_id: 'wh-up', branch_id: 'BR-99' } };
    expectOrders(await sendWebhook(app, 'updated', moved, { keys }), 409, 4092, /branch_id/);
    const cancelled = { event_timestamp: t + 4000, order: { order_id: 'wh-up' } };
    expect(expectOrders(await sendWebhook(app, 'cancelled', cancelled, { keys }), 200, 0)).to.include({
      outcome: 'APPLIED',
      event: 'order.cancelled',
    });
    expect(await orderEvents('P_WH', 'wh-up')).to.deep.equal([
      'OrderCreated',
      'OrderUpdated',
      'OrderUpdated',
      'OrderCancelled',
    ]);

    const early = { event_timestamp: t + 1000, order: { order_id: 'wh-early', status: 'SHIPPING' } };
    expect(expectOrders(await sendWebhook(app, 'updated', early, { keys }), 200, 0)).to.include({ outcome: 'PARKED' });
    const created = expectOrders(
      await sendWebhook(app, 'created', createdBody('wh-early', { event_timestamp: t }), { keys }),
      200,
      0,
    );
    expect(created).to.include({ outcome: 'CREATED', early_applied: 1 });
  });

  it("another merchant's key cannot touch an order: its update goes to its own order, parked there", async () => {
    expectOrders(await sendWebhook(app, 'created', createdBody('wh-mine'), { keys }), 200, 0);
    const update = { event_timestamp: Date.now() - 1000, order: { order_id: 'wh-mine', status: 'HIJACKED' } };
    expect(expectOrders(await sendWebhook(app, 'updated', update, { keys: other }), 200, 0)).to.include({
      outcome: 'PARKED',
    });
    expect(await orderEvents('P_WH', 'wh-mine')).to.deep.equal(['OrderCreated']);
    // Signed with the other merchant's secret but sent with this merchant's key: refused.
    const body = { ...update, secure_hash: sign(other.secretKey, 'updated', update) };
    expectOrders(await sendWebhook(app, 'updated', body as never, { keys, unsigned: true }), 401, 4014);
  });

  it('extension maps are stored byte for byte as sent', async () => {
    const body = createdBody('wh-raw');
    const signed = { secure_hash: sign(keys.secretKey, 'created', body), ...body };
    const text = JSON.stringify(signed).replace(
      '"order":{',
      '"order":{"metadata" : {"z":1.50,"a":"\\u00e9","1":[true, {}]},"attributes":{ "pickup" : "Hà Nội" },',
    );
    expectOrders(await sendWebhook(app, 'created', body, { keys, rawBody: text }), 200, 0);
    const [created] = await app.container.store.readStream('order-P_WH-wh-raw');
    const order = (created!.data as { order: Record<string, unknown> }).order;
    expect(order.metadata).to.equal('{"z":1.50,"a":"\\u00e9","1":[true, {}]}');
    expect(order.attributes).to.equal('{ "pickup" : "Hà Nội" }');
  });

  it('event_timestamp outside the window is 400 4003 naming it', async () => {
    const old = createdBody('wh-old', { event_timestamp: Date.now() - 40 * 86_400_000 });
    expect(expectOrders(await sendWebhook(app, 'created', old, { keys }), 400, 4003)).to.deep.equal({
      field: 'event_timestamp',
    });
    const future = createdBody('wh-future', { event_timestamp: Date.now() + 3_600_000 });
    expectOrders(await sendWebhook(app, 'created', future, { keys }), 400, 4003);
  });

  describe('refusals, each in the envelope with a 4xx', () => {
    const path = '/order/cov/webhook/v1/orders/created';
    const send = (headers: Record<string, string | undefined>, rawBody = '{}') =>
      call(app.baseUrl, 'POST', path, {
        headers: {
          ...gatewayHeaders(),
          'Content-Type': 'application/json',
          'X-API-Key': keys.apiKey,
          'X-Request-Id': randomUUID(),
          ...headers,
        },
        rawBody,
      });

    it('gateway credentials missing or wrong: 401 4110 / 4111', async () => {
      expectOrders(await send({ client_id: undefined, client_secret: undefined }), 401, 4110);
      expectOrders(await send({ client_secret: 'wrong-secret-0123456789' }), 401, 4111);
    });
    it('gateway: an env header naming another environment is 400 4006; the same one passes the gateway', async () => {
      expectOrders(await send({ env: 'prod' }), 400, 4006);
      expectOrders(await send({ env: 'DEV' }), 400, 4001); // through the gateway, refused by the field rules
    });
    it('X-API-Key missing, malformed, unknown: 401 4010 / 4011 / 4012', async () => {
      expectOrders(await send({ 'X-API-Key': undefined }), 401, 4010);
      expectOrders(await send({ 'X-API-Key': 'ak_prod_0123456789abcdefghij0123456789ab' }), 401, 4011);
      expectOrders(await send({ 'X-API-Key': `ak_test_${'A'.repeat(32)}` }), 401, 4012);
    });
    it('X-Request-Id missing or not a UUID v4: 400 4002', async () => {
      expectOrders(await send({ 'X-Request-Id': undefined }), 400, 4002);
      expectOrders(await send({ 'X-Request-Id': 'not-a-uuid' }), 400, 4002);
      expectOrders(await send({ 'X-Request-Id': '6ba7b810-9dad-11d1-80b4-00c04fd430c8' }), 400, 4002); // v1
    });
    it('a bad secure_hash: 401 4014', async () => {
      const body = { ...createdBody('wh-bad'), secure_hash: 'f'.repeat(64) };
      expectOrders(await send({}, JSON.stringify(body)), 401, 4014, /secure_hash/);
    });
    it('a field broken: 400 4001 naming it', async () => {
      const body = createdBody('wh-field', {}, { customer: { customer_id: 'u', name: 'n', phone: '123' } });
      const data = expectOrders(await sendWebhook(app, 'created', body, { keys }), 400, 4001, /order\.customer\.phone/);
      expect(data).to.deep.equal({ field: 'order.customer.phone' });
    });
    it('not JSON, malformed JSON, not an object, too large: 415 4150 / 400 4001 / 413 4130', async () => {
      expectOrders(await send({ 'Content-Type': 'text/plain' }, 'hello'), 415, 4150);
      expectOrders(await send({}, '{"order":'), 400, 4001, /JSON/);
      expectOrders(await send({}, '[1,2]'), 400, 4001, /object/);
      expectOrders(await send({}, JSON.stringify({ pad: 'x'.repeat(1_100_000) })), 413, 4130);
    });
    it('an unknown path under /order/cov: 404 4300', async () => {
      const res = await call(app.baseUrl, 'POST', '/order/cov/webhook/v1/orders/deleted', {
        headers: gatewayHeaders(),
        json: {},
      });
      expectOrders(res, 404, 4300);
    });
  });

  it('concurrent webhooks on one order: every one answered 200 and recorded once', async () => {
    const t = Date.now() - 30_000;
    expectOrders(await sendWebhook(app, 'created', createdBody('wh-race', { event_timestamp: t }), { keys }), 200, 0);
    const updates = Array.from({ length: 12 }, (_, i) => ({
      event_timestamp: t + 1 + i,
      order: { order_id: 'wh-race', status: `S${i}` },
    }));
    const answers = await Promise.all(updates.map((u) => sendWebhook(app, 'updated', u, { keys })));
    for (const a of answers) expectOrders(a, 200, 0);
    const events = await app.container.store.readStream('order-P_WH-wh-race');
    expect(events).to.have.length(13);
    // Whatever order they were written in, the newest status is the one shown.
    const applied = events.slice(1).filter((e) => (e.data as { applied: string[] }).applied.includes('status'));
    const newest = applied.reduce((a, e) => Math.max(a, (e.data as { eventTimestamp: number }).eventTimestamp), 0);
    expect(newest).to.equal(t + 12);
  });
});

describe('Order view webhooks: a resend after the event_timestamp window (HTTP, PostgreSQL)', () => {
  let app: TestApp;
  let keys: MerchantKeys;
  const clock = fixedClock(new Date());

  before(async () => {
    app = await startTestApp({ background: false, clock });
    keys = await merchantWithKey(app, 'P_LATE');
  });
  after(() => app?.stop());

  it('an identical resend under its X-Request-Id gets the first answer; a new request with that timestamp is 400 4003', async () => {
    const body = createdBody('wh-late', { event_timestamp: clock.now().getTime() });
    const requestId = randomUUID();
    const first = expectOrders(await sendWebhook(app, 'created', body, { keys, requestId }), 200, 0);
    clock.advance(31 * 86_400_000); // past the default window (72 h), and the 30 days it was before
    const again = expectOrders(await sendWebhook(app, 'created', body, { keys, requestId }), 200, 0);
    expect(again).to.deep.equal(first);
    expect(await app.container.store.readStream('order-P_LATE-wh-late')).to.have.length(1);
    const other = createdBody('wh-late-2', { event_timestamp: body.event_timestamp });
    expect(expectOrders(await sendWebhook(app, 'created', other, { keys }), 400, 4003)).to.deep.equal({
      field: 'event_timestamp',
    });
  });
});
