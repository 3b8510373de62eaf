/**
 * The shop interface's errors (docs/shop-api.md, "Request errors"; spec 000, "Errors"): the typed codes of the
 * purchase flow and the search → the shop's HTTP status and code, through a table that does not compile with a code
 * left out. Any other error is logged and answered 500 SHOP-SYS-500.
 */
import type { ErrorRequestHandler } from 'express';
import type { CatalogErrorCode, PurchaseErrorCode } from '../../application/shop/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { interfaceErrorHandler, type ErrorTable, type InterfaceErrors } from '../shared/interface-errors.js';
import { sendShopError } from './envelope.js';

/** The shop's typed codes this interface can receive: the purchase flow's and the search's (never the operator's). */
export type ShopInterfaceErrorCode = PurchaseErrorCode | CatalogErrorCode;

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

/** The shop interface's errors: its table, request codes, 404 and envelope. */
export const shopErrors: InterfaceErrors<ShopInterfaceErrorCode> = {
  name: 'shop',
  table: shopErrorTable,
  malformed: { invalid: 'SHOP-REQ-001', tooLarge: 'SHOP-REQ-413', unsupportedMediaType: 'SHOP-REQ-415' },
  unknownEndpoint: 'SHOP-REQ-404',
  internal: { code: 'SHOP-SYS-500', message: 'internal error; retry later with the same X-Idempotency-Key' },
  send: (res, status, code, message) => sendShopError(res, status, code, message),
};

export function shopErrorHandler(logger: Logger): ErrorRequestHandler {
  return interfaceErrorHandler(shopErrors, logger);
}
