/**
 * The OAuth interface's routes (/oauth2), declared once: oauth-router.ts mounts them and openapi.ts documents them
 * (api/shared/route-spec.ts). Parameters, answers and codes: docs/identity.md, "Token exchange".
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { errorResponses, requestIdHeader, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { jwksResponse, oauthErrorBody, revokeRequest, tokenRequest, tokenResponse } from './oauth-schemas.js';

export const oauthTag = 'Identity: OAuth 2.0 token endpoints';

const formOrJson = (schema: z.ZodTypeAny) => ({
  body: {
    required: true,
    content: { 'application/x-www-form-urlencoded': { schema }, 'application/json': { schema } },
  },
});

const clientErrors: ErrorCase[] = [
  [400, 'invalid_request', 'a parameter missing, repeated or malformed; two client authentication methods at once'],
  [401, 'invalid_client', 'no client authentication, an unknown mini-app or a wrong secret'],
  [413, 'invalid_request', 'body too large'],
  [415, 'invalid_request', 'the body is neither application/x-www-form-urlencoded nor application/json (UTF-8)'],
  [500, 'server_error', 'an unexpected failure'],
];

const oauthErrorResponses = (...cases: ErrorCase[]) => errorResponses(cases, (_status, codes) => oauthErrorBody(codes));

const noStore = {
  ...requestIdHeader,
  'Cache-Control': { schema: { type: 'string' as const, example: 'no-store' } },
};

/** Security of the token routes: the gateway's headers and the mini-app's own credentials. */
const security: Record<string, string[]>[] = [
  { clientId: [], clientSecret: [], miniAppBasic: [] },
  { clientId: [], clientSecret: [] },
];

export const oauthRoutes = {
  exchange: {
    method: 'post',
    path: '/token/exchange',
    tags: [oauthTag],
    operationId: 'exchangeToken',
    summary: 'Exchange an authorization code, or a refresh token, for an access token and a new refresh token',
    description: [
      'RFC 6749 §4.1.3 (`grant_type=authorization_code`, `code`) and §6 (`grant_type=refresh_token`, `refresh_token`, optional `scope`), as a form body or JSON.',
      'The mini-app authenticates with HTTP Basic (`miniapp_id:secret`, form-encoded, RFC 6749 §2.3.1) or the `client_id` and `client_secret` parameters, not both.',
      'A code is used once: a second exchange (even a parallel one) is `invalid_grant` and revokes the grant the first opened. A refresh token is used once: each refresh answers a new one, and a used one presented again revokes the grant.',
    ].join('\n\n'),
    security,
    request: formOrJson(tokenRequest),
    responses: {
      200: {
        description: 'RFC 6749 §5.1, with the user id',
        headers: noStore,
        content: { 'application/json': { schema: tokenResponse } },
      },
      ...oauthErrorResponses(
        ...clientErrors,
        [400, 'invalid_grant', 'the code or refresh token is unknown, expired, used, revoked, or of another mini-app'],
        [400, 'unsupported_grant_type', 'grant_type is neither authorization_code nor refresh_token'],
        [400, 'invalid_scope', 'a refresh asked for a scope that is unknown or that the grant does not hold'],
      ),
    },
  },
  revoke: {
    method: 'post',
    path: '/token/revoke',
    tags: [oauthTag],
    operationId: 'revokeToken',
    summary: 'Revoke a refresh token or an access token, and with it its whole grant (RFC 7009)',
    description:
      "Answers 200 `{}` whether or not the token was known, valid or the mini-app's own (RFC 7009 §2.2): nothing can be learnt about other tokens here. Same client authentication as the exchange.",
    security,
    request: formOrJson(revokeRequest),
    responses: {
      200: { description: 'Revoked, or nothing to revoke', headers: noStore },
      ...oauthErrorResponses(...clientErrors),
    },
  },
} satisfies Record<string, RouteSpec>;

/** Public: served without the gateway, so that anyone holding a token can check its signature. */
export const jwksRoutes = {
  jwks: {
    method: 'get',
    path: '/jwks',
    tags: [oauthTag],
    operationId: 'getJwks',
    summary: 'The public keys that verify access tokens (JSON Web Key Set, RFC 7517)',
    description:
      'Public, cacheable for 5 minutes. Every key that may have signed a living token is listed; tokens name theirs in the `kid` header.',
    security: [],
    responses: {
      200: {
        description: 'The key set',
        headers: requestIdHeader,
        content: { 'application/json': { schema: jwksResponse } },
      },
    },
  },
} satisfies Record<string, RouteSpec>;

/** The mini-app credentials scheme the token routes name. */
export function registerOAuthSecurity(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'miniAppBasic', {
    type: 'http',
    scheme: 'basic',
    description: 'the mini-app id and its client secret (registered through the operator API), form-encoded',
  });
}
