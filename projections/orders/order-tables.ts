/**
 * The order view's read-model tables (docs/orders-read-models.md, "Read models"), with the comments analysts read: the orders as
 * they show now, each order's history of events, orders and GMV per day, and orders per status (overall and per
 * merchant and type), kept by the projector.
 */
import type { Knex } from 'knex';
import { physical, type PhysicalNames, type ReadModelTable } from '../shared/projector.js';

export const orderTables = {
  orders: 'order_view_orders',
  history: 'order_view_order_history',
  daily: 'order_view_daily_stats',
  totals: 'order_view_status_totals',
  merchantTotals: 'order_view_merchant_totals',
} as const;

export const orderReadModelTables: readonly ReadModelTable[] = [
  {
    name: orderTables.orders,
    comment:
      "The central order view's orders, one row per merchant and order_id, as they show now (each field the newest by the sender's event_timestamp). Eventually consistent with the event store (projector lag at /metrics). Fed by OrderCreated, OrderUpdated, OrderCancelled; orders whose created has not come are not here.",
    columns: {
      merchant_id: 'Merchant (accounting partner code) whose key sent the webhooks.',
      order_id: "The sender's order id, unique per merchant.",
      customer_id: 'order.customer.customer_id: the host-platform user the order belongs to.',
      order_type: 'order.order_type (product type).',
      order_type_known: 'Whether order_type is one of the named product types (false: accepted and flagged).',
      order_name: 'order.order_name, or null.',
      status: 'order.status as the sender names it (CANCELLED after order.cancelled without a status).',
      payment_status: 'order.payment_status.',
      pnl_order_status: "order.pnl_order_status: the sender's original status code.",
      business_unit_id: 'Accounting business unit, fixed by order.created; null if not sent.',
      branch_id: 'Accounting branch, fixed by order.created; null if not sent.',
      seller_merchant_id: 'Marketplace seller, or null.',
      currency: 'order.amounts.currency.',
      total_amount: 'order.amounts.total_amount: total before promotion, exactly as sent.',
      grand_total: 'order.amounts.grand_total: what the customer pays (GMV counts this), exactly as sent.',
      paid_amount: 'order.amounts.paid_amount exactly as sent (0 if never sent: the seed says default 0).',
      refunded_amount: 'order.amounts.refunded_amount exactly as sent (0 if never sent: the seed says default 0).',
      item_count: 'Number of order.items (0 for a zero-item order).',
      created_by: 'order.created envelope: who created it on the host platform.',
      platform_code: 'order.created envelope: the host app.',
      miniapp_id: 'order.created envelope: the mini-app that created it.',
      ordered_at: "order.created's event_timestamp: when the order was created at the sender.",
      order_day: 'ordered_at as a UTC date: the day order_view_daily_stats counts the order under.',
      last_event_at: 'The newest event_timestamp applied to the order.',
      cancelled:
        'Whether an order.cancelled was received, late ones included (status may show another value: a reopened order).',
      fields: 'The order as it shows now: the fields of `order` as JSON, extension maps as their exact JSON text.',
      event_count: 'Webhooks recorded for the order (created, updated, cancelled; repeats are not recorded).',
      last_position: 'Global position of the last event applied to this row.',
    },
  },
  {
    name: orderTables.history,
    comment:
      "Each order's history: one row per order.created, order.updated and order.cancelled recorded, late ones included. Eventually consistent. Fed by OrderCreated, OrderUpdated, OrderCancelled.",
    columns: {
      event_id: 'Id of the event in the event store.',
      merchant_id: 'Merchant of the order.',
      order_id: 'The order.',
      event: 'order.created, order.updated or order.cancelled.',
      event_timestamp: "The sender's event_timestamp.",
      status: 'order.status the webhook carried (null if none).',
      payment_status: 'order.payment_status the webhook carried (null if none).',
      applied_fields: 'Fields it set (JSON array).',
      stale_fields: 'Fields it carried that a newer event had set already (JSON array): a late webhook.',
      early: 'Whether it came before the order.created and waited for it.',
      received_at: 'When this service received it.',
      position: 'Global position of the event.',
    },
  },
  {
    name: orderTables.daily,
    comment:
      'Orders and GMV per UTC day of creation, merchant, order type and current status, kept by the projector as orders change (an order moves between status rows; no scan per query). Eventually consistent.',
    columns: {
      day: "UTC date of the order's ordered_at.",
      merchant_id: 'Merchant.',
      order_type: 'Product type.',
      status: "The orders' current status.",
      currency: 'Currency of the amounts.',
      order_count: 'Orders of that day, merchant, type and status now.',
      gmv: 'Sum of their grand_total, each rounded to 4 decimals.',
    },
  },
  {
    name: orderTables.totals,
    comment:
      'Orders per current status over every merchant and day, kept by the projector as orders change (the whole table counted without a scan: the portal listing without a filter). Eventually consistent.',
    columns: {
      status: "The orders' current status.",
      order_count: 'Orders in that status now.',
    },
  },
  {
    name: orderTables.merchantTotals,
    comment:
      "Orders per merchant, order type and current status over every day, kept by the projector as orders change (a merchant's listing counted without a scan). Eventually consistent.",
    columns: {
      merchant_id: 'Merchant.',
      order_type: 'Product type.',
      status: "The orders' current status.",
      order_count: 'Orders of that merchant and type in that status now.',
    },
  },
];

export async function createOrderTables(knex: Knex, names: PhysicalNames): Promise<void> {
  const orders = physical(names, orderTables.orders);
  await knex.schema.createTable(orders, (b) => {
    b.text('merchant_id').notNullable();
    b.text('order_id').notNullable();
    b.text('customer_id');
    b.text('order_type');
    b.boolean('order_type_known').notNullable();
    b.text('order_name');
    b.text('status');
    b.text('payment_status');
    b.text('pnl_order_status');
    b.text('business_unit_id');
    b.text('branch_id');
    b.text('seller_merchant_id');
    b.text('currency');
    // numeric without a scale: each amount exactly as sent (numeric(20, 4) answered 12345678.123456 as
    // 12345678.1235; docs/orders-read-models.md, "Read models").
    b.decimal('total_amount', null);
    b.decimal('grand_total', null);
    b.decimal('paid_amount', null).notNullable();
    b.decimal('refunded_amount', null).notNullable();
    b.integer('item_count').notNullable();
    b.text('created_by').notNullable();
    b.text('platform_code').notNullable();
    b.text('miniapp_id').notNullable();
    b.timestamp('ordered_at', { useTz: true }).notNullable();
    b.date('order_day').notNullable();
    b.timestamp('last_event_at', { useTz: true }).notNullable();
    b.boolean('cancelled').notNullable();
    b.jsonb('fields').notNullable();
    b.integer('event_count').notNullable();
    b.text('last_position').notNullable();
    b.primary(['merchant_id', 'order_id']);
  });
  // Listings read newest first along one of these. Each includes the other filters' columns and the order's key, so
  // that a count, and the page's keys, are index-only scans: counting N matches reads N index entries, not N rows of
  // ~1 kB each, and a page filtered on included columns fetches its 50 rows, not every row it skips
  // (docs/orders-read-models.md, "Indexes").
  const filters = ['status', 'payment_status', 'order_type'];
  const orderKey = ['merchant_id', 'order_id'];
  const indexes: [name: string, key: string[], include: string[]][] = [
    ['customer', ['customer_id', 'ordered_at'], [...filters, ...orderKey]],
    [
      'merchant',
      ['merchant_id', 'ordered_at'],
      [...filters, 'business_unit_id', 'branch_id', 'seller_merchant_id', 'order_id'],
    ],
    ['merchant_status', ['merchant_id', 'status', 'ordered_at'], ['payment_status', 'order_type', 'order_id']],
    ['merchant_payment', ['merchant_id', 'payment_status', 'ordered_at'], ['status', 'order_type', 'order_id']],
    ['business_unit', ['business_unit_id', 'ordered_at'], [...filters, 'branch_id', ...orderKey]],
    ['branch', ['branch_id', 'ordered_at'], [...filters, ...orderKey]],
    ['seller', ['seller_merchant_id', 'ordered_at'], [...filters, ...orderKey]],
    ['ordered', ['ordered_at'], [...filters, ...orderKey]],
  ];
  for (const [name, key, include] of indexes)
    await knex.raw(
      `CREATE INDEX ?? ON ?? (${key.map(() => '??').join(', ')}) INCLUDE (${include.map(() => '??').join(', ')})`,
      [`${orders}_${name}`, orders, ...key, ...include],
    );
  // Those index-only scans read the table for every page autovacuum has not yet marked all-visible. By default it
  // waits for a fifth of the table to change (200 000 rows at a million orders: after a busy hour, hours later); at a
  // hundredth it passes every few minutes of webhooks. And a vacuum that finds dead rows on fewer than 2% of the
  // pages skips the indexes and leaves those pages not all-visible, which at 1% is every pass: index clean-up on.
  await knex.raw(
    `ALTER TABLE ?? SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01,
       autovacuum_analyze_scale_factor = 0.02, vacuum_index_cleanup = on)`,
    [orders],
  );
  const history = physical(names, orderTables.history);
  await knex.schema.createTable(history, (b) => {
    b.text('event_id').primary();
    b.text('merchant_id').notNullable();
    b.text('order_id').notNullable();
    b.text('event').notNullable();
    b.bigInteger('event_timestamp').notNullable();
    b.text('status');
    b.text('payment_status');
    b.jsonb('applied_fields').notNullable();
    b.jsonb('stale_fields').notNullable();
    b.boolean('early').notNullable();
    b.timestamp('received_at', { useTz: true }).notNullable();
    b.text('position').notNullable();
    b.index(['merchant_id', 'order_id', 'event_timestamp'], `${history}_order`);
  });
  const daily = physical(names, orderTables.daily);
  await knex.schema.createTable(daily, (b) => {
    b.date('day').notNullable();
    b.text('merchant_id').notNullable();
    b.text('order_type').notNullable();
    b.text('status').notNullable();
    b.text('currency').notNullable();
    b.bigInteger('order_count').notNullable();
    b.decimal('gmv', 24, 4).notNullable();
    b.primary(['day', 'merchant_id', 'order_type', 'status', 'currency']);
    // A merchant's days: the listings' counts beyond the count limit sum these rows (docs/orders-read-models.md).
    b.index(['merchant_id', 'day'], `${daily}_merchant`);
  });
  await knex.schema.createTable(physical(names, orderTables.totals), (b) => {
    b.text('status').primary();
    b.bigInteger('order_count').notNullable();
  });
  await knex.schema.createTable(physical(names, orderTables.merchantTotals), (b) => {
    b.text('merchant_id').notNullable();
    b.text('order_type').notNullable();
    b.text('status').notNullable();
    b.bigInteger('order_count').notNullable();
    b.primary(['merchant_id', 'order_type', 'status']);
  });
}
