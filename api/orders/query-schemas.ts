/**
 * The order view's query parameters and answers as zod schemas (docs/orders-read-models.md, "Read models"): the customer's
 * listing, the portal's listing and daily statistics. Parsed parameters are the typed filters of
 * application/orders/order-queries.ts.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { inCharacters } from '../shared/input-schemas.js';
import { positionOf } from './order-json.js';

extendZodWithOpenApi(z);

/** A filter on a field the webhooks take in characters (code points), counted alike. */
const code = (max: number) => inCharacters(z.string().min(1).max(max, `must be at most ${max} characters`));
const instant = z.string().openapi({ format: 'date-time' });

const paging = {
  page: z.coerce.number().int('must be an integer').min(1, 'must be >= 1').max(10_000).default(1),
  after: z
    .string()
    .max(1024, 'must be a next_cursor of an earlier page')
    .transform((cursor, ctx) => {
      const position = positionOf(cursor);
      if (!position) ctx.addIssue({ code: 'custom', message: 'must be a next_cursor of an earlier page' });
      return position ?? z.NEVER;
    })
    .optional()
    .openapi({ type: 'string', description: "an earlier page's next_cursor: the orders after it (page stays 1)" }),
  size: z.coerce
    .number()
    .int('must be an integer')
    .min(1, 'must be from 1 to 100')
    .max(100, 'must be from 1 to 100')
    .default(20),
};

export const customerListQuery = z
  .object({ status: code(64).optional(), order_type: code(64).optional(), ...paging })
  .strict();

const dateTime = z
  .string()
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}T.+(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
    'must be an ISO 8601 date-time with offset',
  )
  .transform((s) => new Date(s).toISOString());

export const portalListQuery = z
  .object({
    merchant_id: code(64).optional(),
    business_unit_id: code(64).optional(),
    branch_id: code(64).optional(),
    seller_merchant_id: code(64).optional(),
    order_type: code(64).optional(),
    status: code(64).optional(),
    payment_status: code(64).optional(),
    customer_id: code(64).optional(),
    from: dateTime.optional().describe('ordered_at from (inclusive)'),
    to: dateTime.optional().describe('ordered_at before (exclusive)'),
    ...paging,
  })
  .strict();

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'must be a date YYYY-MM-DD');

export const dailyStatsQuery = z
  .object({
    from: day.describe('first UTC day'),
    to: day.describe('last UTC day (inclusive)'),
    merchant_id: code(64).optional(),
    order_type: code(64).optional(),
    status: code(64).optional(),
  })
  .strict();

export const orderSummarySchema = z
  .object({
    merchant_id: z.string(),
    order_id: z.string(),
    customer_id: z.string().nullable(),
    order_type: z.string().nullable(),
    order_type_known: z.boolean().describe('false: not one of the named product types (accepted and flagged)'),
    order_name: z.string().nullable(),
    status: z.string().nullable(),
    payment_status: z.string().nullable(),
    business_unit_id: z.string().nullable(),
    branch_id: z.string().nullable(),
    seller_merchant_id: z.string().nullable(),
    currency: z.string().nullable(),
    total_amount: z.number().nullable().describe('exactly as sent'),
    grand_total: z.number().nullable().describe('exactly as sent'),
    paid_amount: z.number().describe('exactly as sent; 0 when never sent (the seed: default 0)'),
    refunded_amount: z.number().describe('exactly as sent; 0 when never sent (the seed: default 0)'),
    item_count: z.number().int(),
    ordered_at: instant,
    last_event_at: instant,
    cancelled: z.boolean(),
  })
  .openapi('OrderSummary');

/** order.created's envelope fields, which the portal shows beside the order (the customer app does not). */
const createdEnvelope = {
  created_by: z.string().describe("order.created's created_by: the host platform's user who created the order"),
  platform_code: z.string().describe("order.created's platform_code: the host app"),
  miniapp_id: z.string().describe("order.created's miniapp_id: the mini-app that created the order"),
};

export const portalOrderSummarySchema = orderSummarySchema.extend(createdEnvelope).openapi('PortalOrderSummary');

const pageOf = (summary: z.ZodTypeAny) =>
  z.object({
    orders: z.array(summary),
    page: z.number().int(),
    size: z.number().int(),
    total: z
      .number()
      .int()
      .describe('orders matching: exact when counts_exact, else a lower bound (more match than the count limit)'),
    counts_by_status: z
      .record(z.number().int())
      .nullable()
      .describe('matches per status, the status filter left out; null when not exact'),
    counts_exact: z
      .boolean()
      .describe(
        'exact up to the count limit (10 000 by default), beyond it when merchant, type, status and whole UTC days are the only filters',
      ),
    next_cursor: z
      .string()
      .nullable()
      .describe('the page after this one: pass it as after; null when this page is not full'),
  });

export const orderPageSchema = pageOf(orderSummarySchema).openapi('OrderPage');
export const portalOrderPageSchema = pageOf(portalOrderSummarySchema).openapi('PortalOrderPage');

const detailFields = {
  order: z.record(z.unknown()).describe("the order's fields as the sender names them; extension maps exactly as sent"),
  history: z.array(
    z.object({
      event: z.string(),
      event_timestamp: z.number().int(),
      status: z.string().nullable(),
      payment_status: z.string().nullable(),
      applied_fields: z.array(z.string()),
      stale_fields: z.array(z.string()),
      early: z.boolean(),
      received_at: instant,
    }),
  ),
};

export const orderDetailSchema = orderSummarySchema.extend(detailFields).openapi('OrderDetail');
export const portalOrderDetailSchema = portalOrderSummarySchema.extend(detailFields).openapi('PortalOrderDetail');

export const dailyStatsSchema = z
  .object({
    days: z.array(
      z.object({
        day: z.string(),
        merchant_id: z.string(),
        order_type: z.string(),
        status: z.string(),
        currency: z.string(),
        order_count: z.number().int(),
        gmv: z.number(),
      }),
    ),
  })
  .openapi('OrderDailyStats');
