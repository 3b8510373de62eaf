import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { issueTestAccessToken, revokeTestAccessToken } from '../../support/access-tokens.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call, expectOk, operatorHeaders, type HeaderSet } from '../support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook, sign, type MerchantKeys } from './support.js';

interface Summary {
  merchant_id: string;
  order_id: string;
  order_type: string;
  order_type_known: boolean;
}
interface Detail extends Summary {
  order: Record<string, unknown>;
}

/**
 * What the other order view tests leave out (docs/orders-responses.md, docs/orders-read-models.md "Queries",
 * docs/orders-fields.md): product types, the early-event limit, the customer token codes, the daily statistics'
 * filters, transactions, fees and promotions in the detail, and extension maps sent in an update.
 */
describe('Order view codes and details (HTTP, PostgreSQL, projector)', () => {
  const clock = fixedClock(new Date());
  const base = clock.now().getTime() - 3 * 3_600_000;
  let app: TestApp;
  let keys: MerchantKeys;
  const tokens = new Map<string, string>();
  const tokenOf = async (user: string) => {
    if (!tokens.has(user)) tokens.set(user, await issueTestAccessToken(app, { userId: user, scopes: ['profile'] }));
    return tokens.get(user)!;
  };
  const asCustomer = <T = unknown>(path: string, headers: HeaderSet) =>
    call<T>(app.baseUrl, 'GET', `/order/cov/app/v1/orders${path}`, { headers: { ...gatewayHeaders(), ...headers } });
  const mine = async <T>(user: string, path = '') =>
    asCustomer<T>(path, { Authorization: `Bearer ${await tokenOf(user)}` });
  const portal = <T>(path: string) =>
    call<T>(app.baseUrl, 'GET', `/operator/v1/orders${path}`, { headers: operatorHeaders() });
  const created = (id: string, user: string, at: number, order: Record<string, unknown> = {}, k = keys) =>
    sendWebhook(
      app,
      'created',
      createdBody(id, { event_timestamp: at }, { customer: { customer_id: user, name: `Customer ${user}` }, ...order }),
      { keys: k },
    );
  /** The customer's and the portal's detail of an order, once the read model holds it and `check` passes on both. */
  const bothDetails = (user: string, id: string, check: (d: Detail, text: string) => void) =>
    eventually(async () => {
      const own = await mine<Detail>(user, `/CD_A/${id}`);
      check(expectOrders(own, 200, 0), own.text);
      const seen = await portal<Detail>(`/CD_A/${id}`);
      check(expectOk(seen), seen.text);
    });

  before(async () => {
    app = await startTestApp({ clock, env: { ORDERS_MAX_EARLY_EVENTS: '3' } });
    keys = await merchantWithKey(app, 'CD_A');
  });
  after(() => app?.stop());

  it('the five named product types: no warning, order_type_known true; another: a warning naming it, false', async () => {
    const named = ['AFTER_SALES', 'CAR_PURCHASE', 'BILLING_PAYMENT', 'PROMOTION_PURCHASE', 'EV_AND_CHARGING'];
    for (const [i, type] of named.entries()) {
      const data = expectOrders(await created(`pt-${i}`, 'cust-pt', base + i, { order_type: type }), 200, 0);
      expect(data, type).to.include({ outcome: 'CREATED' });
      expect(data.warnings, type).to.deep.equal([]);
    }
    const other = expectOrders(await created('pt-x', 'cust-pt', base + 9, { order_type: 'GROCERY' }), 200, 0);
    expect(other.outcome).to.equal('CREATED');
    expect(other.warnings).to.deep.equal([
      'order_type GROCERY is not one of the named product types; accepted and flagged',
    ]);
    const expected = [...named.map((t) => [t, true]), ['GROCERY', false]];
    await eventually(async () => {
      const page = expectOrders(await mine<{ orders: Summary[] }>('cust-pt'), 200, 0);
      expect(page.orders.map((o) => [o.order_type, o.order_type_known])).to.have.deep.members(expected);
    });
    const page = expectOk(await portal<{ orders: Summary[] }>('?customer_id=cust-pt'));
    expect(page.orders.map((o) => [o.order_type, o.order_type_known])).to.have.deep.members(expected);
  });

  it('409 4093 with data.limit once ORDERS_MAX_EARLY_EVENTS (3 here) events wait; the created applies those 3', async () => {
    const early = (kind: 'updated' | 'cancelled', at: number) =>
      sendWebhook(
        app,
        kind,
        { event_timestamp: at, order: { order_id: 'early-max', status: `S${at - base}` } },
        { keys },
      );
    for (const i of [1, 2, 3])
      expect(expectOrders(await early('updated', base + i), 200, 0).outcome).to.equal('PARKED');
    expect(expectOrders(await early('updated', base + 4), 409, 4093, /order\.created/)).to.deep.equal({ limit: 3 });
    expect(expectOrders(await early('cancelled', base + 5), 409, 4093)).to.deep.equal({ limit: 3 });
    const stream = async () => (await app.container.store.readStream('order-CD_A-early-max')).map((e) => e.type);
    expect(await stream()).to.deep.equal(['OrderEventParked', 'OrderEventParked', 'OrderEventParked']);
    expect(expectOrders(await created('early-max', 'cust-early', base), 200, 0)).to.include({
      outcome: 'CREATED',
      early_applied: 3,
      early_discarded: 0,
    });
    // The refused one was not recorded: sent again now, it applies.
    expect(expectOrders(await early('updated', base + 4), 200, 0).outcome).to.equal('APPLIED');
  });

  it('customer queries: token invalid 4100, missing 4101, expired 4102, revoked 4103, each a 401 in the envelope', async () => {
    const refused = async (path: string, headers: HeaderSet, code: number, error?: string) => {
      const res = await asCustomer(path, headers);
      expect(expectOrders(res, 401, code), res.text).to.equal(null);
      const challenge = res.headers.get('www-authenticate');
      expect(challenge).to.match(/^Bearer realm="orders"/);
      if (error) expect(challenge).to.include(`error="${error}"`);
    };
    const good = await issueTestAccessToken(app, { userId: 'cust-tok', scopes: ['profile'] });
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
    for (const path of ['', '/CD_A/nope']) {
      await refused(path, {}, 4101);
      await refused(path, { Authorization: 'Basic dXNlcjpwYXNz' }, 4101, 'invalid_request');
      await refused(path, bearer('not-a-token'), 4100, 'invalid_token');
    }
    const [head, payload, signature] = good.split('.');
    const tampered = `${head}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    await refused('', bearer(tampered), 4100, 'invalid_token');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: 'cust-other' })).toString('base64url')}.${signature}`;
    await refused('', bearer(forged), 4100, 'invalid_token');

    const revoked = await issueTestAccessToken(app, { userId: 'cust-tok', scopes: ['profile'] });
    expectOrders(await asCustomer('', bearer(revoked)), 200, 0);
    await revokeTestAccessToken(app, revoked);
    await refused('', bearer(revoked), 4103, 'invalid_token');
    await refused('/CD_A/nope', bearer(revoked), 4103, 'invalid_token');
    expectOrders(await asCustomer('', bearer(good)), 200, 0); // another grant: untouched

    const ttl = app.container.config.IDENTITY_ACCESS_TOKEN_TTL_SECONDS * 1000;
    const now = clock.now();
    try {
      clock.advance(ttl - 1000);
      expectOrders(await asCustomer('', bearer(good)), 200, 0);
      clock.advance(1000);
      await refused('', bearer(good), 4102, 'invalid_token');
      await refused('/CD_A/nope', bearer(good), 4102, 'invalid_token');
    } finally {
      clock.set(now); // the other tests' tokens stay valid
    }
  });

  it('daily statistics: filtered by order_type, by status and by both, only the matching rows', async () => {
    const merchant = await merchantWithKey(app, 'CD_S');
    const money = (grand: number) => ({ amounts: { currency: 'VND', total_amount: grand, grand_total: grand } });
    for (const [id, order_type, status, grand] of [
      ['s1', 'CAR_PURCHASE', 'CREATED', 9_000_000],
      ['s2', 'CAR_PURCHASE', 'PAID', 8_000_000],
      ['s3', 'AFTER_SALES', 'CREATED', 500],
      ['s4', 'AFTER_SALES', 'PAID', 700],
      ['s5', 'AFTER_SALES', 'PAID', 300],
    ] as const)
      expectOrders(await created(id, 'cust-s', base, { order_type, status, ...money(grand) }, merchant), 200, 0);
    const day = new Date(base).toISOString().slice(0, 10);
    const row = (order_type: string, status: string, order_count: number, gmv: number) => ({
      day,
      merchant_id: 'CD_S',
      order_type,
      status,
      currency: 'VND',
      order_count,
      gmv,
    });
    const stats = async (filter: string) =>
      expectOk(
        await portal<{ days: ReturnType<typeof row>[] }>(
          `/daily-stats?from=${day}&to=${day}&merchant_id=CD_S${filter}`,
        ),
      ).days;
    await eventually(async () =>
      expect(await stats('')).to.have.deep.members([
        row('CAR_PURCHASE', 'CREATED', 1, 9_000_000),
        row('CAR_PURCHASE', 'PAID', 1, 8_000_000),
        row('AFTER_SALES', 'CREATED', 1, 500),
        row('AFTER_SALES', 'PAID', 2, 1000),
      ]),
    );
    expect(await stats('&order_type=AFTER_SALES')).to.have.deep.members([
      row('AFTER_SALES', 'CREATED', 1, 500),
      row('AFTER_SALES', 'PAID', 2, 1000),
    ]);
    expect(await stats('&status=PAID')).to.have.deep.members([
      row('CAR_PURCHASE', 'PAID', 1, 8_000_000),
      row('AFTER_SALES', 'PAID', 2, 1000),
    ]);
    expect(await stats('&order_type=CAR_PURCHASE&status=CREATED')).to.deep.equal([
      row('CAR_PURCHASE', 'CREATED', 1, 9_000_000),
    ]);
    expect(await stats('&order_type=EV_AND_CHARGING')).to.deep.equal([]);
    expect(await stats('&status=CANCELLED')).to.deep.equal([]);
  });

  it("order detail (customer and portal): the transactions as sent in the created, then an update's; fees and promotions", async () => {
    const fees = [
      { fee_code: 'SHIP', description: 'Giao xe tận nhà', amount: 1_500_000 },
      { fee_code: 'REG', amount: 0 },
    ];
    const promotions = [
      {
        voucher_code: 'VF-10',
        voucher_id: 'V-77',
        campaign_id: 'C-1',
        campaign_name: 'Tết 2026',
        discount_type: 'PERCENT',
        discount_value: 5,
        amount_before_discount: 10_000_000,
        discount_amount: 500_000,
        amount_after_discount: 9_500_000,
      },
    ];
    const first = [
      {
        transaction_id: 'T1',
        provider: 'VNPAY',
        method: 'QR',
        amount: 9_500_000,
        status: 'PENDING',
        captured_at: base,
      },
    ];
    const order = { fees, promotion_infos: promotions, transactions: first };
    expectOrders(await created('tx-1', 'cust-tx', base, order), 200, 0);
    const shows = (transactions: unknown[]) => (d: Detail) => {
      expect(d.order.transactions).to.deep.equal(transactions);
      expect(d.order.fees).to.deep.equal(fees);
      expect(d.order.promotion_infos).to.deep.equal(promotions);
    };
    await bothDetails('cust-tx', 'tx-1', shows(first));
    const second = [
      { ...first[0]!, status: 'COMPLETED', captured_at: base + 900 },
      {
        transaction_id: 'T2',
        provider: 'MOMO',
        method: 'WALLET',
        voucher_code: 'VF-10',
        amount: 0,
        status: 'FAILED',
        note: 'khách hủy',
      },
    ];
    const update = { event_timestamp: base + 1000, order: { order_id: 'tx-1', transactions: second } };
    const answer = expectOrders(await sendWebhook(app, 'updated', update, { keys }), 200, 0);
    expect(answer).to.deep.include({ outcome: 'APPLIED', applied_fields: ['transactions'], stale_fields: [] });
    await bothDetails('cust-tx', 'tx-1', shows(second));
  });

  it('extension maps sent in an order.updated are stored and answered byte for byte as sent', async () => {
    const [deposit] = createdBody('x').order.items as Record<string, unknown>[];
    const before = { metadata: { v: 1 }, attributes: { pickup: 'HCM' } };
    expectOrders(await created('maps-1', 'cust-maps', base, before), 200, 0);
    await bothDetails('cust-maps', 'maps-1', (_, text) => expect(text).to.include('"metadata":{"v":1}'));
    // Each map's raw text stands where a placeholder string was; the signature does not cover them.
    const maps: Record<string, string> = {
      '@order-metadata@': '{ "z":1.50 ,"a" : "\\u00e9 $& x","list":[1 , 2.0e+1, -0.0],"z":"again"}',
      '@order-attributes@': '{"pickup":"Hà Nội",\n  "nested":{ "k" : {} }}',
      '@item-attributes@': '{"color" :"đỏ","n":1E3 }',
      '@extra-data@': '{"tier":  "gold","ratio":0.10,"emoji":"\\ud83d\\ude00"}',
    };
    const body = {
      event_timestamp: base + 1000,
      order: {
        order_id: 'maps-1',
        metadata: '@order-metadata@',
        attributes: '@order-attributes@',
        items: [{ ...deposit, attributes: '@item-attributes@' }],
        promotion_infos: [{ voucher_code: 'V2', discount_amount: 100, extra_data: '@extra-data@' }],
      },
    };
    let text = JSON.stringify({ secure_hash: sign(keys.secretKey, 'updated', body), ...body });
    for (const [placeholder, raw] of Object.entries(maps)) text = text.replace(`"${placeholder}"`, () => raw);
    const answer = expectOrders(await sendWebhook(app, 'updated', body, { keys, rawBody: text }), 200, 0);
    expect(answer.outcome).to.equal('APPLIED');
    expect(answer.applied_fields).to.have.members(['metadata', 'attributes', 'items', 'promotion_infos']);
    const events = await app.container.store.readStream('order-CD_A-maps-1');
    const stored = (events.at(-1)!.data as { order: Record<string, unknown> }).order as {
      metadata: string;
      attributes: string;
      items: { attributes: string }[];
      promotion_infos: { extra_data: string }[];
    };
    expect(events.at(-1)!.type).to.equal('OrderUpdated');
    expect(stored.metadata).to.equal(maps['@order-metadata@']);
    expect(stored.attributes).to.equal(maps['@order-attributes@']);
    expect(stored.items[0]!.attributes).to.equal(maps['@item-attributes@']);
    expect(stored.promotion_infos[0]!.extra_data).to.equal(maps['@extra-data@']);
    await bothDetails('cust-maps', 'maps-1', (_, answerText) => {
      expect(answerText).to.include(`"metadata":${maps['@order-metadata@']}`);
      expect(answerText).to.include(`"attributes":${maps['@order-attributes@']}`);
      expect(answerText).to.include(`"attributes":${maps['@item-attributes@']}`);
      expect(answerText).to.include(`"extra_data":${maps['@extra-data@']}`);
      expect(answerText).not.to.include('"metadata":{"v":1}');
      expect(answerText).not.to.include('@');
    });
  });
});
