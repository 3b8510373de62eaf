import type { ErrorRequestHandler } from 'express';
import { isDomainError } from '../../domain/shared/errors.js';
import type { Logger } from '../../infrastructure/shared/logger.js';
import { RequestValidationError } from '../shared/validation.js';
import { ShopHttpError, sendShopError } from './envelope.js';

/**
 * Domain error codes → the shop interface's HTTP status and code (spec
 * 000, "Errors"). Codes not in the spec are this service's own and are listed
 * in docs/shop-api.md.
 */
const domainToShop: Record<string, [number, string]> = {
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
};

/** Maps what express and body-parser raise for a malformed request (path encoding, JSON, size, charset) to the shop's request errors. */
function malformedRequestError(err: { type?: string }): [number, string, string] | undefined {
  if (err instanceof URIError) return [400, 'SHOP-REQ-001', 'request path is not valid percent-encoding'];
  switch (err.type) {
    case 'entity.parse.failed':
      return [400, 'SHOP-REQ-001', 'request body is not valid JSON'];
    case 'entity.too.large':
      return [413, 'SHOP-REQ-413', 'request body is too large'];
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return [415, 'SHOP-REQ-415', 'request body must be UTF-8 JSON'];
    default:
      return undefined;
  }
}

export function shopErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof ShopHttpError) return sendShopError(res, err.status, err.code, err.message);
    if (err instanceof RequestValidationError) return sendShopError(res, err.status, 'SHOP-REQ-001', err.message);
    if (isDomainError(err)) {
      const mapped = domainToShop[err.code];
      if (mapped) return sendShopError(res, mapped[0], mapped[1], err.message);
      if (err.code.startsWith('INVALID')) return sendShopError(res, 400, 'SHOP-REQ-001', err.message);
    }
    const parsed = err && typeof err === 'object' ? malformedRequestError(err) : undefined;
    if (parsed) return sendShopError(res, ...parsed);
    logger.error('shop request failed', { method: req.method, path: req.path, err });
    sendShopError(res, 500, 'SHOP-SYS-500', 'internal error; retry later with the same X-Idempotency-Key');
  };
}
