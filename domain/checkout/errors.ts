/**
 * Why a checkout command was refused: the checkout context's typed codes. Each interface maps them through its
 * own table (api/checkout/*): a code added here does not compile until every table that can receive it maps it.
 */
import { DomainError } from '../shared/errors.js';

/** Operators' commands on promotion masters. */
export const promotionMasterErrorCodes = [
  /** Operator input breaks a rule; details.field names the field. */
  'INVALID_PROMOTION_MASTER',
  'PROMOTION_MASTER_NOT_FOUND',
  /** A sequence handed out an id twice (a bug, answered as a conflict). */
  'PROMOTION_MASTER_EXISTS',
  /** A different request under a used X-Idempotency-Key (raised by the command handler). */
  'IDEMPOTENCY_KEY_REUSED',
] as const;

export type PromotionMasterErrorCode = (typeof promotionMasterErrorCodes)[number];

/** A wallet's issued promotions, as checkout operations meet them (docs/checkout.md, "Codes"). */
export const issuedPromotionErrorCodes = [
  /** No such promotion. */
  'PROMOTION_NOT_FOUND',
  /** The promotion is another user's. */
  'PROMOTION_NOT_OWNED',
  /** Held by another checkout reservation. */
  'PROMOTION_ALREADY_RESERVED',
  /**
   * Used, cancelled, or not valid yet: it cannot be reserved; or it does not apply to the orders (scope, categories,
   * nothing to discount, its master paused or ended).
   */
  'PROMOTION_NOT_APPLICABLE',
  /** Its validity ended. */
  'PROMOTION_EXPIRED',
  /** The reservation does not hold it (never did, or released it). */
  'PROMOTION_RESERVATION_NOT_FOUND',
  /** The reservation confirmed it already: it cannot be released, only refunded. */
  'PROMOTION_ALREADY_USED',
  /** A refund of a reservation that did not confirm it. */
  'PROMOTION_NOT_USED',
  /** An operator's issue under an id that holds another promotion (a bug). */
  'PROMOTION_EXISTS',
] as const;

export type IssuedPromotionErrorCode = (typeof issuedPromotionErrorCodes)[number];

/** The checkout's own decisions: a promotion against the orders, and a reservation's life (docs/checkout.md). */
export const checkoutErrorCodes = [
  /** The pin is missing or wrong, or the request names the wrong code_type. */
  'PROMOTION_CODE_INVALID',
  /** SHARED codes are not supported yet (spec part B). */
  'SHARED_NOT_SUPPORTED',
  /** The subtotal the promotion is compared with is below its min_order_value. */
  'ORDER_MINIMUM_NOT_MET',
  /** The master's total_quota of uses is taken (held or used). */
  'QUOTA_EXHAUSTED',
  /** The user's per_user_limit of uses of the master is taken (held or used). */
  'USAGE_LIMIT_REACHED',
  /** No such reservation for this order and user. */
  'RESERVATION_NOT_FOUND',
  /** Its time-to-live passed (only with CHECKOUT_RESERVATION_TTL_SECONDS). */
  'RESERVATION_EXPIRED',
  /** It was confirmed (or confirmed and refunded) already. */
  'RESERVATION_ALREADY_CONFIRMED',
  /** A refund of a reservation that was never confirmed. */
  'RESERVATION_NOT_CONFIRMED',
  /** The order holds a reservation already (one promotion per order: stacking is not supported yet). */
  'ORDER_ALREADY_RESERVED',
  /** The order's reservation was confirmed: it has its promotion. */
  'ORDER_ALREADY_CONFIRMED',
  /** A reservation key handed out twice (a bug). */
  'RESERVATION_EXISTS',
  /** A different request under a used X-Idempotency-Key (raised by the command handler). */
  'IDEMPOTENCY_KEY_REUSED',
] as const;

export type CheckoutDecisionErrorCode = (typeof checkoutErrorCodes)[number];

/** Everything the checkout interface can be refused with: its table (api/checkout) maps each. */
export type CheckoutInterfaceErrorCode = IssuedPromotionErrorCode | CheckoutDecisionErrorCode;

export type CheckoutErrorCode = PromotionMasterErrorCode | CheckoutInterfaceErrorCode;

export type CheckoutError = DomainError<CheckoutErrorCode>;

export function checkoutError(
  code: CheckoutErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): CheckoutError {
  return new DomainError(code, message, details);
}
