/**
 * The checkout interface's bodies and answers as zod schemas (spec part B, "Checkout structures"), in its snake_case.
 * A parsed body is the typed request the services take; refusals are 400 with code 8400 naming the field
 * (docs/checkout.md, "Requests").
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  codeTypes,
  promotionTypes,
  type ApplicablePromotion,
  type CheckoutOrder,
  type DiscountResult,
  type ReservationView,
  type SelectedPromotion,
} from '../../application/checkout/index.js';
import { inCharacters } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

/** Amounts in VND are integers (no minor unit); JSON numbers beyond 2^53 are refused. */
const vnd = (what: string) =>
  z
    .number({ invalid_type_error: 'must be a number' })
    .int('must be a whole number of VND')
    .min(-Number.MAX_SAFE_INTEGER)
    .max(Number.MAX_SAFE_INTEGER)
    .describe(`${what}, VND`);

const id = (what: string, max = 64) =>
  inCharacters(
    z
      .string({ invalid_type_error: 'must be a string' })
      .trim()
      .min(1, 'must not be empty')
      .max(max, `must be at most ${max} characters`),
  ).describe(what);

const item = z
  .object({
    item_id: id('unique within its order'),
    sku: inCharacters(z.string().max(128)).optional(),
    name: inCharacters(z.string().max(500)).optional(),
    quantity: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000),
    unit_price: vnd('unit price; negative values allowed (a line that gives money back)'),
    categories: z.array(id('a category', 100)).max(50).optional(),
  })
  .strict();

const order = z
  .object({
    merchant_id: id('merchant code; matches promotions by merchant and scope'),
    subtotal: vnd('sum(unit_price × quantity) of its items; the basis of the discount and of min_order_value'),
    items: z.array(item).min(1, 'must hold at least one item').max(500),
  })
  .strict()
  .superRefine((o, ctx) => {
    const seen = new Set<string>();
    o.items.forEach((i, n) => {
      if (seen.has(i.item_id))
        ctx.addIssue({ code: 'custom', path: ['items', n, 'item_id'], message: 'must be unique within the order' });
      seen.add(i.item_id);
    });
    const sum = o.items.reduce((s, i) => s + i.unit_price * i.quantity, 0);
    if (Number.isSafeInteger(sum) && sum !== o.subtotal)
      ctx.addIssue({
        code: 'custom',
        path: ['subtotal'],
        message: `must equal sum(unit_price × quantity) of its items (${sum})`,
      });
    if (!Number.isSafeInteger(sum))
      ctx.addIssue({ code: 'custom', path: ['items'], message: 'the sum of the lines is too large' });
  });

const orders = z
  .array(order)
  .min(1, 'must hold at least one order')
  .max(50)
  .superRefine((os, ctx) => {
    const seen = new Set<string>();
    os.forEach((o, n) => {
      if (seen.has(o.merchant_id))
        ctx.addIssue({ code: 'custom', path: [n, 'merchant_id'], message: 'one entry per merchant' });
      seen.add(o.merchant_id);
    });
  })
  .describe('one entry per merchant');

const selected = z
  .object({
    promotion_id: z.number().int('must be an integer').positive('must be positive').max(Number.MAX_SAFE_INTEGER),
    code_type: z.enum(codeTypes, { errorMap: () => ({ message: 'must be UNIQUE or SHARED' }) }),
    pin_code: inCharacters(z.string().min(1).max(32))
      .optional()
      .describe('the pin of a promotion whose master requires one'),
  })
  .strict();

const selectedPromotions = z
  .array(selected)
  .min(1, 'must select one promotion')
  .max(1, 'one promotion per checkout: stacking is not supported yet')
  .describe('exactly one (spec: "A checkout supports exactly one selected promotion")');

const orderId = id('the order id (or master/group order id for several merchants)', 128);
const reservationKey = z.string().uuid('must be a reservation key (a UUID)').describe('from /reserve');
const reason = inCharacters(z.string().max(500)).optional().describe('logging only');

const toOrders = (os: z.infer<typeof orders>): CheckoutOrder[] =>
  os.map((o) => ({
    merchantId: o.merchant_id,
    subtotal: o.subtotal,
    items: o.items.map((i) => ({
      itemId: i.item_id,
      quantity: i.quantity,
      unitPrice: i.unit_price,
      categories: i.categories ?? [],
    })),
  }));

const toSelected = (s: z.infer<typeof selectedPromotions>): SelectedPromotion[] =>
  s.map((p) => ({ promotionId: p.promotion_id, codeType: p.code_type, ...(p.pin_code && { pinCode: p.pin_code }) }));

export const applicableBody = z
  .object({ orders })
  .strict()
  .transform((b) => ({ orders: toOrders(b.orders) }))
  .openapi('ApplicableRequest');

export const previewBody = z
  .object({ selected_promotions: selectedPromotions, orders })
  .strict()
  .transform((b) => ({ selected: toSelected(b.selected_promotions), orders: toOrders(b.orders) }))
  .openapi('PreviewDiscountRequest');

export const reserveBody = z
  .object({ order_id: orderId, selected_promotions: selectedPromotions, orders })
  .strict()
  .transform((b) => ({ orderId: b.order_id, selected: toSelected(b.selected_promotions), orders: toOrders(b.orders) }))
  .openapi('ReservePromotionRequest');

export const confirmBody = z
  .object({ reservation_key: reservationKey, order_id: orderId })
  .strict()
  .openapi('ConfirmPromotionRequest');

export const releaseBody = z
  .object({ reservation_key: reservationKey, order_id: orderId, reason })
  .strict()
  .openapi('ReleasePromotionRequest');

export const getReservationBody = confirmBody;
export const refundBody = releaseBody.openapi('RefundPromotionRequest');

// ---- answers ----

const discountConfig = z.object({
  type: z.enum(['PERCENTAGE', 'FIXED']),
  percentage: z.number().int().nullable(),
  max_discount: z.number().int().nullable(),
  amount: z.number().int().nullable(),
});

export const applicablePromotionSchema = z
  .object({
    promotion_master_id: z.number().int(),
    promotion_id: z.number().int(),
    code: z.string(),
    promotion_type: z.enum(promotionTypes),
    title: z.string(),
    min_order_value: z.number().int(),
    expires_at: z.number().int().describe('Unix time, milliseconds'),
    is_eligibility: z.boolean(),
    ineligible_reason: z
      .string()
      .nullable()
      .describe('addition: why is_eligibility is false (docs/checkout.md, "applicable"); null when eligible'),
    scope: z.enum(['PLATFORM', 'MERCHANT']),
    merchant_id: z.string().optional().describe('present when scope is MERCHANT'),
    discount_config: discountConfig,
    code_type: z.enum(codeTypes),
    pin_required: z.boolean(),
    pin_code: z.string().optional().describe('present when the promotion has a pin'),
    logo_url: z.string().nullable(),
    banner_url: z.string().nullable(),
  })
  .openapi('ApplicablePromotion');

export function applicableJson(p: ApplicablePromotion): z.infer<typeof applicablePromotionSchema> {
  const { promotion, master } = p.entry;
  const d = master.discount;
  return {
    promotion_master_id: master.promotionMasterId,
    promotion_id: promotion.promotionId,
    code: p.code,
    promotion_type: master.promotionType,
    title: master.title,
    min_order_value: master.minOrderValue,
    expires_at: Date.parse(promotion.validUntil),
    is_eligibility: p.eligible,
    ineligible_reason: p.reason,
    scope: master.scope.type,
    ...(master.scope.type === 'MERCHANT' && { merchant_id: master.scope.merchantId }),
    discount_config:
      d.type === 'PERCENTAGE'
        ? { type: 'PERCENTAGE', percentage: d.percentage, max_discount: d.maxDiscount, amount: null }
        : { type: 'FIXED', percentage: null, max_discount: null, amount: d.amount },
    code_type: master.codeType,
    pin_required: master.pinRequired,
    ...(p.pin !== null && { pin_code: p.pin }),
    logo_url: master.logoUrl,
    banner_url: master.bannerUrl,
  };
}

const breakdownLine = z.object({
  promotion: z.object({
    promotion_master_id: z.number().int(),
    promotion_id: z.number().int(),
    code: z.string(),
    promotion_type: z.enum(promotionTypes),
    code_type: z.enum(codeTypes),
    title: z.string().optional().describe('/reserve only'),
    short_title: z.string().optional().describe('/reserve only'),
  }),
  discount: z.object({
    amount: z.number().int(),
    scope: z.enum(['PLATFORM', 'MERCHANT']),
    merchant_id: z.string().optional().describe('when scope is MERCHANT'),
  }),
});

export const discountResultSchema = z
  .object({
    total_discount: z.number().int(),
    original_total: z.number().int().describe('sum(orders[].subtotal); goods only'),
    final_amount: z.number().int().describe('original_total - total_discount; never negative'),
    breakdown: z.array(breakdownLine).describe('per promotion, in order of application'),
  })
  .openapi('DiscountResult');

/** The discount result; `reserve` adds each promotion's title and short title. */
export function discountJson(
  d: DiscountResult,
  code: (promotionId: number) => string,
  withTitles: boolean,
): z.infer<typeof discountResultSchema> {
  return {
    total_discount: d.totalDiscount,
    original_total: d.originalTotal,
    final_amount: d.finalAmount,
    breakdown: d.breakdown.map((l) => ({
      promotion: {
        promotion_master_id: l.promotionMasterId,
        promotion_id: l.promotionId,
        code: code(l.promotionId),
        promotion_type: l.promotionType,
        code_type: l.codeType,
        ...(withTitles && { title: l.title, short_title: l.shortTitle }),
      },
      discount: {
        amount: l.amount,
        scope: l.scope.type,
        ...(l.scope.type === 'MERCHANT' && { merchant_id: l.scope.merchantId }),
      },
    })),
  };
}

export const promotionStatusSchema = z
  .object({
    promotion_master_id: z.number().int(),
    promotion_id: z.number().int(),
    code: z.string(),
    status: z.enum(['ISSUED', 'RESERVED', 'USED', 'CANCELLED', 'EXPIRED']),
    code_type: z.enum(codeTypes),
  })
  .openapi('PromotionStatus');

export const promotionsJson = (v: ReservationView) =>
  v.promotions.map((p) => ({
    promotion_master_id: p.promotionMasterId,
    promotion_id: p.promotionId,
    code: p.code,
    status: p.status,
    code_type: p.codeType,
  }));
