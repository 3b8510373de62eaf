import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { issueExpiredTestAccessToken, issueTestAccessToken } from '../../support/access-tokens.js';
import { eventually } from '../../support/eventually.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call, expectEnvelope, expectOk, operatorHeaders } from '../support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook, sign, type MerchantKeys } from './support.js';

interface Page {
  orders: { merchant_id: string; order_id: string; status: string; customer_id: string; order_type_known: boolean }[];
  total: number;
  counts_by_status: Record<string, number> | null;
  counts_exact: boolean;
  next_cursor: string | null;
}

/** The read models over the whole app (projector running), through the customer's and the portal's queries. */
describe('Order view read models (HTTP, PostgreSQL, projector)', () => {
  let app: TestApp;
  let a: MerchantKeys;
  let b: MerchantKeys;
  let tokenOf: (user: string) => Promise<string>;
  const base = Date.now() - 3 * 3_600_000;
  const customer = (id: string) => ({ customer: { customer_id: id, name: `Customer ${id}` } });
  const portal = (query: string) =>
    call<Page>(app.baseUrl, 'GET', `/operator/v1/orders${query}`, { headers: operatorHeaders() });
  const mine = async (user: string, query = '') =>
    call<Page>(app.baseUrl, 'GET', `/order/cov/app/v1/orders${query}`, {
      headers: { ...gatewayHeaders(), Authorization: `Bearer ${await tokenOf(user)}` },
    });

  before(async () => {
    app = await startTestApp();
    a = await merchantWithKey(app, 'RM_A');
    b = await merchantWithKey(app, 'RM_B');
    const tokens = new Map<string, string>();
    tokenOf = async (user) => {
      if (!tokens.has(user)) tokens.set(user, await issueTestAccessToken(app, { userId: user, scopes: ['profile'] }));
      return tokens.get(user)!;
    };
    const created = (keys: MerchantKeys, id: string, user: string, at: number, order: Record<string, unknown> = {}) =>
      sendWebhook(app, 'created', createdBody(id, { event_timestamp: at }, { ...customer(user), ...order }), { keys });
    for (const r of [
      await created(a, 'o1', 'cust-1', base),
      await created(a, 'o2', 'cust-1', base + 1000, {
        order_type: 'BILLING_PAYMENT',
        amounts: { currency: 'VND', total_amount: 500, grand_total: 500 },
      }),
      await created(b, 'o1', 'cust-2', base + 2000, {
        order_type: 'TAXI',
        business_unit_id: 'BU-9',
        branch_id: 'BR-9',
        seller_merchant_id: 'SELLER-3',
      }),
      await created(a, 'o3', 'cust-1', base + 3000),
    ])
      expectOrders(r, 200, 0);
    // o1 paid then cancelled; a late update that must not win; an early update on o4 before its created.
    const update = (id: string, at: number, order: Record<string, unknown>) =>
      sendWebhook(app, 'updated', { event_timestamp: at, order: { order_id: id, ...order } }, { keys: a });
    expectOrders(await update('o1', base + 10_000, { payment_status: 'PAID', status: 'PAID' }), 200, 0);
    expectOrders(
      await sendWebhook(app, 'cancelled', { event_timestamp: base + 20_000, order: { order_id: 'o1' } }, { keys: a }),
      200,
      0,
    );
    expectOrders(await update('o1', base + 5000, { status: 'PROCESSING' }), 200, 0);
    expectOrders(await update('o4', base + 9000, { status: 'DELIVERED' }), 200, 0);
    expectOrders(await created(a, 'o4', 'cust-1', base + 4000), 200, 0);
    await eventually(async () => expect(expectOk(await portal('')).total).to.equal(5));
  });
  after(() => app?.stop());

  it("the customer's own orders only, newest first, with filters and paging", async () => {
    const page = expectOrders(await mine('cust-1'), 200, 0);
    expect(page.orders.map((o) => `${o.merchant_id}/${o.order_id}`)).to.deep.equal([
      'RM_A/o4',
      'RM_A/o3',
      'RM_A/o2',
      'RM_A/o1',
    ]);
    expect(page.total).to.equal(4);
    expect(page.counts_by_status).to.deep.equal({ CANCELLED: 1, CREATED: 2, DELIVERED: 1 });
    expect(page.counts_exact).to.equal(true);
    expect(expectOrders(await mine('cust-1', '?status=CANCELLED'), 200, 0).orders.map((o) => o.order_id)).to.deep.equal(
      ['o1'],
    );
    expect(
      expectOrders(await mine('cust-1', '?order_type=BILLING_PAYMENT'), 200, 0).orders.map((o) => o.order_id),
    ).to.deep.equal(['o2']);
    const second = expectOrders(await mine('cust-1', '?page=2&size=3'), 200, 0);
    expect(second.orders.map((o) => o.order_id)).to.deep.equal(['o1']);
    expect(second.next_cursor).to.equal(null);
    const first = expectOrders(await mine('cust-1', '?size=3'), 200, 0);
    const after = expectOrders(await mine('cust-1', `?size=3&after=${first.next_cursor}`), 200, 0);
    expect(after.orders.map((o) => o.order_id)).to.deep.equal(['o1']);
    expect(after.total).to.equal(4);
    expect(expectOrders(await mine('cust-1', '?after=bm90IGEgY3Vyc29y'), 400, 4001, /next_cursor/)).to.deep.equal({
      field: 'after',
    });
    expect(expectOrders(await mine('cust-1', `?page=2&after=${first.next_cursor}`), 400, 4001)).to.deep.equal({
      field: 'page',
    });
    expect(
      expectOrders(await mine('cust-2'), 200, 0).orders.map((o) => [o.order_id, o.order_type_known]),
    ).to.deep.equal([['o1', false]]);
    expect(expectOrders(await mine('cust-1', '?size=500'), 400, 4001)).to.deep.equal({ field: 'size' });
    expect(expectOrders(await mine('cust-1', '?page=101&size=100'), 400, 4001, /page × size/)).to.deep.equal({
      field: 'page',
    });
  });

  it("an order's detail: the late update kept in history but not shown, early one applied after the created", async () => {
    const res = await call(app.baseUrl, 'GET', '/order/cov/app/v1/orders/RM_A/o1', {
      headers: { ...gatewayHeaders(), Authorization: `Bearer ${await tokenOf('cust-1')}` },
    });
    const detail = expectOrders(res, 200, 0) as unknown as {
      status: string;
      cancelled: boolean;
      order: { status: string; payment_status: string; items: unknown[]; amounts: Record<string, number> };
      history: { event: string; applied_fields: string[]; stale_fields: string[]; early: boolean }[];
    };
    expect(detail).to.include({ status: 'CANCELLED', cancelled: true });
    expect(detail.order).to.include({ status: 'CANCELLED', payment_status: 'PAID' });
    expect(detail.order.items).to.have.length(1);
    expect(detail.history.map((h) => [h.event, h.applied_fields, h.stale_fields, h.early])).to.deep.equal([
      ['order.created', [], [], false],
      ['order.updated', [], ['status'], false],
      ['order.updated', ['status', 'payment_status'], [], false],
      ['order.cancelled', ['status'], [], false],
    ]);
    const o4 = await call(app.baseUrl, 'GET', '/order/cov/app/v1/orders/RM_A/o4', {
      headers: { ...gatewayHeaders(), Authorization: `Bearer ${await tokenOf('cust-1')}` },
    });
    expect(expectOrders(o4, 200, 0)).to.deep.include({ status: 'DELIVERED' });
  });

  it("another customer's order is not found; no token, an expired one: 401", async () => {
    const other = await call(app.baseUrl, 'GET', '/order/cov/app/v1/orders/RM_B/o1', {
      headers: { ...gatewayHeaders(), Authorization: `Bearer ${await tokenOf('cust-1')}` },
    });
    expectOrders(other, 404, 4301);
    expectOrders(await call(app.baseUrl, 'GET', '/order/cov/app/v1/orders', { headers: gatewayHeaders() }), 401, 4101);
    const expired = await issueExpiredTestAccessToken(app, 'cust-1');
    const res = await call(app.baseUrl, 'GET', '/order/cov/app/v1/orders', {
      headers: { ...gatewayHeaders(), Authorization: `Bearer ${expired}` },
    });
    expectOrders(res, 401, 4102);
  });

  it('extension maps come back byte for byte in the answer, at every place the seed has them', async () => {
    // Each map's raw text stands where a placeholder string was; the signature does not cover them.
    const maps: Record<string, string> = {
      '@order-metadata@': '{"z" : 1.50, "a":"\\u00e9 $& x", "list":[ 1,2 ]}',
      '@order-attributes@': '{ "pickup" : "Hà Nội" }',
      '@item-attributes@': '{"color":"đỏ",  "n":1e3}',
      '@sub-item-attributes@': '{}',
      '@fee-metadata@': '{"b":2,"a":1}',
      '@extra-data@': '{"nested":{"x":[null, false]}, "u":"\\ud83d\\ude00"}',
    };
    const [deposit] = createdBody('x').order.items as Record<string, unknown>[];
    const body = createdBody(
      'raw-1',
      { event_timestamp: base + 30_000 },
      {
        ...customer('cust-3'),
        metadata: '@order-metadata@',
        attributes: '@order-attributes@',
        items: [
          {
            ...deposit,
            attributes: '@item-attributes@',
            sub_items: [{ ...deposit, item_id: undefined, sub_item_id: 's1', attributes: '@sub-item-attributes@' }],
          },
        ],
        fees: [{ fee_code: 'SHIP', amount: 0, metadata: '@fee-metadata@' }],
        promotion_infos: [{ voucher_code: 'V1', discount_amount: 500_000, extra_data: '@extra-data@' }],
      },
    );
    const signed = { secure_hash: sign(a.secretKey, 'created', body), ...body };
    let text = JSON.stringify(signed);
    for (const [placeholder, raw] of Object.entries(maps)) text = text.replace(`"${placeholder}"`, () => raw);
    expectOrders(await sendWebhook(app, 'created', body, { keys: a, rawBody: text }), 200, 0);
    const res = await eventually(async () => {
      const r = await call(app.baseUrl, 'GET', '/order/cov/app/v1/orders/RM_A/raw-1', {
        headers: { ...gatewayHeaders(), Authorization: `Bearer ${await tokenOf('cust-3')}` },
      });
      expect(r.status).to.equal(200);
      return r;
    });
    const portalDetail = await call(app.baseUrl, 'GET', '/operator/v1/orders/RM_A/raw-1', {
      headers: operatorHeaders(),
    });
    for (const answer of [res.text, portalDetail.text]) {
      expect(answer).to.include(`"metadata":${maps['@order-metadata@']}`);
      expect(answer).to.include(`"attributes":${maps['@order-attributes@']}`);
      expect(answer).to.include(`"attributes":${maps['@item-attributes@']}`);
      expect(answer).to.include(`"attributes":${maps['@sub-item-attributes@']}`);
      expect(answer).to.include(`"metadata":${maps['@fee-metadata@']}`);
      expect(answer).to.include(`"extra_data":${maps['@extra-data@']}`);
      expect(answer).not.to.include('@');
    }
    expect(expectOk(portalDetail)).to.include({ order_id: 'raw-1' });
  });

  it('the portal: filters by merchant, business unit, type, status, payment status, date range, with counts', async () => {
    const ids = async (q: string) => expectOk(await portal(q)).orders.map((o) => `${o.merchant_id}/${o.order_id}`);
    expect(await ids('?merchant_id=RM_B')).to.deep.equal(['RM_B/o1']);
    expect(await ids('?business_unit_id=BU-9')).to.deep.equal(['RM_B/o1']);
    expect(await ids('?merchant_id=RM_A&payment_status=PAID')).to.deep.equal(['RM_A/o1']);
    expect(await ids('?branch_id=BR-9')).to.deep.equal(['RM_B/o1']);
    expect(await ids('?seller_merchant_id=SELLER-3')).to.deep.equal(['RM_B/o1']);
    expect(await ids('?customer_id=cust-2')).to.deep.equal(['RM_B/o1']);
    expect(await ids('?order_type=BILLING_PAYMENT')).to.deep.equal(['RM_A/o2']);
    expect(await ids('?branch_id=BR-07&status=CANCELLED')).to.deep.equal(['RM_A/o1']);
    // Counts by status leave the status filter out (other tests add RM_A orders of status CREATED).
    const counted = expectOk(await portal('?merchant_id=RM_A&status=CANCELLED'));
    expect(counted.orders.map((o) => o.order_id)).to.deep.equal(['o1']);
    expect(counted.total).to.equal(1);
    expect(counted.counts_exact).to.equal(true);
    expect(counted.counts_by_status).to.include({ CANCELLED: 1, DELIVERED: 1 });
    expect(await ids(`?merchant_id=RM_A&status=CREATED&to=${new Date(base + 10_000).toISOString()}`)).to.deep.equal([
      'RM_A/o3',
      'RM_A/o2',
    ]);
    const from = new Date(base + 1000).toISOString();
    const to = new Date(base + 3000).toISOString();
    expect(await ids(`?from=${from}&to=${to}`)).to.deep.equal(['RM_B/o1', 'RM_A/o2']);
    expect(expectEnvelope(await portal('?from=yesterday'), 400, 'OPS-REQ-001')).to.deep.equal({ field: 'from' });
    expect(expectEnvelope(await portal(`?from=${to}&to=${from}`), 400, 'OPS-REQ-001')).to.deep.equal({ field: 'from' });
    expect(expectEnvelope(await portal('?page=201&size=50'), 400, 'OPS-REQ-001')).to.deep.equal({ field: 'page' });
    expectEnvelope(
      await call(app.baseUrl, 'GET', '/operator/v1/orders/RM_A/nope', { headers: operatorHeaders() }),
      404,
      'OPS-NOT-FOUND',
    );
  });

  it('daily statistics: orders and GMV per day, merchant, type and current status', async () => {
    const day = new Date(base).toISOString().slice(0, 10);
    const stats = expectOk(
      await call<{ days: Record<string, unknown>[] }>(
        app.baseUrl,
        'GET',
        `/operator/v1/orders/daily-stats?from=${day}&to=${day}&merchant_id=RM_A`,
        {
          headers: operatorHeaders(),
        },
      ),
    );
    const rows = stats.days.map((d) => [d.order_type, d.status, d.order_count, d.gmv]);
    expect(rows).to.deep.include.members([
      ['CAR_PURCHASE', 'CANCELLED', 1, 9_500_000],
      ['BILLING_PAYMENT', 'CREATED', 1, 500],
      ['CAR_PURCHASE', 'DELIVERED', 1, 9_500_000],
    ]);
    expect(rows.find((r) => r[0] === 'CAR_PURCHASE' && r[1] === 'PAID')).to.equal(undefined); // moved on to CANCELLED
  });

  it('read models equal a rebuild from the event store', async () => {
    const { knex } = app.container;
    const rows = () =>
      Promise.all([
        knex('order_view_orders').orderBy(['merchant_id', 'order_id']),
        knex('order_view_order_history').orderBy('event_id'),
        knex('order_view_daily_stats')
          .where('order_count', '<>', 0)
          .orderBy(['day', 'merchant_id', 'order_type', 'status']),
        knex('order_view_status_totals').where('order_count', '<>', 0).orderBy('status'),
        knex('order_view_merchant_totals')
          .where('order_count', '<>', 0)
          .orderBy(['merchant_id', 'order_type', 'status']),
      ]);
    const before = await rows();
    await app.container.projections.rebuild('order-view-orders');
    expect(await rows()).to.deep.equal(before);
  });

  it('comments every table and column of the order view read models, and the views analysts query', async () => {
    const { rows } = await app.container.knex.raw<{
      rows: { relation: string; kind: string; column: string | null; comment: string | null }[];
    }>(
      `SELECT c.relname AS relation, c.relkind::text AS kind, NULL AS column, obj_description(c.oid, 'pg_class') AS comment
         FROM pg_class c WHERE c.relkind IN ('r', 'v') AND c.relname ~ '^order_view_'
       UNION ALL
       SELECT c.relname, c.relkind::text, a.attname, col_description(c.oid, a.attnum)
         FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE c.relkind IN ('r', 'v') AND c.relname ~ '^order_view_'`,
    );
    const views = rows.filter((r) => r.column === null && r.kind === 'v').map((r) => r.relation);
    expect(views).to.include.members([
      'order_view_orders',
      'order_view_order_history',
      'order_view_daily_stats',
      'order_view_status_totals',
      'order_view_merchant_totals',
    ]);
    expect(rows.filter((r) => !r.comment)).to.deep.equal([]);
  });

  it('has autovacuum keep the orders table all-visible at 1% changed, indexes cleaned every pass, rebuilt tables too', async () => {
    const options = async () =>
      (
        await app.container.knex.raw<{ rows: { relname: string; reloptions: string[] | null }[] }>(
          `SELECT relname, reloptions FROM pg_class WHERE relkind = 'r' AND relname ~ '^order_view_orders_g[0-9]+$'`,
        )
      ).rows;
    await app.container.projections.rebuild('order-view-orders');
    const tables = await options();
    expect(tables.length).to.be.greaterThan(0);
    for (const { reloptions } of tables)
      expect(reloptions).to.include.members([
        'autovacuum_vacuum_scale_factor=0.01',
        'autovacuum_vacuum_insert_scale_factor=0.01',
        'autovacuum_analyze_scale_factor=0.02',
        'vacuum_index_cleanup=on',
      ]);
  });

  it("finds a listing's keys in each listing index alone: each has the order's key and the filters' columns", async () => {
    const { rows } = await app.container.knex.raw<{ rows: { name: string; definition: string }[] }>(
      `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        WHERE t.relname = (SELECT max(relname) FROM pg_class WHERE relname ~ '^order_view_orders_g[0-9]+$')
          AND NOT x.indisprimary`,
    );
    expect(rows.map((r) => r.name.replace(/^order_view_orders_g[0-9]+_/, '')).sort()).to.deep.equal([
      'branch',
      'business_unit',
      'customer',
      'merchant',
      'merchant_payment',
      'merchant_status',
      'ordered',
      'seller',
    ]);
    for (const { name, definition } of rows)
      for (const column of ['merchant_id', 'order_id', 'ordered_at', 'status', 'payment_status', 'order_type'])
        expect(definition, name).to.match(new RegExp(`\\b${column}\\b`));
  });
});
