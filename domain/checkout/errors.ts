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

export type CheckoutErrorCode = PromotionMasterErrorCode;

export type CheckoutError = DomainError<CheckoutErrorCode>;

export function checkoutError(
  code: CheckoutErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): CheckoutError {
  return new DomainError(code, message, details);
}
