import { DomainError } from '../shared/errors.js';

/**
 * Why a shop command was refused. The shop API maps each to its interface
 * code: AMOUNT_MISMATCH SHOP-PUR-001, OUT_OF_STOCK 012, PRICE_MISMATCH 014,
 * CURRENCY_MISMATCH 015, PURCHASE_LIMIT_EXCEEDED 016, POOL_NOT_FOUND
 * SHOP-VOU-001, ORDER_ID_USED and IDEMPOTENCY_KEY_REUSED SHOP-PUR-011,
 * RESERVATION_NOT_FOUND 003, RESERVATION_NOT_RESERVED and RESERVATION_EXPIRED
 * 006, RESERVATION_ALREADY_FINAL 007. INVALID_REQUEST (a malformed purchase
 * request) and INVALID_POOL (operator input) name the field in details.field.
 */
export const shopErrorCodes = [
  'INVALID_REQUEST',
  'AMOUNT_MISMATCH',
  'OUT_OF_STOCK',
  'PRICE_MISMATCH',
  'CURRENCY_MISMATCH',
  'PURCHASE_LIMIT_EXCEEDED',
  'POOL_NOT_FOUND',
  'ORDER_ID_USED',
  'IDEMPOTENCY_KEY_REUSED',
  'RESERVATION_NOT_FOUND',
  'RESERVATION_NOT_RESERVED',
  'RESERVATION_EXPIRED',
  'RESERVATION_ALREADY_FINAL',
  'INVALID_POOL',
] as const;

export type ShopErrorCode = (typeof shopErrorCodes)[number];

export type ShopError = DomainError<ShopErrorCode>;

export function shopError(code: ShopErrorCode, message: string, details: Record<string, unknown> = {}): ShopError {
  return new DomainError(code, message, details);
}

export function isShopError(e: unknown, code?: ShopErrorCode): e is ShopError {
  return (
    e instanceof DomainError &&
    (shopErrorCodes as readonly string[]).includes(e.code) &&
    (code === undefined || e.code === code)
  );
}
