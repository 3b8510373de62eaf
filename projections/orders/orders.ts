/**
 * The order view's read models (docs/orders-read-models.md, "Read models"): the orders as they show now, their history, and
 * orders and GMV per day, merchant, type and status, moved between status rows as orders change. Each order's row
 * keeps the position of the last event applied to it; an event at or before it changes nothing (history rows are
 * keyed by event id), so redelivery is harmless. Each batch is written in a few statements whatever its size
 * (order-batch.ts), with the same rows as one event at a time.
 */
import type { Knex } from 'knex';
import {
  isKnownOrderType,
  ordersEventDecoder,
  type OrderChanges,
  type OrderCancelled,
  type OrderCreated,
  type OrderEvent,
  type OrderUpdated,
  type OrdersEvent,
} from '../../domain/orders/index.js';
import { physical, type PhysicalNames, type Projected, type Projector } from '../shared/projector.js';
import { applyOrderEvents } from './order-batch.js';
import { createOrderTables, orderReadModelTables, orderTables } from './order-tables.js';

const eventNames = { OrderCreated: 'order.created', OrderUpdated: 'order.updated', OrderCancelled: 'order.cancelled' };

export const ordersProjector: Projector = {
  name: 'order-view-orders',
  // 2: order_view_daily_stats indexed by merchant and day. 3: listing indexes include the order's key (pages found in
  // the index alone), an index by merchant and payment status, vacuum's index clean-up always on,
  // order_view_status_totals and order_view_merchant_totals. 4: `cancelled` set by any order.cancelled received, not
  // only one whose status applied (that depended on the delivery order). 5: the amounts' columns numeric without a
  // scale, each amount exactly as sent (numeric(20, 4) rounded them to 4 decimals).
  version: 5,
  eventTypes: new Set<OrderEvent['type']>(['OrderCreated', 'OrderUpdated', 'OrderCancelled']),
  decoder: ordersEventDecoder,
  tables: orderReadModelTables,
  createTables: createOrderTables,
  async apply(trx: Knex.Transaction, events: readonly Projected<OrdersEvent>[], names: PhysicalNames) {
    const t = {
      orders: physical(names, orderTables.orders),
      history: physical(names, orderTables.history),
      daily: physical(names, orderTables.daily),
      totals: physical(names, orderTables.totals),
      merchantTotals: physical(names, orderTables.merchantTotals),
    };
    await applyOrderEvents(trx, t, events);
  },
};

export type Tables = { orders: string; history: string; daily: string; totals: string; merchantTotals: string };

/** The columns the order's fields give. */
export function columnsOf(fields: OrderChanges) {
  const a = fields.amounts ?? {};
  return {
    customer_id: fields.customer?.customer_id ?? null,
    order_type: fields.order_type ?? null,
    order_type_known: fields.order_type === undefined || isKnownOrderType(fields.order_type),
    order_name: fields.order_name ?? null,
    status: fields.status ?? null,
    payment_status: fields.payment_status ?? null,
    pnl_order_status: fields.pnl_order_status ?? null,
    business_unit_id: fields.business_unit_id ?? null,
    branch_id: fields.branch_id ?? null,
    seller_merchant_id: fields.seller_merchant_id ?? null,
    currency: a.currency ?? null,
    total_amount: a.total_amount ?? null,
    grand_total: a.grand_total ?? null,
    paid_amount: a.paid_amount ?? 0,
    refunded_amount: a.refunded_amount ?? 0,
    item_count: fields.items?.length ?? 0,
    fields: JSON.stringify(fields),
  };
}

export interface Bucket {
  day: string;
  merchant_id: string;
  order_type: string;
  status: string;
  currency: string;
}

export const bucketOf = (day: string, merchantId: string, c: ReturnType<typeof columnsOf>): Bucket => ({
  day,
  merchant_id: merchantId,
  order_type: c.order_type ?? '',
  status: c.status ?? '',
  currency: c.currency ?? '',
});

/** The history row of a recorded webhook. */
export function historyRow(e: Projected<OrderCreated | OrderUpdated | OrderCancelled>) {
  const d = e.data;
  const change = e.type === 'OrderCreated' ? null : e.data;
  return {
    event_id: e.id,
    merchant_id: d.merchantId,
    order_id: d.orderId,
    event: eventNames[e.type],
    event_timestamp: d.eventTimestamp,
    status: d.order.status ?? (e.type === 'OrderCancelled' ? 'CANCELLED' : null),
    payment_status: d.order.payment_status ?? null,
    applied_fields: JSON.stringify(change?.applied ?? []),
    stale_fields: JSON.stringify(change?.stale ?? []),
    early: change?.early ?? false,
    received_at: d.receivedAt,
    position: e.position,
  };
}

/** The order's row as its created makes it, with the day and columns its daily-stats bucket needs. */
export function createdRow(e: Projected<OrderCreated>) {
  const d = e.data;
  const columns = columnsOf(d.order);
  const orderedAt = new Date(d.eventTimestamp).toISOString();
  const day = orderedAt.slice(0, 10);
  const row = {
    merchant_id: d.merchantId,
    order_id: d.orderId,
    ...columns,
    created_by: d.source.created_by,
    platform_code: d.source.platform_code,
    miniapp_id: d.source.miniapp_id,
    ordered_at: orderedAt,
    order_day: day,
    last_event_at: orderedAt,
    cancelled: false,
    event_count: 1,
    last_position: e.position,
  };
  return { row, bucket: bucketOf(day, d.merchantId, columns), gmv: columns.grand_total ?? 0 };
}
