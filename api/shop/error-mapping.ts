/**
 * The shop interface's errors (docs/shop-api.md, "Request errors"; spec 000, "Errors"): the typed codes of the
 * purchase flow and the search → the shop's HTTP status and code, through a table that does not compile with a code
 * left out. Any other error is logged and answered 500 SHOP-SYS-500.
 */
import type { ErrorRequestHandler } from 'express';
import type { ShopErrorCode } from '../../domain/shop/errors.js';
import type { Logger } from '../../infrastructure/shared/logger.js';
import { interfaceErrorHandler, type ErrorTable } from '../shared/interface-errors.js';
import { sendShopError } from './envelope.js';

/**
 * The shop's typed codes the purchase flow raises (reserve, commit, release, lookup). Narrowed here until
 * domain/shop/errors.ts groups its codes: the operator's codes (INVALID_POOL, ...) never reach this interface, and a
 * new one must not need an entry in its table.
 */
export type ShopPurchaseErrorCode = Extract<
  ShopErrorCode,
  | 'INVALID_REQUEST'
  | 'AMOUNT_MISMATCH'
  | 'OUT_OF_STOCK'
  | 'PRICE_MISMATCH'
  | 'CURRENCY_MISMATCH'
  | 'PURCHASE_LIMIT_EXCEEDED'
  | 'POOL_NOT_FOUND'
  | 'ORDER_ID_USED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RESERVATION_NOT_FOUND'
  | 'RESERVATION_NOT_RESERVED'
  | 'RESERVATION_EXPIRED'
  | 'RESERVATION_ALREADY_FINAL'
>;

/** The search's refusals of a keyword (application/shop/voucher-search.ts, which does not type them yet). */
export type ShopSearchErrorCode = 'KEYWORD_TOO_SHORT' | 'INVALID_KEYWORD';

export type ShopInterfaceErrorCode = ShopPurchaseErrorCode | ShopSearchErrorCode;

export const shopErrorTable: ErrorTable<ShopInterfaceErrorCode> = {
  INVALID_REQUEST: [400, 'SHOP-REQ-001'],
  AMOUNT_MISMATCH: [400, 'SHOP-PUR-001'],
  OUT_OF_STOCK: [400, 'SHOP-PUR-012'],
  PRICE_MISMATCH: [400, 'SHOP-PUR-014'],
  CURRENCY_MISMATCH: [400, 'SHOP-PUR-015'],
  PURCHASE_LIMIT_EXCEEDED: [400, 'SHOP-PUR-016'],
  POOL_NOT_FOUND: [404, 'SHOP-VOU-001'],
  ORDER_ID_USED: [409, 'SHOP-PUR-011'],
  IDEMPOTENCY_KEY_REUSED: [409, 'SHOP-PUR-011'],
  RESERVATION_NOT_FOUND: [404, 'SHOP-PUR-003'],
  RESERVATION_NOT_RESERVED: [400, 'SHOP-PUR-006'],
  RESERVATION_EXPIRED: [400, 'SHOP-PUR-006'],
  RESERVATION_ALREADY_FINAL: [400, 'SHOP-PUR-007'],
  // The spec's code for a keyword too short; the search's other bounds are this service's own.
  KEYWORD_TOO_SHORT: [400, 'SHOP-VOU-002'],
  INVALID_KEYWORD: [400, 'SHOP-REQ-001'],
};

export function shopErrorHandler(logger: Logger): ErrorRequestHandler {
  return interfaceErrorHandler(
    {
      name: 'shop',
      table: shopErrorTable,
      malformed: { invalid: 'SHOP-REQ-001', tooLarge: 'SHOP-REQ-413', unsupportedMediaType: 'SHOP-REQ-415' },
      internal: { code: 'SHOP-SYS-500', message: 'internal error; retry later with the same X-Idempotency-Key' },
      send: (res, status, code, message) => sendShopError(res, status, code, message),
    },
    logger,
  );
}
