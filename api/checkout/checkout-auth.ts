/**
 * The checkout's own headers (spec part B, "Authentication"; docs/checkout.md, "Headers"), checked behind the
 * gateway (client_id, client_secret and env: gateway-front.ts): the merchant's X-Promotion-API-Key, which must belong
 * to X-Merchant-Id, then X-Request-Id, X-Auth-Audience, X-App-Id and X-App-User-Id (the wallet owner).
 */
import type { RequestHandler } from 'express';
import type { CredentialRefusal, MerchantApiKeys } from '../../application/shared/merchant-api-keys.js';
import { HttpError } from '../shared/interface-errors.js';
import { checkoutCodes } from './checkout-errors.js';

const refusals: { readonly [R in CredentialRefusal]: readonly [number, string, string] } = {
  API_KEY_MISSING: [401, checkoutCodes.unauthenticated, 'X-Promotion-API-Key header is required'],
  API_KEY_INVALID: [401, checkoutCodes.unauthenticated, 'X-Promotion-API-Key is invalid'],
  API_KEY_REVOKED: [401, checkoutCodes.unauthenticated, 'X-Promotion-API-Key has been revoked'],
  API_KEY_EXPIRED: [401, checkoutCodes.unauthenticated, 'X-Promotion-API-Key has expired'],
  MERCHANT_ID_MISSING: [400, checkoutCodes.invalid, 'X-Merchant-Id header is required'],
  MERCHANT_MISMATCH: [403, checkoutCodes.forbidden, 'X-Promotion-API-Key does not belong to X-Merchant-Id'],
};

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const printable = (max: number) => new RegExp(`^[\\x21-\\x7e]{1,${max}}$`);

/** Required headers besides the credentials, with their rule (X-Request-Id is checked apart: a UUID). */
const headerRules: readonly [name: string, pattern: RegExp, rule: string][] = [
  ['X-Auth-Audience', printable(64), '1 to 64 printable ASCII characters'],
  ['X-App-Id', printable(64), '1 to 64 printable ASCII characters'],
  ['X-App-User-Id', printable(128), '1 to 128 printable ASCII characters'],
];

export interface CheckoutCallerLocals {
  merchantId: string;
  userId: string;
  appId: string;
  audience: string;
}

export function checkoutAuth(keys: MerchantApiKeys): RequestHandler {
  return (req, res, next) => {
    keys
      .check({ apiKey: req.header('x-promotion-api-key'), merchantId: req.header('x-merchant-id') })
      .then((result) => {
        if (!result.ok) {
          const [status, code, message] = refusals[result.reason];
          throw new HttpError(status, code, message);
        }
        const requestId = req.header('x-request-id');
        if (!requestId) throw new HttpError(400, checkoutCodes.invalid, 'X-Request-Id header is required');
        if (!uuid.test(requestId)) throw new HttpError(400, checkoutCodes.invalid, 'X-Request-Id must be a UUID');
        for (const [name, pattern, rule] of headerRules) {
          const value = req.header(name);
          if (!value) throw new HttpError(400, checkoutCodes.invalid, `${name} header is required`);
          if (!pattern.test(value)) throw new HttpError(400, checkoutCodes.invalid, `${name} must be ${rule}`);
        }
        const caller: CheckoutCallerLocals = {
          merchantId: result.merchantId,
          userId: req.header('x-app-user-id')!,
          appId: req.header('x-app-id')!,
          audience: req.header('x-auth-audience')!,
        };
        res.locals.checkoutCaller = caller;
        next();
      })
      .catch(next);
  };
}
