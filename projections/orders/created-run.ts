/**
 * A run of consecutive OrderCreated events in a few multi-row statements (docs/orders-read-models.md, "Projector"):
 * what a catch-up, a rebuild or the benchmark's bulk load mostly is. The rows come out exactly as from applying the
 * events one by one (orders.ts): an order already in the table (or twice in the run: a redelivery) keeps its row and
 * counts once in the daily statistics; every event gets its history row once, keyed by event id.
 */
import type { Knex } from 'knex';
import type { OrderCreated } from '../../domain/orders/index.js';
import { firstOfEach, type Projected } from '../shared/projector.js';
import { createdRow, historyRow, type Tables } from './orders.js';

/** Rows per INSERT: 28 columns each stays far below PostgreSQL's 65535 parameters per statement. */
const chunk = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += chunk) out.push(items.slice(i, i + chunk));
  return out;
}

const orderKey = (merchantId: string, orderId: string) => `${merchantId}\u0000${orderId}`;

export async function applyCreatedRun(
  trx: Knex.Transaction,
  t: Tables,
  events: readonly Projected<OrderCreated>[],
): Promise<void> {
  const made = firstOfEach(events, (e) => orderKey(e.data.merchantId, e.data.orderId)).map(createdRow);
  const inserted = new Set<string>();
  for (const part of chunks(made)) {
    const rows = (await trx(t.orders)
      .insert(part.map((m) => m.row))
      .onConflict(['merchant_id', 'order_id'])
      .ignore()
      .returning(['merchant_id', 'order_id'])) as { merchant_id: string; order_id: string }[];
    for (const r of rows) inserted.add(orderKey(r.merchant_id, r.order_id));
  }
  // The daily statistics of the orders inserted now: summed per bucket in SQL (numeric, each amount rounded to the
  // column's scale first, as the one-by-one upsert stores it), so that an upsert touches each bucket row once.
  const added = made
    .filter((m) => inserted.has(orderKey(m.row.merchant_id, m.row.order_id)))
    .map((m) => ({ ...m.bucket, gmv: String(m.gmv) }));
  for (const part of chunks(added))
    await trx.raw(
      `INSERT INTO ?? (day, merchant_id, order_type, status, currency, order_count, gmv)
       SELECT day::date, merchant_id, order_type, status, currency, count(*), sum(round(gmv::numeric, 4))
         FROM jsonb_to_recordset(?::jsonb)
           AS x(day text, merchant_id text, order_type text, status text, currency text, gmv text)
        GROUP BY 1, 2, 3, 4, 5
       ON CONFLICT (day, merchant_id, order_type, status, currency) DO UPDATE
          SET order_count = ??.order_count + excluded.order_count, gmv = ??.gmv + excluded.gmv`,
      [t.daily, JSON.stringify(part), t.daily, t.daily],
    );
  for (const part of chunks(firstOfEach(events, (e) => e.id)))
    await trx(t.history).insert(part.map(historyRow)).onConflict('event_id').ignore();
}
