import { expect } from 'chai';
import { OrderQueries, type Paging, type PortalFilter } from '../../../application/orders/index.js';
import { ordersEventDecoder, type OrderChanges, type OrdersEvent } from '../../../domain/orders/index.js';
import { formatPosition } from '../../../infrastructure/shared/eventstore/positions.js';
import { PostgresOrderReadModel } from '../../../infrastructure/orders/order-read-model.js';
import { orderTables, ordersProjector } from '../../../projections/orders/index.js';
import type { PhysicalNames, Projected } from '../../../projections/shared/projector.js';
import { recordedCreated } from '../../support/order-events.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

/**
 * Listings' counts at scale (docs/orders-read-models.md, "Counts at scale"), with a count limit of 100: exact up to it;
 * beyond, exact from the daily statistics when the filter is merchant, type, status and whole UTC days; else a lower
 * bound said so. Rows made by the projector from decided events.
 */
describe('orders read model: counts beyond the count limit', () => {
  let db: TestDatabase;
  let readModel: PostgresOrderReadModel;
  const day0 = Date.UTC(2026, 2, 1);
  const statuses = ['CREATED', 'PAID', 'COMPLETED', 'CANCELLED'];
  /** [merchant, bu, type, status, ordered_at, customer] of every order, to count by hand. */
  const orders: { merchantId: string; bu: string; type: string; status: string; at: number; customer: string }[] = [];

  function created(n: number, merchantId: string, at: number) {
    const status = statuses[n % statuses.length]!;
    const type = n % 3 === 0 ? 'CAR_PURCHASE' : 'AFTER_SALES';
    const bu = n % 2 === 0 ? 'BU-1' : 'BU-2';
    orders.push({ merchantId, bu, type, status, at, customer: `c-${n % 7}` });
    const order: OrderChanges = {
      order_type: type,
      status,
      pnl_order_status: status,
      payment_status: 'UNPAID',
      business_unit_id: bu,
      customer: { customer_id: `c-${n % 7}`, name: 'N' },
      amounts: { currency: 'VND', total_amount: 100, grand_total: 90 },
    };
    const position = formatPosition(1n, BigInt(n + 1));
    return ordersEventDecoder.decode(
      recordedCreated({ merchantId, orderId: `O-${n}`, eventTimestamp: at, order, position }),
    ) as Projected<OrdersEvent>;
  }

  /** Counts by status of the orders `keep` selects, by hand. */
  const byHand = (keep: (o: (typeof orders)[number]) => boolean) => {
    const counts: Record<string, number> = {};
    for (const o of orders.filter(keep)) counts[o.status] = (counts[o.status] ?? 0) + 1;
    return counts;
  };
  const iso = (ms: number) => new Date(ms).toISOString();

  before(async () => {
    db = await createTestDatabase();
    const names: PhysicalNames = Object.fromEntries(Object.values(orderTables).map((t) => [t, t]));
    await ordersProjector.createTables(db.knex, names);
    // M1: 250 orders over 5 days; M2: 60 orders an hour apart.
    const events = [
      ...Array.from({ length: 250 }, (_, n) => created(n, 'M1', day0 + n * 7 * 3_600_000 * 0.068)),
      ...Array.from({ length: 60 }, (_, n) => created(1000 + n, 'M2', day0 + n * 3_600_000)),
      // Twelve orders at one instant, of two merchants: keyset paging must break the tie.
      ...Array.from({ length: 12 }, (_, n) => created(2000 + n, n % 2 ? 'M2' : 'M3', day0 + 10 * 86_400_000)),
    ];
    await db.knex.transaction((trx) => ordersProjector.apply(trx, events, names));
    readModel = new PostgresOrderReadModel(db.knex, { countLimit: 100 });
  });
  after(() => db?.drop());

  const list = (filter: PortalFilter) => readModel.list(filter, { page: 1, size: 10 });

  /** The SQL `work` sends. */
  const statementsOf = async (work: () => Promise<unknown>) => {
    const sent: string[] = [];
    const listen = (q: { sql: string }) => sent.push(q.sql);
    db.knex.on('query', listen);
    try {
      await work();
    } finally {
      db.knex.removeListener('query', listen);
    }
    return sent;
  };

  it('up to the limit: exact, from the orders themselves', async () => {
    const customer = await list({ customerId: 'c-1' });
    expect(customer).to.include({ countsExact: true });
    expect(customer.countsByStatus).to.deep.equal(byHand((o) => o.customer === 'c-1'));
    const page = await list({ merchantId: 'M2' });
    expect(page).to.include({ total: 66, countsExact: true });
    expect(page.countsByStatus).to.deep.equal(byHand((o) => o.merchantId === 'M2'));
    // Newest first; the six at one instant by order id.
    expect(page.orders.map((o) => o.orderId)).to.deep.equal([
      ...['O-2001', 'O-2003', 'O-2005', 'O-2007', 'O-2009', 'O-2011'],
      ...['O-1059', 'O-1058', 'O-1057', 'O-1056'],
    ]);
  });

  it("a merchant's counts: from its totals, or over whole days from its daily statistics, none counted along the orders", async () => {
    const [from, to] = [iso(day0 + 86_400_000), iso(day0 + 3 * 86_400_000)];
    for (const [filter, table] of [
      [{ merchantId: 'M2' }, orderTables.merchantTotals],
      [{ merchantId: 'M3', status: 'PAID' }, orderTables.merchantTotals],
      [{ merchantId: 'M1', orderType: 'AFTER_SALES' }, orderTables.merchantTotals],
      [{ merchantId: 'M1', from, to }, orderTables.daily],
    ] as [PortalFilter, string][]) {
      let page: Awaited<ReturnType<typeof list>> | undefined;
      const sent = await statementsOf(async () => (page = await list(filter)));
      expect(
        sent.some((sql) => sql.includes(table)),
        JSON.stringify(filter),
      ).to.equal(true);
      expect(
        sent.filter((sql) => /count\(/i.test(sql)),
        JSON.stringify(filter),
      ).to.deep.equal([]);
      expect(page!.countsByStatus, JSON.stringify(filter)).to.deep.equal(
        byHand(
          (o) =>
            o.merchantId === filter.merchantId &&
            (filter.orderType === undefined || o.type === filter.orderType) &&
            (filter.from === undefined || (o.at >= Date.parse(from) && o.at < Date.parse(to))),
        ),
      );
    }
    const sent = await statementsOf(() => list({ customerId: 'c-1' }));
    expect(sent.filter((sql) => /count\(/i.test(sql))).to.have.length(1);
  });

  it('no filter (or a status alone): exact, from the status totals the projector keeps, none counted', async () => {
    const everything = byHand(() => true);
    for (const filter of [{}, { status: 'PAID' }] as PortalFilter[]) {
      let page: Awaited<ReturnType<typeof list>> | undefined;
      const sent = await statementsOf(async () => (page = await list(filter)));
      expect(
        sent.some((sql) => sql.includes(orderTables.totals)),
        JSON.stringify(filter),
      ).to.equal(true);
      expect(sent.filter((sql) => /count\(/i.test(sql))).to.deep.equal([]);
      expect(page!.countsByStatus).to.deep.equal(everything);
      expect(page).to.include({ countsExact: true, total: filter.status ? everything.PAID : orders.length });
    }
  });

  it('beyond it, a merchant (and type, status, whole days): exact, from the daily statistics', async () => {
    const all = await list({ merchantId: 'M1' });
    expect(all).to.include({ total: 250, countsExact: true });
    expect(all.countsByStatus).to.deep.equal(byHand((o) => o.merchantId === 'M1'));
    const paid = await list({ merchantId: 'M1', status: 'PAID', orderType: 'AFTER_SALES' });
    const expected = byHand((o) => o.merchantId === 'M1' && o.type === 'AFTER_SALES');
    expect(paid).to.include({ total: expected.PAID, countsExact: true });
    expect(paid.countsByStatus).to.deep.equal(expected);
    expect(paid.orders.every((o) => o.status === 'PAID' && o.orderType === 'AFTER_SALES')).to.equal(true);
    const [from, to] = [day0 + 86_400_000, day0 + 3 * 86_400_000];
    const days = await list({ merchantId: 'M1', from: iso(from), to: iso(to) });
    const inDays = byHand((o) => o.merchantId === 'M1' && o.at >= from && o.at < to);
    expect(Object.values(inDays).reduce((a, b) => a + b, 0)).to.be.above(100);
    expect(days).to.include({ countsExact: true });
    expect(days.countsByStatus).to.deep.equal(inDays);
    // Every merchant, over whole days of at most a month.
    const everyone = await list({ from: iso(day0), to: iso(day0 + 5 * 86_400_000) });
    expect(everyone).to.include({ total: 310, countsExact: true });
  });

  it('beyond it, any other filter: the limit as a lower bound, said to be one, and no counts by status', async () => {
    for (const filter of [
      { businessUnitId: 'BU-1' },
      { merchantId: 'M1', from: iso(day0 + 3_600_000) },
      { from: iso(day0), to: iso(day0 + 40 * 86_400_000) },
    ]) {
      const page = await list(filter);
      expect(page, JSON.stringify(filter)).to.include({ total: 100, countsExact: false });
      expect(page.countsByStatus).to.equal(null);
      expect(page.orders).to.have.length(10);
    }
    const withStatus = await list({ businessUnitId: 'BU-1', status: 'PAID' });
    expect(withStatus.countsExact).to.equal(false);
    expect(withStatus.orders.every((o) => o.status === 'PAID')).to.equal(true);
  });

  it('keyset paging (after): every order once, in the order of the offset pages, at any depth', async () => {
    for (const filter of [{}, { merchantId: 'M1', status: 'PAID' }, { businessUnitId: 'BU-2' }] as PortalFilter[]) {
      const byOffset = (await readModel.list(filter, { page: 1, size: 100 })).orders.map((o) => o.orderId);
      const seen: string[] = [];
      let after: Paging['after'];
      for (let pages = 0; pages < 100; pages++) {
        const page = await readModel.list(filter, { page: 1, size: 7, ...(after && { after }) });
        seen.push(...page.orders.map((o) => o.orderId));
        if (!page.next) break;
        after = page.next;
      }
      const all = orders.length; // at most 310: the first 100 compared with the offset page, all counted once
      expect(seen.slice(0, 100), JSON.stringify(filter)).to.deep.equal(byOffset);
      expect(new Set(seen).size).to.equal(seen.length);
      expect(seen.length).to.be.at.most(all);
      const expected = byHand((o) =>
        filter.merchantId
          ? o.merchantId === filter.merchantId
          : filter.businessUnitId
            ? o.bu === filter.businessUnitId
            : true,
      );
      expect(seen.length).to.equal(
        filter.status ? expected[filter.status] : Object.values(expected).reduce((a, b) => a + b, 0),
      );
    }
  });

  it('pages no deeper than 10 000 rows, and a range must not end before it starts (INVALID_ORDER_QUERY naming the field)', async () => {
    const queries = new OrderQueries(readModel);
    await queries.portalOrders({}, { page: 100, size: 100 });
    await queries.portalOrders(
      {},
      { page: 1, size: 100, after: { orderedAt: iso(day0), merchantId: 'M1', orderId: 'O-1' } },
    );
    for (const [call, field] of [
      [() => queries.portalOrders({}, { page: 101, size: 100 }), 'page'],
      [
        () =>
          queries.myOrders({ customerId: 'c-1', shows: { phone: false, email: false } }, {}, { page: 501, size: 20 }),
        'page',
      ],
      [
        () =>
          queries.portalOrders(
            {},
            { page: 2, size: 10, after: { orderedAt: iso(day0), merchantId: 'M1', orderId: 'O-1' } },
          ),
        'page',
      ],
      [() => queries.portalOrders({ from: iso(day0 + 1), to: iso(day0) }, { page: 1, size: 10 }), 'from'],
    ] as const) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e as { code: string; details: { field: string } },
      );
      expect(error).to.deep.include({ code: 'INVALID_ORDER_QUERY' });
      expect(error!.details).to.deep.equal({ field });
    }
  });

  // Last: it drops the totals tables.
  it('tables of an older version, without the totals (an upgrade while its rebuild runs): counted along the orders', async () => {
    await db.knex.schema.dropTable(orderTables.totals).dropTable(orderTables.merchantTotals);
    const merchant = await list({ merchantId: 'M2' });
    expect(merchant).to.include({ total: 66, countsExact: true });
    expect(merchant.countsByStatus).to.deep.equal(byHand((o) => o.merchantId === 'M2'));
    const everything = await list({});
    expect(everything).to.include({ total: 100, countsExact: false });
    expect(everything.orders).to.have.length(10);
  });
});
