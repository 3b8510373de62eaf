/**
 * The customer queries' one guard (docs/orders-read-models.md, "Queries"; docs/orders.md, "The customer's consent"):
 * `Authorization: Bearer <access token>`, checked by the identity context's verifier, then what it may read
 * (application/orders/customer-access.ts: `profile` and the user's current consent, or a host-app audience). The
 * access it decides (the token's user, the fields shown) is res.locals.customerAccess, which the queries obey.
 */
import type { RequestHandler, Response } from 'express';
import type { CustomerAccess, CustomerAccessPolicy, CustomerAccessRefusal } from '../../application/orders/index.js';
import type { AccessTokenRefusal, AccessTokenVerifier } from '../../application/shared/access-tokens.js';
import { HttpError } from '../shared/interface-errors.js';
import { ordersCodes } from './errors.js';

const refusals: { readonly [R in AccessTokenRefusal]: readonly [code: string, message: string] } = {
  TOKEN_INVALID: [ordersCodes.tokenInvalid, 'the access token is not valid'],
  TOKEN_EXPIRED: [ordersCodes.tokenExpired, 'the access token has expired'],
  TOKEN_REVOKED: [ordersCodes.tokenRevoked, 'the access token has been revoked'],
};

/** RFC 6750 §3.1: a valid token that may not read the orders is 403 insufficient_scope, naming the scope needed. */
const accessRefusals: { readonly [R in CustomerAccessRefusal]: readonly [code: string, message: string] } = {
  SCOPE_MISSING: [
    ordersCodes.scopeMissing,
    'the access token does not carry the profile scope (an auth-only token cannot read the orders)',
  ],
  CONSENT_WITHDRAWN: [ordersCodes.consentWithdrawn, 'the user withdrew consent to profile for this mini-app'],
};

const bearer = /^Bearer +([\x21-\x7e]{1,8192}) *$/i;

function refuse(res: Response, code: string, message: string, error?: string): HttpError {
  res.setHeader('WWW-Authenticate', error ? `Bearer realm="orders", error="${error}"` : 'Bearer realm="orders"');
  return new HttpError(401, code, message);
}

export function customerAuth(tokens: AccessTokenVerifier, policy: CustomerAccessPolicy): RequestHandler {
  return (req, res, next) => {
    const header = req.header('authorization');
    if (!header) return next(refuse(res, ordersCodes.tokenMissing, 'Authorization: Bearer <access token> is required'));
    const token = bearer.exec(header)?.[1];
    if (!token)
      return next(
        refuse(res, ordersCodes.tokenMissing, 'Authorization must be "Bearer <access token>"', 'invalid_request'),
      );
    Promise.resolve()
      .then(() => tokens.verify(token))
      .then((checked) => {
        if (!checked.ok) throw refuse(res, ...refusals[checked.reason], 'invalid_token');
        return policy.check(checked.claims);
      })
      .then((allowed) => {
        if (!allowed.ok) {
          res.setHeader('WWW-Authenticate', 'Bearer realm="orders", error="insufficient_scope", scope="profile"');
          throw new HttpError(403, ...accessRefusals[allowed.reason]);
        }
        res.locals.customerAccess = allowed.access;
        next();
      })
      .catch(next);
  };
}

export const customerOf = (res: Response): CustomerAccess => res.locals.customerAccess as CustomerAccess;
