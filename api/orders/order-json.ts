/**
 * Orders as the order view answers them (docs/orders-read-models.md, "Read models"), in its snake_case. The order's extension
 * maps are embedded as the exact JSON text the sender sent: the answer is serialised with a placeholder where each
 * goes, then the text put in its place, so it never passes through a parse.
 */
import { randomUUID } from 'node:crypto';
import type {
  ListPosition,
  OrderChanges,
  OrderDetail,
  OrderPage,
  OrderSummary,
} from '../../application/orders/index.js';

export const summaryJson = (o: OrderSummary) => ({
  merchant_id: o.merchantId,
  order_id: o.orderId,
  customer_id: o.customerId,
  order_type: o.orderType,
  order_type_known: o.orderTypeKnown,
  order_name: o.orderName,
  status: o.status,
  payment_status: o.paymentStatus,
  business_unit_id: o.businessUnitId,
  branch_id: o.branchId,
  seller_merchant_id: o.sellerMerchantId,
  currency: o.currency,
  total_amount: o.totalAmount,
  grand_total: o.grandTotal,
  paid_amount: o.paidAmount,
  refunded_amount: o.refundedAmount,
  item_count: o.itemCount,
  ordered_at: o.orderedAt,
  last_event_at: o.lastEventAt,
  cancelled: o.cancelled,
});

/**
 * An order as the portal shows it: with order.created's envelope fields, named and placed as the seed's envelope
 * has them (beside `order`). The customer app's answers leave them out: `created_by` may name a staff user of the host
 * platform, not the customer (docs/orders-read-models.md, "Queries").
 */
export const portalSummaryJson = (o: OrderSummary) => ({
  ...summaryJson(o),
  created_by: o.createdBy,
  platform_code: o.platformCode,
  miniapp_id: o.miniappId,
});

type SummaryJson = (o: OrderSummary) => object;

/** A listing position as the opaque `next_cursor` / `after` the API hands out. */
export const cursorOf = (p: ListPosition): string =>
  Buffer.from(JSON.stringify([p.orderedAt, p.merchantId, p.orderId]), 'utf8').toString('base64url');

/** The position a cursor names, or undefined when it is not one this API handed out. */
export function positionOf(cursor: string): ListPosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 3 || !value.every((v) => typeof v === 'string')) return undefined;
    const [orderedAt, merchantId, orderId] = value as [string, string, string];
    if (Number.isNaN(Date.parse(orderedAt)) || new Date(orderedAt).toISOString() !== orderedAt) return undefined;
    return { orderedAt, merchantId, orderId };
  } catch {
    return undefined;
  }
}

export const pageJson = (p: OrderPage, page: number, size: number, summary: SummaryJson = summaryJson) => ({
  orders: p.orders.map(summary),
  page,
  size,
  total: p.total,
  counts_by_status: p.countsByStatus,
  counts_exact: p.countsExact,
  next_cursor: p.next ? cursorOf(p.next) : null,
});

/** The order's fields with each extension map (JSON text) swapped for a placeholder, and the texts by placeholder. */
function withPlaceholders(order: OrderChanges): { order: unknown; raw: Map<string, string> } {
  const raw = new Map<string, string>();
  const nonce = randomUUID();
  const hold = (text: string | undefined) => {
    if (text === undefined) return undefined;
    const key = `@@raw-${nonce}-${raw.size}@@`;
    raw.set(key, text);
    return key;
  };
  return {
    raw,
    order: {
      ...order,
      metadata: hold(order.metadata),
      attributes: hold(order.attributes),
      items: order.items?.map((i) => ({
        ...i,
        attributes: hold(i.attributes),
        sub_items: i.sub_items?.map((s) => ({ ...s, attributes: hold(s.attributes) })),
      })),
      fees: order.fees?.map((f) => ({ ...f, metadata: hold(f.metadata) })),
      promotion_infos: order.promotion_infos?.map((p) => ({ ...p, extra_data: hold(p.extra_data) })),
    },
  };
}

/** The detail in an interface's success envelope, as JSON bytes with the extension maps exactly as sent. */
export function detailBytes(
  o: OrderDetail,
  envelope: (data: unknown) => unknown,
  summary: SummaryJson = summaryJson,
): Buffer {
  const { order, raw } = withPlaceholders(o.order);
  const data = {
    ...summary(o),
    order,
    history: o.history.map((h) => ({
      event: h.event,
      event_timestamp: h.eventTimestamp,
      status: h.status,
      payment_status: h.paymentStatus,
      applied_fields: h.appliedFields,
      stale_fields: h.staleFields,
      early: h.early,
      received_at: h.receivedAt,
    })),
  };
  let text = JSON.stringify(envelope(data));
  // A function, so that `$&` and the like in the sender's text are not read as replacement patterns.
  for (const [key, value] of raw) text = text.replace(JSON.stringify(key), () => value);
  return Buffer.from(text, 'utf8');
}
