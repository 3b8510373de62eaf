/**
 * bench:orders' history (docs/orders-read-models.md, "Benchmark"): HISTORY orders bulk-loaded into the order view's
 * read model through its projector. Each order is an order.created decided by the order's own decider (the events the
 * webhook would have appended; tests/support/order-events.ts), as the event store records them (id, stream,
 * position) and applied by the projector's own code (applyStored: decoded by the context's decoder, then
 * ordersProjector.apply) in batches of BATCH events per transaction, into the tables the live projector writes. They
 * are not appended to the event store: there the relay would publish a million events through NATS and every other
 * context's projector would read and skip them, minutes of work on this shared machine unrelated to the order view;
 * the rows are what projecting those events makes (a rebuild would drop them: the bench's database is thrown away).
 */
import type { Knex } from 'knex';
import type { OrderChanges, OrderSource } from '../domain/orders/index.js';
import { formatPosition } from '../infrastructure/shared/eventstore/positions.js';
import { physicalNames, readCheckpoint } from '../infrastructure/shared/projection-slots.js';
import { ordersProjector } from '../projections/orders/index.js';
import { applyStored, type ProjectedEvent } from '../projections/shared/projector.js';
import { recordedCreated } from '../tests/support/order-events.js';

export interface HistoryShape {
  orders: number;
  merchants: number;
  /** Orders per customer, on average: customers = orders / ordersPerCustomer. */
  ordersPerCustomer: number;
  /** ordered_at spread over this many days before `now`. */
  days: number;
  now: number;
}

export const historyMerchant = (m: number) => `HIST_${String(m).padStart(3, '0')}`;
export const historyCustomer = (c: number) => `hist-cust-${c}`;
export const businessUnit = (m: number, k: number) => `BU-${m}-${k}`;
export const branch = (m: number, k: number, b: number) => `BR-${m}-${k}-${b}`;
export const historyTypes = [
  'CAR_PURCHASE',
  'AFTER_SALES',
  'BILLING_PAYMENT',
  'PROMOTION_PURCHASE',
  'EV_AND_CHARGING',
  'PARKING_PASS', // not a named product type: accepted and flagged
];
export const historyStatuses = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'PAID', 'CREATED', 'CANCELLED', 'REFUNDED'];
const paymentOf: Record<string, string> = {
  COMPLETED: 'PAID',
  PAID: 'PAID',
  CREATED: 'UNPAID',
  CANCELLED: 'UNPAID',
  REFUNDED: 'REFUNDED',
};

/** A small deterministic hash of an integer: history order `i` is the same every run. */
function mix(i: number, salt: number): number {
  let x = (i ^ (salt * 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** What history order `i` is: merchant, customer, type, status, accounting ids, time, amounts. */
export function historyOrder(shape: HistoryShape, i: number) {
  const m = mix(i, 1) % shape.merchants;
  const customers = Math.max(1, Math.round(shape.orders / shape.ordersPerCustomer));
  const k = mix(i, 2) % 3;
  const status = historyStatuses[mix(i, 4) % historyStatuses.length]!;
  const price = 10_000 * (1 + (mix(i, 5) % 2000));
  return {
    merchantId: historyMerchant(m),
    orderId: `H-${i}`,
    customerId: historyCustomer(mix(i, 3) % customers),
    orderType: historyTypes[mix(i, 6) % historyTypes.length]!,
    status,
    paymentStatus: paymentOf[status]!,
    businessUnitId: businessUnit(m, k),
    branchId: branch(m, k, mix(i, 7) % 10),
    sellerMerchantId: mix(i, 8) % 5 === 0 ? `SELLER-${mix(i, 9) % 200}` : undefined,
    // Two 32-bit draws: one alone spans only 49 days of milliseconds.
    eventTimestamp: shape.now - Math.floor(((mix(i, 10) * 2 ** 32 + mix(i, 12)) / 2 ** 64) * shape.days * 86_400_000),
    totalAmount: price,
    grandTotal: price - (mix(i, 11) % 3 === 0 ? price / 10 : 0),
  };
}

/** History order `i` as the event its order.created would have recorded, at global position (0, i + 1). */
export function historyEvent(shape: HistoryShape, i: number): ProjectedEvent {
  const o = historyOrder(shape, i);
  const source: OrderSource = { created_by: o.customerId, platform_code: 'HOSTAPP', miniapp_id: 'bench-mini' };
  const order: OrderChanges = {
    order_type: o.orderType,
    order_name: `Order ${i}`,
    status: o.status,
    pnl_order_status: o.status,
    payment_status: o.paymentStatus,
    business_unit_id: o.businessUnitId,
    branch_id: o.branchId,
    ...(o.sellerMerchantId && { seller_merchant_id: o.sellerMerchantId }),
    customer: { customer_id: o.customerId, name: 'Khách hàng', phone: '0901234567' },
    items: [
      {
        item_id: 'i1',
        name: 'Item',
        quantity: 1,
        unit_price: o.totalAmount,
        total_price: o.totalAmount,
        currency: 'VND',
      },
    ],
    amounts: { currency: 'VND', total_amount: o.totalAmount, grand_total: o.grandTotal },
    metadata: `{"channel":"bench","n":${i}}`,
  };
  return recordedCreated({
    merchantId: o.merchantId,
    orderId: o.orderId,
    eventTimestamp: o.eventTimestamp,
    order,
    source,
    position: formatPosition(0n, BigInt(i + 1)),
    receivedAt: new Date(o.eventTimestamp + 150).toISOString(),
  });
}

/**
 * Applies history orders [0, shape.orders) through ordersProjector, `batch` per transaction, into the generation the
 * live projector writes (waits until it has created its tables). Answers the orders per second it loaded.
 */
export async function bulkLoadHistory(
  knex: Knex,
  shape: HistoryShape,
  batch: number,
  progress?: (loaded: number) => void,
): Promise<number> {
  let checkpoint = await readCheckpoint(knex, ordersProjector.name);
  for (let waited = 0; !checkpoint; waited += 250) {
    if (waited > 120_000) throw new Error('the order view projector never started');
    await new Promise((resolve) => setTimeout(resolve, 250));
    checkpoint = await readCheckpoint(knex, ordersProjector.name);
  }
  const names = physicalNames(ordersProjector, checkpoint.generation);
  const started = performance.now();
  for (let from = 0; from < shape.orders; from += batch) {
    const events = Array.from({ length: Math.min(batch, shape.orders - from) }, (_, j) =>
      historyEvent(shape, from + j),
    );
    await knex.transaction((trx) => applyStored(ordersProjector, trx, events, names));
    progress?.(from + events.length);
  }
  // As a database that has served a while: what autovacuum does after a bulk write (the planner's statistics, and the
  // visibility map that lets counts read the indexes alone), done now rather than some minutes later.
  for (const table of Object.values(names)) await knex.raw('VACUUM (ANALYZE) ??', [table]);
  return shape.orders / ((performance.now() - started) / 1000);
}
