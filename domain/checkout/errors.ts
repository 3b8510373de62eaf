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

/** A wallet's issued promotions, as checkout operations meet them (docs/checkout-discounts.md maps none yet). */
export const issuedPromotionErrorCodes = [
  /** No such promotion in the caller's wallet. */
  'PROMOTION_NOT_FOUND',
  /** Held by another checkout reservation. */
  'PROMOTION_ALREADY_RESERVED',
  /** Used, cancelled, or not valid yet: it cannot be reserved. */
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

export type CheckoutErrorCode = PromotionMasterErrorCode | IssuedPromotionErrorCode;

export type CheckoutError = DomainError<CheckoutErrorCode>;

export function checkoutError(
  code: CheckoutErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): CheckoutError {
  return new DomainError(code, message, details);
}
