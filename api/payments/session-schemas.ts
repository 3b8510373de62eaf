/**
 * Payment sessions' requests and answers as zod schemas (docs/payments-sessions.md): the create body with its settled
 * breakdown lines, the cancel body, the lookup query and the PaymentSession resource with every field of the seed's
 * table. Forms only: the rules between fields and against the state are the decider's.
 */
import { z } from 'zod';
import { breakdownLineStatuses, paymentSessionStatuses, type SettledLine } from '../../application/payments/index.js';
import { dateTimeInput, inCharacters } from '../shared/input-schemas.js';
import { amount, instant, opt, orderInfo, secureHash, uuid } from './hub-schemas.js';
import { optSigned, signedId } from './signed-ids.js';

const code = inCharacters(z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'));
const codes = z.array(code).min(1, 'must hold at least one').max(50, 'must hold at most 50');
const lineAmount = z
  .number({ invalid_type_error: 'must be a number' })
  .int('must be an integer (minor units)')
  .min(1, 'must be at least 1 (minor units)')
  .max(Number.MAX_SAFE_INTEGER, 'is too large');
const lineReference = {
  amount: lineAmount,
  referenceId: opt(inCharacters(z.string().min(1).max(128))),
  referenceType: opt(z.enum(['RESERVATION', 'REDEMPTION'], { message: 'must be RESERVATION or REDEMPTION' })),
};

const voucherDetails = z.union(
  [
    z.object({ voucherCode: code, promotionId: code }).strict(),
    z.object({ voucherCodes: codes, promotionIds: codes }).strict(),
  ],
  { errorMap: () => ({ message: 'must be {voucherCode, promotionId} or {voucherCodes[], promotionIds[]}' }) },
);

const settledLine = z
  .discriminatedUnion(
    'type',
    [
      z.object({ type: z.literal('VOUCHER'), ...lineReference, details: voucherDetails }),
      z.object({
        type: z.literal('VPOINT'),
        ...lineReference,
        details: z.object({ points: z.string().regex(/^[0-9]{1,18}$/, 'must be a string of digits') }).strict(),
      }),
    ],
    { errorMap: () => ({ message: 'type must be VOUCHER or VPOINT (the hub adds the PAYMENT line)' }) },
  )
  .superRefine((l, ctx) => {
    if ((l.referenceId === undefined) !== (l.referenceType === undefined))
      ctx.addIssue({ code: 'custom', path: ['referenceType'], message: 'referenceId and referenceType go together' });
  })
  .transform((l): SettledLine => ({
    type: l.type,
    amount: l.amount,
    referenceId: l.referenceId ?? null,
    referenceType: l.referenceType ?? null,
    details: l.details,
  }))
  .openapi('SettledBreakdownLine');

/** POST /payment-sessions: the body. */
export const createSessionBody = z
  .object({
    orderId: signedId(),
    referenceId: signedId(),
    originalAmount: amount,
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as VND'),
    createdAt: z
      .number({ invalid_type_error: 'must be a number (Unix ms)' })
      .int('must be an integer (Unix ms)')
      .min(0)
      .max(99_999_999_999_999),
    expiresAt: opt(dateTimeInput('when the session expires if no payment started (at most 7 days ahead)')),
    ttlSeconds: opt(z.number().int('must be an integer').min(60).max(604_800)),
    orderInfo: opt(orderInfo),
    breakdown: opt(z.array(settledLine).max(50, 'must hold at most 50 lines')).transform((b) => b ?? []),
    secureHash,
  })
  .superRefine((b, ctx) => {
    if (b.expiresAt !== undefined && b.ttlSeconds !== undefined)
      ctx.addIssue({ code: 'custom', path: ['ttlSeconds'], message: 'send expiresAt or ttlSeconds, not both' });
  })
  .openapi('CreatePaymentSessionRequest');

const needsSession = (
  b: { paymentSessionId?: string; orderId?: string; referenceId?: string },
  ctx: z.RefinementCtx,
) => {
  if (b.paymentSessionId === undefined && (b.orderId === undefined || b.referenceId === undefined))
    ctx.addIssue({
      code: 'custom',
      path: ['paymentSessionId'],
      message: 'is required, or both orderId and referenceId',
    });
};

const sessionReference = {
  paymentSessionId: optSigned(uuid),
  orderId: optSigned(signedId()),
  referenceId: optSigned(signedId()),
};

/** PUT /payment-sessions/cancel: the body. */
export const cancelSessionBody = z
  .object({
    ...sessionReference,
    reason: opt(inCharacters(z.string().max(500))),
    requestedBy: opt(inCharacters(z.string().max(128))),
    secureHash,
  })
  .superRefine(needsSession)
  .openapi('CancelPaymentSessionRequest');

/** GET /payment-sessions: paymentSessionId, or orderId and referenceId (else 4001). */
export const sessionLookupQuery = z.object(sessionReference).superRefine(needsSession);

const breakdownItem = z
  .object({
    type: z.enum(['PAYMENT', 'VOUCHER', 'VPOINT']),
    amount: z.number().int(),
    status: z.enum(breakdownLineStatuses),
    referenceId: z.string().nullable(),
    referenceType: z.enum(['TRANSACTION', 'RESERVATION', 'REDEMPTION']).nullable(),
    details: z.record(z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).nullable(),
  })
  .openapi('BreakdownItem');

export const paymentSessionSchema = z
  .object({
    paymentSessionId: z.string(),
    orderId: z.string(),
    referenceId: z.string(),
    status: z.enum(paymentSessionStatuses),
    amount: z.number().int().openapi({ description: 'the PAYMENT line: what the payer pays online' }),
    currency: z.string(),
    originalAmount: z.number().int(),
    createdAt: instant,
    updatedAt: instant,
    expiresAt: instant,
    breakdown: z.array(breakdownItem),
    transactionId: z.string().optional().openapi({
      description: 'present when COMPLETED through a transaction, or ended because that transaction failed',
    }),
    orderInfo: orderInfo.nullable().openapi({ description: 'an addition: the order info the backend sent' }),
  })
  .openapi('PaymentSession');
