/**
 * A batch of order events in a few statements whatever its size (docs/orders-read-models.md, "Projector"): the orders
 * it touches read once (locked), the events folded onto them in memory in log order, then one insert for the new
 * orders, one update for the changed ones, one upsert each for the daily-statistics buckets, the status totals and the
 * merchant totals touched, and one insert for the history. The rows come out exactly as from applying the events one
 * call each: an order already in the table (or created twice: a redelivery) keeps its row and counts once; an event
 * at or before an order's last position changes nothing; every event gets its history row once, keyed by event id.
 */
import type { Knex } from 'knex';
import {
  applyChanges,
  type OrderCancelled,
  type OrderChanges,
  type OrderCreated,
  type OrderUpdated,
  type OrdersEvent,
} from '../../domain/orders/index.js';
import { firstOfEach, type Projected } from '../shared/projector.js';
import { bucketOf, columnsOf, createdRow, historyRow, type Bucket, type Tables } from './orders.js';

type OrderEvent = Projected<OrderCreated | OrderUpdated | OrderCancelled>;

/** Rows per statement: 28 columns each stays far below PostgreSQL's 65535 parameters per statement. */
const chunk = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += chunk) out.push(items.slice(i, i + chunk));
  return out;
}

const orderKey = (merchantId: string, orderId: string) => `${merchantId}\u0000${orderId}`;

/** An order as the batch leaves it. */
interface Folded {
  fields: OrderChanges;
  day: string;
  lastEventAt: number;
  cancelled: boolean;
  eventCount: number;
  lastPosition: string;
  /** The row its OrderCreated makes, when the batch creates it. */
  created?: ReturnType<typeof createdRow>['row'];
  changed: boolean;
}

interface StoredRow {
  merchant_id: string;
  order_id: string;
  fields: OrderChanges;
  order_day: string | Date;
  last_event_at: Date;
  cancelled: boolean;
  event_count: number;
  last_position: string;
}

export async function applyOrderEvents(trx: Knex.Transaction, t: Tables, all: readonly Projected<OrdersEvent>[]) {
  const events = all.filter(
    (e): e is OrderEvent => e.type === 'OrderCreated' || e.type === 'OrderUpdated' || e.type === 'OrderCancelled',
  );
  if (events.length === 0) return;

  // 1. The orders the batch touches, as stored, locked until it commits.
  const orders = new Map<string, Folded>();
  const keys = firstOfEach(events, (e) => orderKey(e.data.merchantId, e.data.orderId)).map((e) => [
    e.data.merchantId,
    e.data.orderId,
  ]);
  for (const part of chunks(keys)) {
    // Joined with the keys as arrays: a list of (merchant, order) pairs found no index (a scan of the whole table per
    // batch), and its text changed with every batch size, so each was planned anew.
    const { rows } = await trx.raw<{ rows: StoredRow[] }>(
      `SELECT o.merchant_id, o.order_id, o.fields, o.order_day, o.last_event_at, o.cancelled, o.event_count,
              o.last_position
         FROM unnest(?::text[], ?::text[]) AS k(merchant_id, order_id)
         JOIN ?? AS o ON o.merchant_id = k.merchant_id AND o.order_id = k.order_id
          FOR UPDATE OF o`,
      [part.map(([m]) => m), part.map(([, o]) => o), t.orders],
    );
    for (const r of rows)
      orders.set(orderKey(r.merchant_id, r.order_id), {
        fields: r.fields,
        day: typeof r.order_day === 'string' ? r.order_day : dayOf(r.order_day),
        lastEventAt: r.last_event_at.getTime(),
        cancelled: r.cancelled,
        eventCount: r.event_count,
        lastPosition: r.last_position,
        changed: false,
      });
  }

  // 2. The events folded in log order; the daily statistics' changes kept per bucket, in the order first touched.
  const daily = new Map<string, { bucket: Bucket; changes: { n: number; gmv: number }[] }>();
  const count = (bucket: Bucket, n: number, gmv: number) => {
    const key = JSON.stringify(bucket);
    const entry = daily.get(key) ?? { bucket, changes: [] };
    entry.changes.push({ n, gmv });
    daily.set(key, entry);
  };
  for (const e of events) {
    const d = e.data;
    const key = orderKey(d.merchantId, d.orderId);
    const order = orders.get(key);
    if (e.type === 'OrderCreated') {
      if (order) continue; // created already (a redelivery): its row and its count stay
      const made = createdRow(e);
      orders.set(key, {
        fields: d.order,
        day: made.row.order_day,
        lastEventAt: d.eventTimestamp,
        cancelled: false,
        eventCount: 1,
        lastPosition: e.position,
        created: made.row,
        changed: false,
      });
      count(made.bucket, 1, made.gmv);
      continue;
    }
    // Applied already, or its created is missing (then there is nothing to change; the history keeps it).
    if (!order || !(order.lastPosition < e.position)) continue;
    const upd = e as Projected<OrderUpdated | OrderCancelled>;
    const before = columnsOf(order.fields);
    const fields = applyChanges(
      order.fields,
      e.type === 'OrderUpdated' ? 'UPDATED' : 'CANCELLED',
      d.order,
      upd.data.applied,
    );
    const after = columnsOf(fields);
    const [was, now] = [bucketOf(order.day, d.merchantId, before), bucketOf(order.day, d.merchantId, after)];
    if (JSON.stringify(was) !== JSON.stringify(now) || before.grand_total !== after.grand_total) {
      count(was, -1, -(before.grand_total ?? 0));
      count(now, 1, after.grand_total ?? 0);
    }
    order.fields = fields;
    order.lastEventAt = Math.max(order.lastEventAt, d.eventTimestamp);
    // Received, whether or not its status still shows: a reopening may be older or newer than the cancellation, and
    // any delivery order of the same webhooks must give the same row (docs/orders-ordering.md).
    order.cancelled = order.cancelled || e.type === 'OrderCancelled';
    order.eventCount += 1;
    order.lastPosition = e.position;
    order.changed = true;
  }

  // 3. The writes.
  const state = (o: Folded) => ({
    ...columnsOf(o.fields),
    last_event_at: new Date(o.lastEventAt).toISOString(),
    cancelled: o.cancelled,
    event_count: o.eventCount,
    last_position: o.lastPosition,
  });
  const created = [...orders.values()]
    .filter((o) => o.created)
    .map((o) => ({ ...o.created!, ...state(o), fields: o.fields }));
  for (const part of chunks(created)) await insertRows(trx, t.orders, part, ['merchant_id', 'order_id']);
  // The changed orders in one statement per chunk: one update per order cost each a round trip and a plan
  // (docs/orders-read-models.md, "Projector"). Each row is typed as the table's own row type, so the JSON needs no
  // column list of its own; `fields` goes as the object, not its text.
  const changed = [...orders]
    .filter(([, o]) => !o.created && o.changed)
    .map(([key, o]) => {
      const [merchant_id, order_id] = key.split('\u0000');
      return { merchant_id, order_id, ...state(o), fields: o.fields };
    });
  for (const part of chunks(changed))
    await trx.raw(
      `UPDATE ?? AS o SET (${updatedColumns.map(() => '??').join(', ')}) = (${updatedColumns.map(() => 'x.??').join(', ')})
         FROM jsonb_populate_recordset(null::??, ?::jsonb) AS x
        WHERE o.merchant_id = x.merchant_id AND o.order_id = x.order_id`,
      [t.orders, ...updatedColumns, ...updatedColumns, t.orders, JSON.stringify(part)],
    );
  // The daily buckets' changes, each amount rounded to the column's scale first (as one upsert per change stores it);
  // the status totals move with them, per status and per merchant, type and status.
  const changes = [...daily.values()].flatMap(({ bucket, changes }) =>
    changes.map((c) => ({ ...bucket, n: c.n, gmv: String(c.gmv) })),
  );
  const counted = ['order_count', 'n integer', 'sum(n)'] as const;
  await addToCounters(
    trx,
    t.daily,
    changes,
    [
      ['day', 'date'],
      ['merchant_id', 'text'],
      ['order_type', 'text'],
      ['status', 'text'],
      ['currency', 'text'],
    ],
    [counted, ['gmv', 'gmv text', 'sum(round(gmv::numeric, 4))']],
  );
  await addToCounters(trx, t.totals, changes, [['status', 'text']], [counted]);
  await addToCounters(
    trx,
    t.merchantTotals,
    changes,
    [
      ['merchant_id', 'text'],
      ['order_type', 'text'],
      ['status', 'text'],
    ],
    [counted],
  );
  for (const part of chunks(firstOfEach(events, (e) => e.id)))
    await insertRows(
      trx,
      t.history,
      part.map((e) => {
        const row = historyRow(e);
        return { ...row, applied_fields: JSON.parse(row.applied_fields), stale_fields: JSON.parse(row.stale_fields) };
      }),
      ['event_id'],
    );
}

/**
 * Adds changes to a table of counters: summed per key in SQL, so that a statement touches each counter row once, then
 * added to what the row holds. A counter whose changes cancel out is still written (+0), as one change at a time would
 * leave it. `key`: the key columns and their types; `sums`: each counted column, its input in the rows and its sum.
 */
async function addToCounters(
  trx: Knex.Transaction,
  table: string,
  rows: readonly object[],
  key: readonly (readonly [column: string, type: string])[],
  sums: readonly (readonly [column: string, input: string, sum: string])[],
): Promise<void> {
  const keyColumns = key.map(([column]) => column).join(', ');
  const inputs = [...key.map(([column, type]) => `${column} ${type}`), ...sums.map(([, input]) => input)];
  for (const part of chunks(rows))
    await trx.raw(
      `INSERT INTO ?? (${keyColumns}, ${sums.map(([column]) => column).join(', ')})
       SELECT ${keyColumns}, ${sums.map(([, , sum]) => sum).join(', ')}
         FROM jsonb_to_recordset(?::jsonb) AS x(${inputs.join(', ')})
        GROUP BY ${key.map((_, i) => i + 1).join(', ')}
       ON CONFLICT (${keyColumns}) DO UPDATE SET ${sums.map(([column]) => `${column} = ??.${column} + excluded.${column}`).join(', ')}`,
      [table, JSON.stringify(part), ...sums.map(() => table)],
    );
}

/**
 * New rows in one statement, skipping keys already there: the rows as one JSON parameter typed by the table's own row
 * type (jsonb columns as JSON values, not their text), so the statement's text is the same whatever their number;
 * a multi-row insert bound every column of every row and was parsed and planned anew per batch size.
 */
async function insertRows(trx: Knex.Transaction, table: string, rows: object[], key: string[]): Promise<void> {
  await trx.raw(
    `INSERT INTO ?? SELECT * FROM jsonb_populate_recordset(null::??, ?::jsonb)
       ON CONFLICT (${key.map(() => '??').join(', ')}) DO NOTHING`,
    [table, table, JSON.stringify(rows), ...key],
  );
}

/** What an update of an order sets: every column but the key and what its created fixed. */
const updatedColumns = [
  ...Object.keys(columnsOf({})),
  'last_event_at',
  'cancelled',
  'event_count',
  'last_position',
] as const;

/** A date column as node-postgres hands it (local midnight), as YYYY-MM-DD. */
function dayOf(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
