/**
 * The identity context's API: the OAuth interface (/oauth2) and user info (/open/identity/v1) behind the gateway,
 * the public JWKS and sandbox consent page, its operator endpoints and their OpenAPI. The only file of api/identity
 * the composition root imports (docs/conventions.md, "Modules").
 */
import type { IdentityServices } from '../../application/identity/index.js';
import type { ContextApi } from '../shared/context-api.js';
import { oauthBasePath, oauthGateway } from './oauth-errors.js';
import { jwksRouter, oauthRouter } from './oauth-router.js';
import { oauthRoutes } from './oauth-routes.js';
import { registerIdentityOpenApi } from './openapi.js';
import { identityOperatorRouter } from './operator-router.js';
import { sandboxBasePath } from './sandbox-routes.js';
import { sandboxRouter } from './sandbox-router.js';
import { userInfoBasePath, userInfoGateway } from './userinfo-errors.js';
import { userInfoRouter } from './userinfo-router.js';
import { userInfoRoutes } from './userinfo-routes.js';

export { identityOperatorRouter } from './operator-router.js';

export const identityApi: ContextApi<IdentityServices> = {
  interfaces: (s, { logger }) => [
    // Public, before the gated /oauth2 router (other paths go on to it): anyone holding a token may check it.
    { path: oauthBasePath, router: jwksRouter({ keys: s.keys, logger }), gateway: null },
    {
      path: oauthBasePath,
      router: oauthRouter({ tokens: s.tokens, logger }),
      gateway: oauthGateway(Object.values(oauthRoutes)),
    },
    {
      path: userInfoBasePath,
      router: userInfoRouter({ accessTokens: s.accessTokens, userInfo: s.userInfo, logger }),
      gateway: userInfoGateway(Object.values(userInfoRoutes)),
    },
    // Public: a browser page standing in for the host app's screen, which no gateway credentials reach.
    { path: sandboxBasePath, router: sandboxRouter({ ...s, logger }), gateway: null },
  ],
  operatorRouter: (s, { logger }) => identityOperatorRouter({ ...s, logger }),
  openApi: [registerIdentityOpenApi],
  description: [
    'Identity: mini-app backends exchange one-time authorization codes for access tokens at `/oauth2/token/exchange` (RFC 6749 bodies and errors; JWT access tokens verifiable with `/oauth2/jwks`) and read the user at `/open/identity/v1/userinfo` (`{code, message, data}`, numeric codes).',
    'Operators manage users, consent and mini-apps under `/operator/v1/identity`; the sandbox stands in for the host app (`/sandbox/identity/consent`, `POST /operator/v1/identity/auth-codes`). Details: docs/identity.md.',
  ].join('\n\n'),
};
