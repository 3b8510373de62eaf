/**
 * The shop purchase interface (endpoints 7 to 10) as zod schemas: the
 * purchase router validates requests with them and its route table
 * (purchase-routes.ts) documents the same schemas, so the document cannot
 * drift from the checks.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { characters } from '../../application/shared/characters.js';
import { inCharacters } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

const integer = (name: string) =>
  z
    .number({ invalid_type_error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .safe();

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });

// ---- requests ----

export const reserveBody = z
  .object({
    orderId: inCharacters(
      z
        .string({ invalid_type_error: 'orderId must be a string' })
        .trim()
        .min(1, 'orderId must not be empty')
        .max(128, 'orderId is at most 128 characters'),
    ).describe('order id from the ordering system; used once per merchant'),
    amount: integer('amount')
      .min(0, 'amount must be >= 0')
      .describe('total to pay in minor units; must equal unitPrice × quantity summed over items'),
    currency: z
      .enum(['VND', 'VPOINT'], { errorMap: () => ({ message: 'currency must be VND or VPOINT' }) })
      .default('VND')
      .describe("must be the pools' currency"),
    items: z
      .array(
        z.object({
          voucherPoolId: integer('voucherPoolId')
            .min(1, 'voucherPoolId must be >= 1')
            .describe('pool id from the voucher list'),
          unitPrice: integer('unitPrice')
            .min(0, 'unitPrice must be >= 0')
            .describe("must equal the pool's current sellingPrice"),
          quantity: integer('quantity').min(1, 'quantity must be >= 1').max(10_000, 'quantity is at most 10000'),
        }),
        { invalid_type_error: 'items must be an array' },
      )
      .min(1, 'items must hold at least one item')
      .max(100, 'items holds at most 100 items')
      .describe('one line per pool'),
  })
  .openapi('ReserveRequest');

export const reservationKeyBody = z
  .object({
    reservationKey: z
      .string({ invalid_type_error: 'reservationKey must be a string' })
      .uuid('reservationKey must be a UUID')
      .describe('from the reserve answer'),
  })
  .openapi('CommitRequest');

export const releaseBody = reservationKeyBody
  .extend({
    reason: inCharacters(
      z.string({ invalid_type_error: 'reason must be a string' }).max(256, 'reason is at most 256 characters'),
    )
      .nullish()
      .describe('for the log only, e.g. PAYMENT_FAILED, USER_CANCELLED, TIMEOUT'),
  })
  .openapi('ReleaseRequest');

export const reservationLookupParams = z.object({
  key: z.string().uuid('reservation key must be a UUID').describe('the reservationKey'),
});

/** X-Idempotency-Key of reserve; its messages name the header. */
export const idempotencyKeyHeader = z
  .string({ required_error: 'X-Idempotency-Key header is required' })
  .uuid('X-Idempotency-Key must be a UUID')
  .describe(
    'a UUID per purchase attempt; a resend under the same key with the same body gets the first answer (see SHOP_IDEMPOTENCY_MODE)',
  );

/**
 * The per-request headers besides the credentials (those are security
 * schemes). Documentation of the checks in auth.ts, which runs them in the
 * order docs/shop-api.md gives.
 */
/** Optional on the shop (its header list does not name it), checked by the gateway when sent (docs/gateway.md). */
export const envHeader = z
  .enum(['dev', 'sit', 'uat', 'prod'])
  .optional()
  .describe("the environment called; when sent it must be this deployment's (else 403 SHOP-AUTH-005)");

export const purchaseHeaders = z.object({
  env: envHeader,
  'X-Request-Id': z.string().uuid().describe('unique request id for tracing; echoed back in the response header'),
  'X-User-Id': z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/)
    .describe('the customer, scoped to the merchant; 1 to 128 printable ASCII characters'),
});

export const reserveHeaders = purchaseHeaders.extend({ 'X-Idempotency-Key': idempotencyKeyHeader });

// ---- responses ----

const voucher = z
  .object({
    issuedPromotionId: z.number().int().describe('issued voucher id'),
    voucherCode: z
      .string()
      .nullable()
      .describe('the decrypted voucher code; null only when no key of the keyring opens it (docs/shop-purchase.md)'),
    faceValue: z.number().int(),
    sellingPrice: z.number().int(),
    currency: z.enum(['VND', 'VPOINT']),
    purchasedAt: instant('time of purchase'),
    expiresAt: instant('voucher expiry'),
  })
  .openapi('IssuedVoucher');

const reservedItem = z
  .object({
    voucherPoolId: z.number().int(),
    quantity: z.number().int(),
    vouchers: z.array(voucher),
  })
  .openapi('ReservationItem');

const reservationKey = z.string().uuid().describe('unique key of the reservation; used by commit and release');
const items = z.array(reservedItem);

export const reservedData = z
  .object({
    reservationKey,
    orderId: z.string(),
    reservedAt: instant('time of reserve'),
    expiresAt: instant('reservedAt + SHOP_RESERVATION_TTL_SECONDS; enforced only with SHOP_RESERVATION_AUTO_EXPIRY'),
    items,
  })
  .openapi('Reserved');

export const committedData = z
  .object({
    reservationKey,
    orderId: z.string(),
    committedAt: instant('time of commit'),
    items,
  })
  .openapi('Committed');

export const releasedData = z
  .object({
    reservationKey,
    orderId: z.string(),
    releasedAt: instant('time of release'),
  })
  .openapi('Released');

export const reservationData = z
  .object({
    reservationKey,
    orderId: z.string(),
    status: z.enum(['RESERVED', 'COMMITTED', 'RELEASED']).describe('an expired reservation reads RELEASED'),
    reservedAt: instant('time of reserve'),
    expiresAt: instant('reservedAt + SHOP_RESERVATION_TTL_SECONDS'),
    committedAt: instant('time of commit; only once committed (an addition to the lookup)').optional(),
    releasedAt: instant('time of release or expiry; only once released (an addition to the lookup)').optional(),
    items: items.describe('a released reservation lists no vouchers: their codes are void'),
  })
  .openapi('Reservation');

/** The shop's success envelope around `data`. */
export const shopSuccess = <T extends z.ZodTypeAny>(data: T) =>
  z.object({
    code: z.literal('SUCCESS'),
    message: z.literal('Success'),
    data,
  });

/** The shop's failure envelope: one of `codes`, a message naming what was wrong, data null. */
export const shopFailure = (codes: [string, ...string[]]) =>
  z.object({
    code: z.enum(codes),
    message: z.string().describe('what was wrong; for bad input it names the field or header'),
    data: z.null(),
  });

export type ReserveBody = z.infer<typeof reserveBody>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What `reserveBody` answers for a body that surely passes it, without zod; undefined for anything else (which then
 * goes through zod, for its answer and its message). A reserve is the flash sale's hot path, and zod's parse was a
 * twentieth of its own work and of its garbage (docs/batched-stream-writer.md, "Benchmark"). The rules are the
 * schema's, restated: tests/unit/api/reserve-body.test.ts checks over generated bodies, valid and not, that whatever
 * this answers is exactly what zod answers.
 */
export function plainReserveBody(body: unknown): ReserveBody | undefined {
  if (!isPlainObject(body)) return undefined;
  const { orderId, amount, currency = 'VND', items } = body;
  if (typeof orderId !== 'string') return undefined;
  const trimmed = orderId.trim();
  // Counted in characters (code points) only when the units could be too many: an ASCII id never is.
  if (trimmed.length < 1 || (trimmed.length > 128 && characters(trimmed) > 128)) return undefined;
  if (!Number.isSafeInteger(amount) || (amount as number) < 0) return undefined;
  if (currency !== 'VND' && currency !== 'VPOINT') return undefined;
  if (!Array.isArray(items) || items.length < 1 || items.length > 100) return undefined;
  const lines: ReserveBody['items'] = [];
  for (const item of items as unknown[]) {
    if (!isPlainObject(item)) return undefined;
    const { voucherPoolId, unitPrice, quantity } = item;
    if (!Number.isSafeInteger(voucherPoolId) || (voucherPoolId as number) < 1) return undefined;
    if (!Number.isSafeInteger(unitPrice) || (unitPrice as number) < 0) return undefined;
    if (!Number.isSafeInteger(quantity) || (quantity as number) < 1 || (quantity as number) > 10_000) return undefined;
    lines.push({
      voucherPoolId: voucherPoolId as number,
      unitPrice: unitPrice as number,
      quantity: quantity as number,
    });
  }
  return { orderId: trimmed, amount: amount as number, currency, items: lines };
}
