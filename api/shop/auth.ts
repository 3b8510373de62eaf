/**
 * The shop's own authentication (docs/shop-api.md, "Headers and authentication"): middleware before every shop route,
 * behind the gateway, which checked client_id/client_secret (gateway-front.ts; docs/gateway.md).
 */
import type { RequestHandler } from 'express';
import type { CredentialRefusal, ShopCredentials } from '../../application/shop/index.js';
import { HttpError } from '../shared/interface-errors.js';

/** Why a caller was refused → the shop's status and documented code; a reason left out does not compile. */
const refusals: { readonly [R in CredentialRefusal]: readonly [number, string, string] } = {
  API_KEY_MISSING: [401, 'SHOP-AUTH-002', 'X-Promotion-Api-Key header is required'],
  API_KEY_INVALID: [401, 'SHOP-AUTH-002', 'X-Promotion-Api-Key is invalid'],
  API_KEY_REVOKED: [401, 'SHOP-AUTH-002', 'X-Promotion-Api-Key has been revoked'],
  API_KEY_EXPIRED: [401, 'SHOP-AUTH-002', 'X-Promotion-Api-Key has expired'],
  MERCHANT_ID_MISSING: [401, 'SHOP-AUTH-003', 'X-Merchant-Id header is required'],
  MERCHANT_MISMATCH: [403, 'SHOP-AUTH-004', 'X-Promotion-Api-Key does not belong to X-Merchant-Id'],
};

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const userIdPattern = /^[\x21-\x7e]{1,128}$/;

export interface ShopCallerLocals {
  merchantId: string;
  requestId: string;
  userId?: string;
}

/**
 * Checks the shop's own credential headers, then X-Request-Id (a UUID) and,
 * where `requireUser`, X-User-Id. Puts the caller in res.locals.caller.
 */
export function shopAuth(credentials: ShopCredentials, options: { requireUser: boolean }): RequestHandler {
  return (req, res, next) => {
    credentials
      .check({
        apiKey: req.header('x-promotion-api-key'),
        merchantId: req.header('x-merchant-id'),
      })
      .then((result) => {
        if (!result.ok) {
          const [status, code, message] = refusals[result.reason];
          throw new HttpError(status, code, message);
        }
        const requestId = req.header('x-request-id');
        if (!requestId) throw new HttpError(400, 'SHOP-REQ-001', 'X-Request-Id header is required');
        if (!uuid.test(requestId)) throw new HttpError(400, 'SHOP-REQ-001', 'X-Request-Id must be a UUID');
        const userId = req.header('x-user-id');
        if (userId !== undefined && !userIdPattern.test(userId))
          throw new HttpError(400, 'SHOP-REQ-001', 'X-User-Id must be 1 to 128 printable characters');
        if (options.requireUser && !userId) throw new HttpError(400, 'SHOP-REQ-001', 'X-User-Id header is required');
        const caller: ShopCallerLocals = { merchantId: result.merchantId, requestId, userId };
        res.locals.caller = caller;
        next();
      })
      .catch(next);
  };
}
