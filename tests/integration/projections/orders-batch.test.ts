import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { webhookFingerprint } from '../../../application/orders/index.js';
import {
  orderDecider,
  ordersEventDecoder,
  type OrderChanges,
  type OrderState,
  type OrdersEvent,
  type WebhookKind,
} from '../../../domain/orders/index.js';
import { formatPosition } from '../../../infrastructure/shared/eventstore/positions.js';
import { orderTables, ordersProjector } from '../../../projections/orders/index.js';
import type { PhysicalNames, Projected, ProjectedEvent } from '../../../projections/shared/projector.js';
import { recordedCreated } from '../../support/order-events.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

/**
 * The orders projector writes a batch in a few statements whatever its size (projections/orders/order-batch.ts;
 * docs/orders-read-models.md, "Projector"): the rows must be exactly those of applying the events one call each,
 * redeliveries, an order already projected, updates and cancellations moving orders between buckets, and amounts
 * with more decimals than the columns keep included.
 */
describe('orders projector: a batch in one call equals one event at a time', () => {
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
      totals: await rows(orderTables.totals, ['status']),
      merchantTotals: await rows(orderTables.merchantTotals, ['merchant_id', 'order_type', 'status']),
    };
  }

  const mixed = namesOf('mixed');
  const mixedSingle = namesOf('mixedsingle');
  const split = namesOf('split');

  const source = { created_by: 'u', platform_code: 'HOSTAPP', miniapp_id: 'mini' };
  /** The events the order's own decider records for these webhooks, in order (positions given later). */
  function webhookEvents(
    merchantId: string,
    orderId: string,
    steps: { kind: WebhookKind; at: number; order: OrderChanges }[],
  ): ProjectedEvent[] {
    let state: OrderState = orderDecider.initialState;
    const out: ProjectedEvent[] = [];
    for (const step of steps) {
      const now = new Date(step.at + 10).toISOString();
      const decided = orderDecider.decide(
        {
          type: 'ReceiveOrderWebhook',
          kind: step.kind,
          merchantId,
          orderId,
          eventTimestamp: step.at,
          fingerprint: webhookFingerprint({
            kind: step.kind,
            eventTimestamp: step.at,
            orderId,
            source,
            order: step.order,
          }),
          requestId: randomUUID(),
          order: step.order,
          ...(step.kind === 'CREATED' && { source }),
          now,
          earlyWindowMs: 3_600_000,
          maxEarlyEvents: 10,
          maxAgeMs: 3_600_000,
          maxFutureMs: 60_000,
        },
        state,
      );
      for (const event of decided) {
        state = orderDecider.evolve(state, event);
        out.push({
          id: randomUUID(),
          streamName: `order-${merchantId}-${orderId}`,
          type: event.type,
          schemaVersion: 1,
          data: event.data,
          metadata: { occurredAt: now },
          revision: out.length,
          position: '',
          recordedAt: now,
        });
      }
    }
    return out;
  }

  before(async () => {
    db = await createTestDatabase();
    for (const names of [bulk, single, mixed, mixedSingle, split]) await ordersProjector.createTables(db.knex, names);
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

  it('applies creates, updates and cancellations of many orders in one call exactly as one event at a time', async () => {
    const statuses = ['CREATED', 'PAID', 'COMPLETED', 'REFUNDED'];
    const base = Date.UTC(2026, 1, 1, 8);
    const perOrder: ProjectedEvent[][] = [];
    for (let i = 0; i < 300; i++) {
      const at = base + i * 60_000;
      const amounts = (g: number) => ({ currency: 'VND', total_amount: g + 5, grand_total: g });
      const steps: { kind: WebhookKind; at: number; order: OrderChanges }[] = [
        {
          kind: 'CREATED',
          at,
          order: {
            order_type: i % 2 ? 'CAR_PURCHASE' : 'FOOD',
            status: 'CREATED',
            payment_status: 'UNPAID',
            customer: { customer_id: `c-${i % 7}`, name: 'N' },
            amounts: amounts(1000.12345 + i / 3),
          },
        },
      ];
      // Updates moving the order between statuses and amounts; one older than the last (stale); some cancelled.
      for (let u = 1; u <= i % 4; u++)
        steps.push({
          kind: 'UPDATED',
          at: at + u * 1000,
          order: { status: statuses[u % 4]!, amounts: amounts(900 + u + i / 9) },
        });
      if (i % 5 === 0) steps.push({ kind: 'UPDATED', at: at - 1000, order: { payment_status: 'PAID' } });
      if (i % 6 === 0) steps.push({ kind: 'CANCELLED', at: at + 9000, order: {} });
      perOrder.push(webhookEvents(`M${i % 4}`, `X-${i}`, steps));
    }
    // Projected before the batch: the first event (its created) of every third order.
    const earlier = perOrder.filter((_, i) => i % 3 === 0).map((events) => events.shift()!);
    // The batch: the orders' events interleaved, each order's in its own order; a redelivered update; an update
    // whose order was never created.
    const batch: ProjectedEvent[] = [];
    for (let round = 0; perOrder.some((events) => events.length > 0); round++)
      for (const events of perOrder)
        if (events.length > 0 && (round + batch.length) % 2 === 0) batch.push(events.shift()!);
    const orphan = webhookEvents('M9', 'NEVER-CREATED', [
      { kind: 'CREATED', at: base, order: { status: 'CREATED' } },
      { kind: 'UPDATED', at: base + 1000, order: { status: 'PAID' } },
    ])[1]!;
    batch.splice(150, 0, orphan);
    let seq = 0;
    for (const e of [...earlier, ...batch]) e.position = formatPosition(2000n, BigInt(++seq));
    const updated = batch.findIndex((e) => e.type === 'OrderUpdated');
    batch.splice(updated + 40, 0, { ...batch[updated]! }); // a redelivery, after newer events

    for (const names of [mixed, mixedSingle, split])
      await db.knex.transaction((trx) => ordersProjector.apply(trx, decoded(earlier), names));
    await db.knex.transaction((trx) => ordersProjector.apply(trx, decoded(batch), mixed));
    await db.knex.transaction(async (trx) => {
      for (const e of decoded(batch)) await ordersProjector.apply(trx, [e], mixedSingle);
    });
    for (let from = 0; from < batch.length; from += 37)
      await db.knex.transaction((trx) => ordersProjector.apply(trx, decoded(batch.slice(from, from + 37)), split));

    const [a, b, c] = [await snapshot(mixed), await snapshot(mixedSingle), await snapshot(split)];
    expect(a.orders).to.have.length(300);
    expect(a.orders.filter((o) => Number(o.event_count) > 1)).to.have.length.above(0);
    expect(a.orders.filter((o) => o.cancelled)).to.have.length.above(0);
    expect(a.orders).to.deep.equal(b.orders);
    expect(a.history).to.deep.equal(b.history);
    expect(a.daily).to.deep.equal(b.daily);
    expect(c).to.deep.equal(b);
    expect(a.daily.reduce((n, d) => n + Number(d.order_count), 0)).to.equal(300);
  });
});
