/**
 * The refund and snapshot requests of the payment hub as zod schemas, with the seed's field names
 * (docs/payments-refunds.md). As in hub-schemas.ts: `null` (and `""` in an optional signed field) counts as absent,
 * also for signing, unknown fields are ignored, signed ids are printable Unicode without `|` (signed-ids.ts). A snapshot's `status` is any token here: the domain
 * answers 4016 for one that is not COMPLETED or FAILED (it is signed as sent).
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { inCharacters } from '../shared/input-schemas.js';
import { initPaymentBody, secureHash } from './hub-schemas.js';
import { optSigned, signedId } from './signed-ids.js';

extendZodWithOpenApi(z);

const uuid = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID');
const opt = <T extends z.ZodTypeAny>(schema: T) => schema.nullish().transform((v) => v ?? undefined);
/** Error data: blank counts as absent (a FAILED snapshot needs both: 4017). */
const errorText = (max: number) =>
  opt(inCharacters(z.string().max(max, `must be at most ${max} characters`))).transform((v) =>
    v === undefined || v.trim() === '' ? undefined : v,
  );

/** A refund's amount: an integer in minor units, at least 1 (a fraction is refused, not truncated). */
const refundAmount = z
  .number({ invalid_type_error: 'must be a number' })
  .int('must be an integer (minor units)')
  .min(1, 'must be at least 1 (minor units)')
  .max(Number.MAX_SAFE_INTEGER, 'is too large');
/**
 * A refund request's amount: 0 is allowed here for a payment-session transaction's refund of points or vouchers only;
 * the ledger refuses 0 (4001) for any other (docs/payments-refunds.md, "Payment-session transactions").
 */
const requestAmount = z
  .number({ invalid_type_error: 'must be a number' })
  .int('must be an integer (minor units)')
  .min(0, 'must be at least 0 (minor units)')
  .max(Number.MAX_SAFE_INTEGER, 'is too large');
/** FULL or PARTIAL in any case; signed as sent. */
const refundType = z.string().regex(/^(full|partial)$/i, 'must be FULL or PARTIAL');
const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as VND');
const processedAt = z
  .number({ invalid_type_error: 'must be a number (Unix ms)' })
  .int('must be an integer (Unix ms)')
  .min(0)
  .max(99_999_999_999_999);
const status = signedId(32).openapi({ description: '`COMPLETED` or `FAILED` (else 4016)' });

/** POST /transactions/refund. */
export const refundBody = z
  .object({
    amount: requestAmount.openapi({
      description:
        'money to refund (minor units); 0 only for a payment-session refund of points or vouchers; a FULL one of a session transaction may state the remaining total collected',
    }),
    transactionId: optSigned(uuid),
    orderId: optSigned(signedId()),
    referenceId: optSigned(signedId()),
    currency: opt(currency).openapi({ description: "only cross-checked against the original's (4001 if it differs)" }),
    refundType,
    reason: opt(inCharacters(z.string().max(500))),
    requestedBy: opt(inCharacters(z.string().max(128))),
    refundReferenceId: signedId(),
    refundVpoint: optSigned(z.number().int('must be an integer').min(0).max(Number.MAX_SAFE_INTEGER)).openapi({
      description:
        'points to refund; required for a PARTIAL of a transaction paid through a payment session; refused (4001) for any other',
    }),
    secureHash,
  })
  .superRefine((b, ctx) => {
    if (b.transactionId === undefined && (b.orderId === undefined || b.referenceId === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['transactionId'],
        message: 'is required, or both orderId and referenceId',
      });
  })
  .openapi('RefundRequest');

/** POST /transactions/snapshot: init's fields but paymentType and skipHolding, and the result. */
export const transactionSnapshotBody = initPaymentBody
  .innerType()
  .omit({ paymentType: true, skipHolding: true })
  .extend({
    status,
    processedAt,
    providerTransactionId: opt(signedId(128)),
    errorCode: errorText(64),
    errorMessage: errorText(500),
  })
  .superRefine((b, ctx) => {
    // A snapshot names the method it was paid with: a saved method of the hub cannot have paid elsewhere.
    if (b.userPaymentMethodId !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['userPaymentMethodId'],
        message: 'is not taken by a snapshot: send paymentMethodCode and providerId',
      });
    for (const field of ['paymentMethodCode', 'providerId'] as const)
      if (b[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is required' });
  })
  .openapi('TransactionSnapshotRequest');
export type TransactionSnapshotBody = z.infer<typeof transactionSnapshotBody>;

/** POST /refunds/snapshot. */
export const refundSnapshotBody = z
  .object({
    transactionId: uuid,
    amount: refundAmount,
    currency,
    refundReferenceId: signedId(),
    refundType,
    status,
    processedAt,
    errorCode: errorText(64),
    errorMessage: errorText(500),
    secureHash,
  })
  .openapi('RefundSnapshotRequest');

export const refundData = z
  .object({
    refundId: z.string(),
    remainingRefundableAmount: z.number().int().openapi({ description: 'minor units, after this refund' }),
    status: z.enum(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']).openapi({
      description:
        'an addition to the seed: PENDING for an accepted request (COMPLETED for a session refund without money), as given for a snapshot',
    }),
    remainingRefundableVpoint: z.number().int().optional().openapi({
      description: 'an addition: points still refundable after this refund (a payment-session transaction only)',
    }),
  })
  .openapi('RefundAccepted');
