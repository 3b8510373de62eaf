/**
 * The payment hub's requests and answers as zod schemas, with the seed's field names (docs/payments.md). A body
 * parsed by its schema is the typed request; `null` counts as absent (also for signing), and so does `""` in an
 * optional signed field; unknown fields are ignored. Signed ids are any printable Unicode text without `|`
 * (signed-ids.ts), which would make the signing string ambiguous.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { transactionStatuses } from '../../application/payments/index.js';
import { absoluteUrl, inCharacters } from '../shared/input-schemas.js';
import { optSigned, signedId } from './signed-ids.js';

export { optSigned, signedId };

extendZodWithOpenApi(z);

export const uuid = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID');
/** Text of 1 to `max` characters (code points, as every length here: docs/payments.md), trimmed. */
const freeText = (max: number) =>
  inCharacters(z.string().trim().min(1, `must be 1 to ${max} characters`).max(max, `must be 1 to ${max} characters`));
/** Optional text of at most `max` characters (code points). */
const upTo = (max: number) => inCharacters(z.string().max(max));
/** Optional: absent or null is absent. */
export const opt = <T extends z.ZodTypeAny>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const orderItem = z.object({
  name: freeText(255),
  sku: freeText(64),
  quantity: z.number().int('must be an integer').min(1, 'must be at least 1'),
  unitPrice: z.number().finite().min(0, 'must not be negative'),
  description: upTo(1000),
  categoryCode: opt(upTo(64)),
  categoryName: opt(upTo(255)),
});

export const orderInfo = z
  .object({
    customerName: opt(upTo(255)),
    customerEmail: opt(upTo(255)),
    customerPhone: opt(upTo(32)),
    orderCreatedAt: opt(z.number().int('must be an integer (Unix ms)').min(0).max(99_999_999_999_999)),
    notes: opt(upTo(2000)),
    items: opt(z.array(orderItem).max(200)),
  })
  .openapi('PaymentOrderInfo');

/** An amount in minor units: integer or float, signed and stored as its integer part, which must be at least 1. */
export const amount = z
  .number({ invalid_type_error: 'must be a number' })
  .finite()
  .refine((n) => Math.trunc(n) >= 1, 'must be at least 1 (minor units)')
  .refine((n) => n <= Number.MAX_SAFE_INTEGER, 'is too large');

export const secureHash = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (HMAC-SHA-256)');

/** POST /transactions: the body. */
export const initPaymentBody = z
  .object({
    amount,
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as VND'),
    description: freeText(255),
    orderId: signedId(),
    referenceId: signedId(),
    secureHash,
    paymentMethodCode: opt(z.string().regex(/^[A-Z0-9_]{1,64}$/, 'must be a method code such as CREDIT_CARD')),
    providerId: opt(uuid),
    userPaymentMethodId: opt(signedId(128)).openapi({
      description:
        'a saved card of the `X-MiniApp-User-ID` user (GET /user-payment-methods); wins over paymentMethodCode+providerId',
    }),
    paymentType: optSigned(z.enum(['2D', '3D'], { message: 'must be 2D or 3D' })),
    skipHolding: opt(z.boolean()),
    sellerMerchantId: optSigned(signedId()),
    businessUnitId: optSigned(signedId()),
    branchId: optSigned(signedId()),
    returnURL: opt(absoluteUrl(true)),
    providerData: opt(upTo(4096)),
    orderInfo: opt(orderInfo),
    paymentSessionId: opt(uuid).openapi({
      description:
        "an addition: the payment session whose PAYMENT line this pays (docs/payments-sessions.md); orderId, referenceId, amount and currency must be the session's; not signed",
    }),
  })
  .superRefine((b, ctx) => {
    if (b.userPaymentMethodId !== undefined) return;
    if (b.paymentMethodCode === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['paymentMethodCode'],
        message: 'is required unless userPaymentMethodId is sent',
      });
    if (b.providerId === undefined)
      ctx.addIssue({ code: 'custom', path: ['providerId'], message: 'is required unless userPaymentMethodId is sent' });
  })
  .openapi('InitPaymentRequest');
export type InitPaymentBody = z.infer<typeof initPaymentBody>;

const referenceFields = {
  transactionId: optSigned(uuid),
  orderId: optSigned(signedId()),
  referenceId: optSigned(signedId()),
};

const needsReference = (
  b: { transactionId?: string; orderId?: string; referenceId?: string },
  ctx: z.RefinementCtx,
) => {
  if (b.transactionId === undefined && (b.orderId === undefined || b.referenceId === undefined))
    ctx.addIssue({ code: 'custom', path: ['transactionId'], message: 'is required, or both orderId and referenceId' });
};

export const cancelBody = z
  .object({ ...referenceFields, reason: opt(upTo(500)), requestedBy: opt(upTo(128)), secureHash })
  .superRefine(needsReference)
  .openapi('CancelTransactionRequest');

export const confirmBody = z
  .object({ ...referenceFields, secureHash })
  .superRefine(needsReference)
  .openapi('ConfirmTransactionRequest');

/** GET /transactions: transactionId, or orderId and referenceId (else 4661). */
export const lookupQuery = z.object(referenceFields).superRefine(needsReference);

/** PUT /user-payment-methods/remove: the saved method, signed with the user (docs/payments-signing.md). */
export const removeSavedMethodBody = z
  .object({ userPaymentMethodId: uuid, secureHash })
  .openapi('RemoveSavedPaymentMethodRequest');

/** GET /payment-methods: amount and currency, both required (else 4001). */
export const paymentMethodsQuery = z.object({
  amount: z
    .string({ required_error: 'is required' })
    .regex(/^[0-9]{1,15}(\.[0-9]+)?$/, 'must be a non-negative number in minor units')
    .transform((a) => Math.trunc(Number(a))),
  currency: z.string({ required_error: 'is required' }).regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as VND'),
});

/** A user's saved payment method: the card only masked, never its token. */
export const savedMethodSchema = z
  .object({
    userPaymentMethodId: z.string(),
    paymentMethodCode: z.string(),
    type: z.string(),
    provider: z.object({ id: z.string(), name: z.string(), code: z.string() }),
    cardNo: z.string().openapi({ description: 'masked; never a full card number' }),
    cardBrand: z.string(),
    expiry: z.string().nullable().openapi({ description: 'MM/YY' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('SavedPaymentMethod');

export const paymentMethodSchema = z
  .object({
    paymentMethodId: z.string(),
    code: z.string(),
    name: z.string(),
    type: z.string(),
    category: z.string(),
    iconUrl: z.string(),
    provider: z.object({ id: z.string(), name: z.string(), code: z.string() }),
    supportsTokenization: z.boolean(),
    requiresRedirect: z.boolean(),
    sortOrder: z.number(),
    verificationAmount: z.number().nullable(),
    currencies: z.array(z.object({ currency: z.string(), minAmount: z.number(), maxAmount: z.number() })),
    savedMethods: z.array(savedMethodSchema).optional().openapi({
      description:
        "Only with `X-MiniApp-User-ID` (an addition to the seed): the user's saved cards init can pay this amount with (`userPaymentMethodId`)",
    }),
  })
  .openapi('PaymentMethodResponse');

const signedHeaders = {
  'X-Payment-API-Key': z.string().openapi({ description: "the terminal's paymentApiKey" }),
  'X-Request-ID': z
    .string()
    .openapi({ description: 'unique per terminal (a UUID is best): a resend replays the first answer' }),
  'X-Timestamp': z
    .string()
    .openapi({ description: 'Unix seconds, within PAYMENTS_TIMESTAMP_WINDOW_SECONDS of the hub' }),
};

export const initHeaders = z.object({
  ...signedHeaders,
  'X-MiniApp-User-ID': z
    .string()
    .optional()
    .openapi({ description: 'host-app user, enriched from identity (404 4302)' }),
  'X-External-User-ID': z.string().optional().openapi({ description: "the merchant's own user id, kept as given" }),
  'X-MiniApp-Id': z.string().optional(),
  'X-Auth-Audience': z.string().optional(),
});
export const signedWriteHeaders = z.object({ ...signedHeaders, 'X-MiniApp-Id': z.string().optional() });
export const keyHeader = z.object({ 'X-Payment-API-Key': signedHeaders['X-Payment-API-Key'] });
const userHeader = z.string().openapi({ description: 'host-app user, enriched from identity (404 4302)' });
export const savedMethodsHeaders = keyHeader.extend({ 'X-MiniApp-User-ID': userHeader });
export const removeSavedMethodHeaders = signedWriteHeaders.extend({ 'X-MiniApp-User-ID': userHeader });

// ---- answers ----

export const instant = z.string().openapi({ format: 'date-time' });
const nullableString = z.string().nullable();

export const transactionItemSchema = z
  .object({
    id: z.string(),
    referenceId: z.string(),
    orderId: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(transactionStatuses),
    description: z.string(),
    expiresAt: instant,
    createdAt: instant,
    updatedAt: instant,
    merchant: z.object({ code: z.string(), name: z.string() }),
    providerTransactionId: nullableString,
    providerInvoiceId: nullableString,
    paymentMethod: z.object({ id: z.string(), code: z.string(), name: z.string(), type: z.string() }),
    provider: z.object({ id: z.string(), name: z.string() }),
    bankName: nullableString,
    accountHolderName: nullableString,
    cardNo: nullableString.openapi({ description: 'masked; never a full card number' }),
    breakdown: z.array(z.record(z.unknown())).nullable(),
    orderInfo: orderInfo.nullable(),
  })
  .openapi('Transaction');

export const initPaymentData = z
  .object({
    transaction: z.object({
      id: z.string(),
      referenceId: z.string(),
      orderId: z.string(),
      amount: z.number().int(),
      currency: z.string(),
      status: z.enum(transactionStatuses),
      description: z.string(),
      cardType: z.enum(['2D', '3D']),
      skipHolding: z.boolean(),
      expiresAt: instant,
      createdAt: instant,
      updatedAt: instant,
    }),
    paymentInfo: z.object({
      requiresRedirect: z.boolean(),
      redirectUrl: z.string().optional(),
      providerCode: z.string(),
      providerId: z.string(),
      providerTransaction: nullableString,
      amount: z.number().int(),
    }),
  })
  .openapi('InitPaymentData');

export const hubSuccess = (data?: z.ZodTypeAny) =>
  z.object({ code: z.literal(0), message: z.string(), ...(data ? { data } : {}) });
export const hubFailure = z
  .object({
    code: z.number().int(),
    message: z.string().describe("the seed's text for its codes (listed with each code); the service's own otherwise"),
    data: z
      .object({
        detail: z.string().optional().describe('what was wrong this time: a sentence for developers, not for people'),
        field: z.string().optional().describe('the header or field it is about'),
      })
      .catchall(z.unknown())
      .optional()
      .describe('only when the refusal has specifics: `detail`, `field`, `status`, `remainingRefundableAmount`, ...'),
  })
  .openapi('PaymentHubError');
