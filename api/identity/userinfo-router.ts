/**
 * The user-info interface (/open/identity/v1): GET /userinfo with `Authorization: Bearer <access token>`, behind the
 * gateway. The token is checked through the access-token port; the profile read from the user's stream.
 * docs/identity.md, "User info".
 */
import { Router, type Request } from 'express';
import type { IdentityServices, UserInfo } from '../../application/identity/index.js';
import type { AccessTokenClaims } from '../../application/shared/access-tokens.js';
import type { Logger } from '../../application/shared/logger.js';
import { HttpError, interfaceErrorHandler, unknownEndpoint } from '../shared/interface-errors.js';
import { json } from '../shared/route.js';
import { mount } from '../shared/route-spec.js';
import { tokenRefusals, userInfoCodes, userInfoErrors } from './userinfo-errors.js';
import { userInfoRoutes } from './userinfo-routes.js';

/** The bearer token of `Authorization: Bearer <token>` (RFC 6750 §2.1), checked through the verifier. */
async function claimsOf(req: Request, accessTokens: IdentityServices['accessTokens']): Promise<AccessTokenClaims> {
  const header = req.header('authorization');
  const bearer = header === undefined ? null : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!bearer)
    throw new HttpError(
      401,
      String(userInfoCodes.tokenMissing),
      header === undefined
        ? 'the Authorization header is required: Bearer <access token>'
        : 'the Authorization header must be Bearer <access token>',
    );
  const check = await accessTokens.verify(bearer[1]!);
  if (!check.ok) {
    const [status, code, message] = tokenRefusals[check.reason];
    throw new HttpError(status, String(code), message);
  }
  return check.claims;
}

const userInfoJson = (u: UserInfo) => ({
  user_id: u.userId,
  name: u.name,
  date_of_birth: u.dateOfBirth,
  gender: u.gender,
  avatar_url: u.avatarUrl,
  ...(u.phoneNumber !== undefined && { phone_number: u.phoneNumber }),
  ...(u.email !== undefined && { email: u.email }),
});

export function userInfoRouter(deps: Pick<IdentityServices, 'accessTokens' | 'userInfo'> & { logger: Logger }): Router {
  const router = Router();
  mount(router, userInfoRoutes.userinfo, [], async (req) => {
    const claims = await claimsOf(req, deps.accessTokens);
    const user = await deps.userInfo.read(claims);
    return json(
      200,
      { code: userInfoCodes.success, message: 'Success', data: userInfoJson(user) },
      {
        'Cache-Control': 'no-store',
      },
    );
  });
  router.use(unknownEndpoint(userInfoErrors));
  router.use(interfaceErrorHandler(userInfoErrors, deps.logger));
  return router;
}
