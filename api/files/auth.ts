/**
 * The files interface's authentication (docs/files.md, "Authentication"): `Authorization: Bearer <access token>`,
 * checked by the identity context's verifier. The owner of what the request uploads or reads is the token's user in
 * the token's mini-app, put in res.locals.owner.
 */
import type { RequestHandler, Response } from 'express';
import type { AccessTokenRefusal, AccessTokenVerifier } from '../../application/shared/access-tokens.js';
import type { FileOwner } from '../../application/files/index.js';
import { HttpError } from '../shared/interface-errors.js';
import { filesCodes } from './errors.js';

const refusals: { readonly [R in AccessTokenRefusal]: readonly [code: string, message: string, error: string] } = {
  TOKEN_INVALID: [filesCodes.tokenInvalid, 'the access token is not valid', 'invalid_token'],
  TOKEN_EXPIRED: [filesCodes.tokenExpired, 'the access token has expired', 'invalid_token'],
  TOKEN_REVOKED: [filesCodes.tokenRevoked, 'the access token has been revoked', 'invalid_token'],
};

/** `Bearer <token>`: the token is printable ASCII without spaces (RFC 6750's b64token, and JWTs). */
const bearer = /^Bearer +([\x21-\x7e]{1,8192}) *$/i;

function refuse(res: Response, code: string, message: string, error?: string): HttpError {
  // RFC 6750 section 3: a 401 names the scheme, and why when a token was given.
  res.setHeader('WWW-Authenticate', error ? `Bearer realm="files", error="${error}"` : 'Bearer realm="files"');
  return new HttpError(401, code, message);
}

export function bearerAuth(tokens: AccessTokenVerifier): RequestHandler {
  return (req, res, next) => {
    const header = req.header('authorization');
    if (!header) return next(refuse(res, filesCodes.tokenMissing, 'Authorization: Bearer <access token> is required'));
    const token = bearer.exec(header)?.[1];
    if (!token)
      return next(
        refuse(res, filesCodes.tokenMissing, 'Authorization must be "Bearer <access token>"', 'invalid_request'),
      );
    // A verifier that throws rather than rejects still reaches the error handler through the promise.
    Promise.resolve()
      .then(() => tokens.verify(token))
      .then((checked) => {
        if (!checked.ok) {
          const [code, message, error] = refusals[checked.reason];
          throw refuse(res, code, message, error);
        }
        const owner: FileOwner = { userId: checked.claims.userId, miniAppId: checked.claims.miniAppId };
        res.locals.owner = owner;
        next();
      })
      .catch(next);
  };
}

/** The authenticated owner (bearerAuth ran). */
export const ownerOf = (res: Response): FileOwner => res.locals.owner as FileOwner;
