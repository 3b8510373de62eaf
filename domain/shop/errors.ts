/**
 * Why a shop command was refused: every code the shop's domain and application raise, in groups by the interface
 * that can receive them, so each interface's error table (api/shop) is typed by exactly its group and an unmapped
 * code does not compile. docs/conventions.md, "Errors".
 */
import { DomainError } from '../shared/errors.js';

/**
 * The purchase flow (public shop API, endpoints 7 to 10). The shop API maps: AMOUNT_MISMATCH SHOP-PUR-001,
 * OUT_OF_STOCK 012, PRICE_MISMATCH 014, CURRENCY_MISMATCH 015, PURCHASE_LIMIT_EXCEEDED 016, POOL_NOT_FOUND
 * SHOP-VOU-001, ORDER_ID_USED and IDEMPOTENCY_KEY_REUSED SHOP-PUR-011, RESERVATION_NOT_FOUND 003,
 * RESERVATION_NOT_RESERVED and RESERVATION_EXPIRED 006, RESERVATION_ALREADY_FINAL 007. INVALID_REQUEST (a malformed
 * purchase request) names the field in details.field.
 */
export const purchaseErrorCodes = [
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
] as const;
export type PurchaseErrorCode = (typeof purchaseErrorCodes)[number];

/** The catalog and search reads (public shop API, endpoints 1 to 6): a search keyword out of bounds (field q). */
export const catalogErrorCodes = ['KEYWORD_TOO_SHORT', 'INVALID_KEYWORD'] as const;
export type CatalogErrorCode = (typeof catalogErrorCodes)[number];

/**
 * The operator's commands (operator API). INVALID_INPUT and INVALID_POOL name the field in details.field; the
 * *_EXISTS codes of a numeric id (CAMPAIGN_EXISTS, CATEGORY_EXISTS) mean a sequence handed out an id twice.
 */
export const adminErrorCodes = [
  'INVALID_INPUT',
  'INVALID_POOL',
  'POOL_NOT_FOUND',
  'MERCHANT_NOT_FOUND',
  'MERCHANT_EXISTS',
  'API_KEY_NOT_FOUND',
  'API_KEY_SHOWN_ONCE',
  'CATEGORY_NOT_FOUND',
  'CATEGORY_EXISTS',
  'CAMPAIGN_NOT_FOUND',
  'CAMPAIGN_EXISTS',
  'CAMPAIGN_CODE_EXISTS',
  'CAMPAIGN_ENDED',
  'INVALID_STATUS_TRANSITION',
  'BANNER_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
] as const;
export type AdminErrorCode = (typeof adminErrorCodes)[number];

/** Every code of the shop. */
export const shopErrorCodes = [...new Set([...purchaseErrorCodes, ...catalogErrorCodes, ...adminErrorCodes])];
export type ShopErrorCode = PurchaseErrorCode | CatalogErrorCode | AdminErrorCode;

export type ShopError<Code extends ShopErrorCode = ShopErrorCode> = DomainError<Code>;

export function shopError<Code extends ShopErrorCode>(
  code: Code,
  message: string,
  details: Record<string, unknown> = {},
): ShopError<Code> {
  return new DomainError(code, message, details);
}

/** An operator's input broke a rule: `field` names it as the operator API does (e.g. `banners[0].assetUrl`). */
export function invalidInput(field: string, message: string): ShopError<'INVALID_INPUT'> {
  return shopError('INVALID_INPUT', message, { field });
}

export function isShopError(e: unknown, code?: ShopErrorCode): e is ShopError {
  return (
    e instanceof DomainError &&
    (shopErrorCodes as readonly string[]).includes(e.code) &&
    (code === undefined || e.code === code)
  );
}
