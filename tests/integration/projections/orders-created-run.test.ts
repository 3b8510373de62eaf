import { expect } from 'chai';
import { ordersEventDecoder, type OrderChanges, type OrdersEvent } from '../../../domain/orders/index.js';
import { formatPosition } from '../../../infrastructure/shared/eventstore/positions.js';
import { orderTables, ordersProjector } from '../../../projections/orders/index.js';
import type { PhysicalNames, Projected, ProjectedEvent } from '../../../projections/shared/projector.js';
import { recordedCreated } from '../../support/order-events.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

/**
 * The orders projector writes a run of OrderCreated events in multi-row statements (projections/orders/created-run.ts;
 * docs/orders-read-models.md, "Projector"): the rows must be exactly those of applying the events one call each,
 * redeliveries, an order already projected and amounts with more decimals than the columns keep included.
 */
describe('orders projector: a run of creates in one call equals one by one', () => {
  let db: TestDatabase;
  const namesOf = (suffix: string): PhysicalNames =>
    Object.fromEntries(Object.values(orderTables).map((t) => [t, `${t}_${suffix}`]));
  const bulk = namesOf('bulk');
  const single = namesOf('single');

  let position = 0;
  function created(merchantId: string, orderId: string, day: number, status: string, grandTotal: number) {
    const eventTimestamp = Date.UTC(2026, 0, 1 + day, 3, position % 60);
    const order: OrderChanges = {
      order_type: position % 3 === 0 ? 'CAR_PURCHASE' : 'SOMETHING_NEW',
      status,
      pnl_order_status: status,
      payment_status: 'UNPAID',
      business_unit_id: 'BU-1',
      customer: { customer_id: `c-${position % 4}`, name: 'N' },
      amounts: { currency: 'VND', total_amount: grandTotal + 1, grand_total: grandTotal },
      metadata: '{"b": 1,  "a":[2]}',
    };
    position += 1;
    return recordedCreated({
      merchantId,
      orderId,
      eventTimestamp,
      order,
      position: formatPosition(1000n, BigInt(position)),
      receivedAt: new Date(eventTimestamp + 10).toISOString(),
    });
  }

  const decoded = (events: ProjectedEvent[]) =>
    events.map((e) => ordersEventDecoder.decode(e)) as Projected<OrdersEvent>[];

  async function snapshot(names: PhysicalNames) {
    const rows = async (logical: string, order: string[]) =>
      (await db.knex(names[logical]!).orderBy(order)) as Record<string, unknown>[];
    return {
      orders: await rows(orderTables.orders, ['merchant_id', 'order_id']),
      history: await rows(orderTables.history, ['event_id']),
      daily: await rows(orderTables.daily, ['day', 'merchant_id', 'order_type', 'status', 'currency']),
    };
  }

  before(async () => {
    db = await createTestDatabase();
    await ordersProjector.createTables(db.knex, bulk);
    await ordersProjector.createTables(db.knex, single);
  });
  after(() => db?.drop());

  it('gives the same orders, history and daily statistics', async () => {
    // Already projected before the run: its row stays, and it is not counted twice.
    const earlier = created('M1', 'O-EARLY', 0, 'CREATED', 100);
    const run: ProjectedEvent[] = [];
    for (let i = 0; i < 2500; i++)
      run.push(created(`M${i % 3}`, `O-${i}`, i % 5, ['CREATED', 'PAID', 'COMPLETED'][i % 3]!, 1000.12345 + i / 7));
    run.splice(700, 0, run[10]!); // a redelivery inside the run
    run.splice(1900, 0, { ...earlier }); // the earlier order again
    run.splice(1200, 0, created('M1', 'O-EARLY', 3, 'PAID', 7)); // another created of that order: its row keeps the first

    for (const names of [bulk, single])
      await db.knex.transaction((trx) => ordersProjector.apply(trx, decoded([earlier]), names));
    await db.knex.transaction((trx) => ordersProjector.apply(trx, decoded(run), bulk));
    await db.knex.transaction(async (trx) => {
      for (const e of decoded(run)) await ordersProjector.apply(trx, [e], single);
    });

    const [a, b] = [await snapshot(bulk), await snapshot(single)];
    expect(a.orders).to.have.length(2501);
    expect(a.history).to.have.length(2502);
    expect(a.orders).to.deep.equal(b.orders);
    expect(a.history).to.deep.equal(b.history);
    expect(a.daily).to.deep.equal(b.daily);
    const counted = a.daily.reduce((n, d) => n + Number(d.order_count), 0);
    expect(counted).to.equal(2501);
  });
});
