/**
 * Why a payment hub command was refused: the payments context's typed codes. Each interface maps them through its own
 * table (api/payments/*): a code added to a group does not compile until every table that receives it maps it.
 * docs/payments.md, "Codes".
 */
import { DomainError } from '../shared/errors.js';

/** Operators' onboarding commands (merchants, terminals, keys, secrets, payment methods). */
export const onboardingErrorCodes = [
  /** Operator input breaks a rule; details.field names the field. */
  'INVALID_PAYMENT_SETUP',
  'PAYMENT_MERCHANT_NOT_FOUND',
  'PAYMENT_MERCHANT_EXISTS',
  'TERMINAL_NOT_FOUND',
  'TERMINAL_EXISTS',
  'PAYMENT_API_KEY_NOT_FOUND',
  /** A resend of a command that generated a key or secret: it is shown once only. */
  'CREDENTIAL_SHOWN_ONCE',
  /** No IPN notification of that id for the merchant (the operators' IPN routes). */
  'IPN_NOTIFICATION_NOT_FOUND',
  /** A different request under a used X-Idempotency-Key (raised by the command handler). */
  'IDEMPOTENCY_KEY_REUSED',
] as const;
export type OnboardingErrorCode = (typeof onboardingErrorCodes)[number];

/** What a merchant backend's calls to the hub (/api/payments/v1) can be refused with. */
export const hubErrorCodes = [
  /** A field of the request breaks a rule (4001); details.field names it. */
  'INVALID_PAYMENT_REQUEST',
  'TRANSACTION_NOT_FOUND',
  /** The transaction is another terminal's or merchant's (4200). */
  'TRANSACTION_NOT_OWNED',
  'TRANSACTION_NOT_CANCELLABLE',
  'TRANSACTION_NOT_CONFIRMABLE',
  /** The orderId was used by another transaction of the merchant (4091). */
  'DUPLICATE_ORDER',
  /** The referenceId was used by another transaction of the merchant (4091: "pair or reference already used"). */
  'DUPLICATE_REFERENCE',
  /** X-MiniApp-User-ID names no user of the identity directory (4302). */
  'USER_NOT_FOUND',
  /** secureHash is not the HMAC of the request's raw string under a usable secretKey (401 4102). */
  'INVALID_SIGNATURE',
  /** X-Timestamp outside the window of the hub's clock (401 4103). */
  'STALE_TIMESTAMP',
  /** A used X-Request-ID with another request (raised by the command handler). */
  'IDEMPOTENCY_KEY_REUSED',
  /** A saved payment method the user does not have (unknown, removed, or another user's): 404 4303. */
  'SAVED_METHOD_NOT_FOUND',
  /** A transaction id handed out twice (a bug: answered as the hub's 5000). */
  'TRANSACTION_EXISTS',
  /** Not COMPLETED, nothing left to refund, or more than what remains (400 4012). docs/payments-refunds.md. */
  'TRANSACTION_NOT_REFUNDABLE',
  /** A snapshot's status is not COMPLETED or FAILED (400 4016). */
  'INVALID_SNAPSHOT_STATUS',
  /** A FAILED snapshot without errorCode and errorMessage (400 4017). */
  'MISSING_ERROR_INFORMATION',
  /** The transaction has a refund with this refundReferenceId already (409 4092). */
  'DUPLICATE_REFUND_REFERENCE',
  /** No payment session of that id or pair for the key's terminal (404 4404; docs/payments-sessions.md). */
  'PAYMENT_SESSION_NOT_FOUND',
  /** Cancel of a session that is not PENDING (400 4018, decided). */
  'PAYMENT_SESSION_NOT_CANCELLABLE',
  /** The orderId+referenceId pair was used by another session of the merchant (409 4091). */
  'DUPLICATE_PAYMENT_SESSION',
  /** A session id handed out twice (a bug: 5000). */
  'PAYMENT_SESSION_EXISTS',
] as const;
export type HubErrorCode = (typeof hubErrorCodes)[number];

/** What a provider's result can be refused with: the transaction moved on (another outcome won). */
export const providerResultErrorCodes = [
  'TRANSACTION_NOT_FOUND',
  'TRANSACTION_NOT_PROCESSABLE',
  /** An unknown provider, a signature its key did not make, or a body that is not a callback. */
  'INVALID_PROVIDER_CALLBACK',
] as const;
export type ProviderResultErrorCode = (typeof providerResultErrorCodes)[number];

export type PaymentsErrorCode = OnboardingErrorCode | HubErrorCode | ProviderResultErrorCode;
export type PaymentsError = DomainError<PaymentsErrorCode>;

export function paymentsError(
  code: PaymentsErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): PaymentsError {
  return new DomainError(code, message, details);
}
