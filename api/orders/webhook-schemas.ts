/**
 * The three webhooks' bodies as zod schemas (spec 002 part A, "Resources"; docs/orders-fields.md, "Field rules"): every rule
 * of the seed's tables, in the sender's snake_case. Text is taken as sent (never trimmed: it is signed). Unknown
 * fields are ignored. Extension maps are checked to be objects here and replaced by their raw text afterwards
 * (raw-json.ts). A body parsed by its schema is the typed webhook (application/orders, OrderWebhook).
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { OrderChanges, OrderWebhook, SignedWebhook, WebhookKind } from '../../application/orders/index.js';
import { absoluteUrl, inCharacters } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

// Lengths are characters (code points): docs/orders-fields.md, "Field rules".
const nonEmpty = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const maxText = (max: number) => inCharacters(nonEmpty(max));
const freeText = inCharacters(z.string().max(4096, 'must be at most 4096 characters'));
/**
 * A value of the string to sign, which joins values with `|` (docs/orders-signing.md, "Signing"): a `|` inside one
 * would let one secure_hash stand for other values of the fields around it.
 */
const signedText = (max: number) =>
  inCharacters(nonEmpty(max).regex(/^[^|]*$/, 'must not contain | (it separates the values of the string to sign)'));
/** The largest amount whose integer part signs exactly (2^53 - 1). */
const money = z
  .number()
  .min(0, 'must be >= 0')
  .max(Number.MAX_SAFE_INTEGER, 'must be at most 9007199254740991')
  .openapi({ description: '>= 0; signs as its integer part' });
const unixMs = z
  .number()
  .int('must be an integer (Unix ms)')
  .min(0, 'must be >= 0')
  .max(Number.MAX_SAFE_INTEGER, 'must be at most 9007199254740991');
const quantity = z.number().int('must be an integer').min(1, 'must be >= 1').max(1_000_000_000);
/** A key-value object, stored and answered as the JSON text sent (docs/orders-fields.md, "Extension maps"). */
const extension = z
  .record(z.unknown(), { invalid_type_error: 'must be a JSON object' })
  .openapi({ description: 'free-form key-value object, stored and answered byte for byte as sent' });
const url = absoluteUrl(true).openapi({ format: 'uri' });

const lineFields = {
  name: maxText(256),
  quantity,
  description: freeText.optional(),
  unit_price: money,
  total_price: money,
  item_type: maxText(64).optional(),
  item_category: maxText(256).optional().openapi({ deprecated: true, description: 'deprecated; still accepted' }),
  category_code: maxText(64).optional(),
  category_name: maxText(256).optional(),
  currency: maxText(8),
  image_url: url.optional(),
  attributes: extension.optional(),
};

const subItem = z.object({ sub_item_id: maxText(64), ...lineFields });
const item = z.object({ item_id: maxText(64), ...lineFields, sub_items: z.array(subItem).max(1000).optional() });

const customer = z.object({
  customer_id: maxText(64),
  name: maxText(128),
  phone: z
    .string()
    .regex(/^[0-9]{10,11}$/, 'must be 10 to 11 digits')
    .optional(),
  email: inCharacters(
    z.string().max(254, 'must be at most 254 characters').email('must be an e-mail address'),
  ).optional(),
});

const fee = z.object({
  fee_code: maxText(64).optional(),
  description: freeText.optional(),
  amount: money,
  metadata: extension.optional(),
});

const promotion = z.object({
  voucher_code: maxText(64).optional(),
  voucher_id: maxText(64).optional(),
  campaign_id: maxText(64).optional(),
  campaign_name: maxText(255).optional(),
  discount_type: maxText(32).optional(),
  discount_value: money.optional(),
  amount_before_discount: money.optional(),
  discount_amount: money.optional(),
  amount_after_discount: money.optional(),
  extra_data: extension.optional(),
});

const transaction = z.object({
  transaction_id: maxText(64),
  provider: maxText(64),
  method: maxText(64),
  voucher_code: maxText(64).optional(),
  amount: money,
  status: maxText(32).openapi({ description: 'recommended: PENDING, COMPLETED, FAILED, CANCELLED' }),
  note: inCharacters(z.string().max(512, 'must be at most 512 characters')).optional(),
  captured_at: unixMs.optional(),
});

const amounts = z.object({
  currency: maxText(8),
  total_amount: money.openapi({ description: 'order total before promotion' }),
  paid_amount: money.optional(),
  refunded_amount: money.optional(),
  grand_total: money.openapi({ description: 'what the user pays, after promotion; not above total_amount' }),
});

/** grand_total never above total_amount, where both are known. */
const grandTotalRule = (a: { total_amount?: number; grand_total?: number } | undefined, ctx: z.RefinementCtx) => {
  if (a?.grand_total !== undefined && a.total_amount !== undefined && a.grand_total > a.total_amount)
    ctx.addIssue({ code: 'custom', path: ['amounts', 'grand_total'], message: 'must not be above total_amount' });
};

/** The fields of `order` every event may carry (the created's required ones are required there). */
const orderFields = {
  order_id: signedText(64),
  order_type: maxText(64).openapi({
    description:
      'named: AFTER_SALES, CAR_PURCHASE, BILLING_PAYMENT, PROMOTION_PURCHASE, EV_AND_CHARGING; others accepted and flagged',
  }),
  order_name: maxText(256).optional(),
  category_code: maxText(64).optional(),
  category_name: maxText(256).optional(),
  status: maxText(64),
  pnl_order_status: maxText(64),
  pnl_order_status_label: maxText(256).optional(),
  payment_status: maxText(64),
  description: freeText.optional(),
  business_unit_id: signedText(64).optional(),
  branch_id: signedText(64).optional(),
  seller_merchant_id: signedText(64).optional(),
  customer,
  items: z.array(item).min(1, 'must hold at least one item when present').max(1000).optional(),
  fees: z.array(fee).max(1000).optional(),
  promotion_infos: z.array(promotion).max(1000).optional(),
  transactions: z.array(transaction).max(1000).optional(),
  amounts,
  image_url: url.optional(),
  // Required on order.created since v1.1 (the seed's version history); an update may change it.
  deeplink: inCharacters(z.string().min(1).max(2048)),
  metadata: extension.optional(),
  attributes: extension.optional(),
};

const createdOrder = z.object(orderFields).superRefine((o, ctx) => grandTotalRule(o.amounts, ctx));

/** An update carries order_id and whatever changed; amounts, when sent, with both grand_total and total_amount. */
const changedOrder = z
  .object({
    ...orderFields,
    order_type: orderFields.order_type.optional(),
    status: orderFields.status.optional(),
    pnl_order_status: orderFields.pnl_order_status.optional(),
    payment_status: orderFields.payment_status.optional(),
    customer: customer.optional(),
    deeplink: orderFields.deeplink.optional(),
    amounts: amounts
      .partial()
      .superRefine((a, ctx) => {
        if ((a.grand_total === undefined) !== (a.total_amount === undefined))
          ctx.addIssue({
            code: 'custom',
            path: [a.grand_total === undefined ? 'grand_total' : 'total_amount'],
            message: 'is required with amounts.grand_total and amounts.total_amount (they are signed together)',
          });
      })
      .optional(),
  })
  .superRefine((o, ctx) => grandTotalRule(o.amounts, ctx));

const envelope = {
  secure_hash: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters'),
  event_timestamp: unixMs.openapi({ description: 'Unix ms' }),
};

export const createdBody = z
  .object({
    ...envelope,
    created_by: maxText(128),
    platform_code: signedText(64),
    miniapp_id: signedText(64),
    order: createdOrder,
  })
  .openapi('OrderCreatedWebhook');

export const updatedBody = z.object({ ...envelope, order: changedOrder }).openapi('OrderUpdatedWebhook');
export const cancelledBody = z.object({ ...envelope, order: changedOrder }).openapi('OrderCancelledWebhook');

export const webhookBodies: Record<WebhookKind, z.ZodTypeAny> = {
  CREATED: createdBody,
  UPDATED: updatedBody,
  CANCELLED: cancelledBody,
};

type ParsedOrder = z.infer<typeof changedOrder>;

type ParsedBody = { secure_hash: string; event_timestamp: number; order: ParsedOrder } & Partial<
  Record<'created_by' | 'platform_code' | 'miniapp_id', string>
>;

const sourceOf = (body: ParsedBody) => ({
  created_by: body.created_by!,
  platform_code: body.platform_code!,
  miniapp_id: body.miniapp_id!,
});

/**
 * What the secure_hash covers, from the parsed body alone: the signature is checked on it before the raw text is
 * walked for the extension maps (docs/orders-signing.md, "Headers"), so an unsigned body costs no walk of its own.
 */
export function signedWebhookOf(kind: WebhookKind, body: ParsedBody): SignedWebhook {
  const { order_id: orderId, amounts, branch_id, business_unit_id, seller_merchant_id } = body.order;
  return {
    kind,
    eventTimestamp: body.event_timestamp,
    orderId,
    order: withoutUndefined({ amounts, branch_id, business_unit_id, seller_merchant_id }),
    ...(kind === 'CREATED' && { source: sourceOf(body) }),
  };
}

/** The parsed body as the typed webhook, its extension maps replaced by the raw text found at their paths. */
export function webhookOf(
  kind: WebhookKind,
  body: ParsedBody,
  raw: (path: readonly (string | number)[]) => string,
): OrderWebhook {
  const { order_id: orderId, ...rest } = body.order;
  const map = <T extends object>(value: T | undefined, path: (string | number)[]) =>
    value === undefined ? undefined : raw(path);
  const at = ['order'];
  const order: OrderChanges = {
    ...rest,
    metadata: map(rest.metadata, [...at, 'metadata']),
    attributes: map(rest.attributes, [...at, 'attributes']),
    items: rest.items?.map((it, i) => ({
      ...it,
      attributes: map(it.attributes, [...at, 'items', i, 'attributes']),
      sub_items: it.sub_items?.map((sub, j) => ({
        ...sub,
        attributes: map(sub.attributes, [...at, 'items', i, 'sub_items', j, 'attributes']),
      })),
    })),
    fees: rest.fees?.map((f, i) => ({ ...f, metadata: map(f.metadata, [...at, 'fees', i, 'metadata']) })),
    promotion_infos: rest.promotion_infos?.map((p, i) => ({
      ...p,
      extra_data: map(p.extra_data, [...at, 'promotion_infos', i, 'extra_data']),
    })),
  };
  return {
    kind,
    secureHash: body.secure_hash,
    eventTimestamp: body.event_timestamp,
    orderId,
    order: withoutUndefined(order),
    ...(kind === 'CREATED' && { source: sourceOf(body) }),
  };
}

/** Drops keys whose value is undefined, at every depth: what was not sent is not there. */
function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, withoutUndefined(v)]),
    ) as T;
  return value;
}

/** Where the extension maps are: the paths raw-json.ts returns the text of (`#`: any index). */
export const extensionPaths = [
  'order.metadata',
  'order.attributes',
  'order.items.#.attributes',
  'order.items.#.sub_items.#.attributes',
  'order.fees.#.metadata',
  'order.promotion_infos.#.extra_data',
];
