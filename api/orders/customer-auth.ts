/**
 * The customer queries' authentication (docs/orders-read-models.md, "Read models"): `Authorization: Bearer <access token>`,
 * checked by the identity context's verifier; the customer is the token's user (res.locals.customerId).
 */
import type { RequestHandler, Response } from 'express';
import type { AccessTokenRefusal, AccessTokenVerifier } from '../../application/shared/access-tokens.js';
import { HttpError } from '../shared/interface-errors.js';
import { ordersCodes } from './errors.js';

const refusals: { readonly [R in AccessTokenRefusal]: readonly [code: string, message: string] } = {
  TOKEN_INVALID: [ordersCodes.tokenInvalid, 'the access token is not valid'],
  TOKEN_EXPIRED: [ordersCodes.tokenExpired, 'the access token has expired'],
  TOKEN_REVOKED: [ordersCodes.tokenRevoked, 'the access token has been revoked'],
};

const bearer = /^Bearer +([\x21-\x7e]{1,8192}) *$/i;

function refuse(res: Response, code: string, message: string, error?: string): HttpError {
  res.setHeader('WWW-Authenticate', error ? `Bearer realm="orders", error="${error}"` : 'Bearer realm="orders"');
  return new HttpError(401, code, message);
}

export function customerAuth(tokens: AccessTokenVerifier): RequestHandler {
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
        res.locals.customerId = checked.claims.userId;
        next();
      })
      .catch(next);
  };
}

export const customerOf = (res: Response): string => res.locals.customerId as string;
