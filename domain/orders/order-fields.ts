/**
 * The order as the business unit's backend sends it (spec 002 part A, "Resources"), in the sender's snake_case: the
 * snapshot and changes the order events carry. Extension maps (`metadata`, `attributes`, `extra_data`, fee
 * `metadata`) are kept as the JSON text the sender sent, byte for byte (docs/orders-fields.md, "Extension maps").
 */

/** JSON text exactly as it was sent (an object), never re-serialised. */
export type RawJson = string;

/** The named values of `order_type`; others are accepted and flagged (the seed says the full list is kept elsewhere). */
export const knownOrderTypes = [
  'AFTER_SALES',
  'CAR_PURCHASE',
  'BILLING_PAYMENT',
  'PROMOTION_PURCHASE',
  'EV_AND_CHARGING',
] as const;

export const isKnownOrderType = (type: string): boolean => (knownOrderTypes as readonly string[]).includes(type);

export interface OrderCustomer {
  customer_id: string;
  name: string;
  phone?: string;
  email?: string;
}

export interface OrderSubItem {
  sub_item_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  total_price: number;
  currency: string;
  description?: string;
  item_type?: string;
  item_category?: string;
  category_code?: string;
  category_name?: string;
  image_url?: string;
  attributes?: RawJson;
}

export interface OrderItem extends Omit<OrderSubItem, 'sub_item_id'> {
  item_id: string;
  sub_items?: OrderSubItem[];
}

export interface OrderFee {
  fee_code?: string;
  description?: string;
  amount: number;
  metadata?: RawJson;
}

export interface OrderPromotion {
  voucher_code?: string;
  voucher_id?: string;
  campaign_id?: string;
  campaign_name?: string;
  discount_type?: string;
  discount_value?: number;
  amount_before_discount?: number;
  discount_amount?: number;
  amount_after_discount?: number;
  extra_data?: RawJson;
}

export interface OrderTransaction {
  transaction_id: string;
  provider: string;
  method: string;
  voucher_code?: string;
  amount: number;
  status: string;
  note?: string;
  captured_at?: number;
}

export interface OrderAmounts {
  currency?: string;
  total_amount?: number;
  paid_amount?: number;
  refunded_amount?: number;
  grand_total?: number;
}

/**
 * The amounts the seed gives a default ("`paid_amount` ... no, >= 0, default 0", `refunded_amount` likewise): an order
 * that never sent one shows 0 (docs/orders-read-models.md, "Queries"). The events keep what was sent.
 */
export function withDefaultAmounts(amounts: OrderAmounts): OrderAmounts {
  return { ...amounts, paid_amount: amounts.paid_amount ?? 0, refunded_amount: amounts.refunded_amount ?? 0 };
}

/** The fields of `order` a webhook carries besides order_id (all optional here: each event's rules say which it needs). */
export interface OrderChanges {
  order_type?: string;
  order_name?: string;
  category_code?: string;
  category_name?: string;
  status?: string;
  pnl_order_status?: string;
  pnl_order_status_label?: string;
  payment_status?: string;
  description?: string;
  business_unit_id?: string;
  branch_id?: string;
  seller_merchant_id?: string;
  customer?: OrderCustomer;
  items?: OrderItem[];
  fees?: OrderFee[];
  promotion_infos?: OrderPromotion[];
  transactions?: OrderTransaction[];
  amounts?: OrderAmounts;
  image_url?: string;
  deeplink?: string;
  metadata?: RawJson;
  attributes?: RawJson;
}

/** Who created the order on the host platform (order.created's envelope). */
export interface OrderSource {
  created_by: string;
  platform_code: string;
  miniapp_id: string;
}

/**
 * Fields set by order.created that an update or a cancellation may repeat but never change (docs/orders-fields.md,
 * "What an update may change"): `business_unit_id` and `branch_id` (the seed: they tell accounting who owns the
 * order and "cannot be changed later"); `seller_merchant_id`, the other field only the created's secure_hash covers;
 * `customer`, whose order it is (the customer app shows it to that user), and `deeplink`, where the customer app sends
 * them: none is among what the seed says an update changes ("status, payment, items, fees, metadata"), and an update's
 * secure_hash covers none of them.
 */
export const immutableOrderFields = [
  'business_unit_id',
  'branch_id',
  'seller_merchant_id',
  'customer',
  'deeplink',
] as const;

/** A value the order shows, as one field of the last-writer-wins merge: `amounts.<x>` per amount, else per key. */
export type OrderFieldKey = string;

/** The changes as fields of the merge: every key of `order` but amounts, which counts per amount. */
export function fieldsOf(changes: OrderChanges): [OrderFieldKey, unknown][] {
  const out: [OrderFieldKey, unknown][] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (key === 'amounts') {
      for (const [sub, amount] of Object.entries(value as OrderAmounts))
        if (amount !== undefined) out.push([`amounts.${sub}`, amount]);
    } else out.push([key, value]);
  }
  return out;
}
