/**
 * The identity context in the OpenAPI document: the OAuth token endpoints and JWKS (/oauth2), user info
 * (/open/identity/v1), the sandbox consent page (/sandbox/identity) and its operator endpoints.
 */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerOperatorRoutes } from '../shared/operator-openapi.js';
import { registerRoutes } from '../shared/route-spec.js';
import { oauthBasePath } from './oauth-errors.js';
import { jwksRoutes, oauthRoutes, oauthTag, registerOAuthSecurity } from './oauth-routes.js';
import { identityOperatorRoutes, identityUsersTag, miniAppsTag } from './operator-routes.js';
import { sandboxBasePath, sandboxRoutes, sandboxTag } from './sandbox-routes.js';
import { userInfoBasePath } from './userinfo-errors.js';
import { registerUserInfoSecurity, userInfoRoutes, userInfoTag } from './userinfo-routes.js';

export function registerIdentityOpenApi(api: OpenApiRegistrar): void {
  const { registry, tag } = api;
  registerOAuthSecurity(registry);
  registerUserInfoSecurity(registry);
  tag(oauthTag, 'Token exchange, refresh and revocation for mini-app backends (RFC 6749, RFC 7009) and the JWKS');
  tag(userInfoTag, "The user's profile for a mini-app backend holding an access token");
  tag(sandboxTag, "The host app's consent screen, as a sandbox page");
  tag(identityUsersTag, 'The user directory, consent and (sandbox) authorization codes');
  tag(miniAppsTag, 'Mini-apps: the clients of the token endpoint and their secrets');
  registerRoutes(registry, oauthBasePath, [...Object.values(jwksRoutes), ...Object.values(oauthRoutes)]);
  registerRoutes(registry, userInfoBasePath, Object.values(userInfoRoutes));
  registerRoutes(registry, sandboxBasePath, Object.values(sandboxRoutes));
  registerOperatorRoutes(registry, identityOperatorRoutes);
}
