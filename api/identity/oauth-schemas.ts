/**
 * The token endpoints' parameters and answers as zod schemas (RFC 6749 §4.1.3, §5.1, §6; RFC 7009 §2.1), in a form
 * body or JSON. Parsing refuses what RFC 6749 refuses (a parameter given twice, a missing one) as invalid_request
 * and an unknown grant_type as unsupported_grant_type; unknown parameters are ignored, as §3.2 asks.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { isScope, scopes, type Scope } from '../../application/identity/index.js';

extendZodWithOpenApi(z);

const param = (name: string, description: string) =>
  z
    .string({ invalid_type_error: `${name} must be a string, given once` })
    .min(1, `${name} must not be empty`)
    .max(512, `${name} is too long`)
    .describe(description);

const clientParams = {
  client_id: param('client_id', 'the mini-app id, when not sent with HTTP Basic').optional(),
  client_secret: param('client_secret', 'the mini-app secret, when not sent with HTTP Basic').optional(),
};

export const grantTypes = ['authorization_code', 'refresh_token'] as const;

const codeGrant = z
  .object({
    grant_type: z.literal('authorization_code'),
    code: param('code', 'the one-time code the host app (here: the sandbox) issued'),
    redirect_uri: z.string().optional().describe('accepted and ignored: codes are not bound to a redirect URI'),
    ...clientParams,
  })
  .passthrough();

const refreshGrant = z
  .object({
    grant_type: z.literal('refresh_token'),
    refresh_token: param('refresh_token', 'the current refresh token of the grant'),
    scope: z
      .string({ invalid_type_error: 'scope must be a string, given once' })
      .max(200)
      .optional()
      .describe('space-separated scopes the new access token asks for, each held by the grant; absent: all of them'),
    ...clientParams,
  })
  .passthrough();

/** POST /oauth2/token/exchange. */
export const tokenRequest = z.discriminatedUnion('grant_type', [codeGrant, refreshGrant]).openapi('TokenRequest');
export type TokenRequest = z.infer<typeof tokenRequest>;

/** POST /oauth2/token/revoke. */
export const revokeRequest = z
  .object({
    token: param('token', 'a refresh token or an access token of this mini-app'),
    token_type_hint: z.string().optional().describe('`refresh_token` or `access_token`; optional, not needed'),
    ...clientParams,
  })
  .passthrough()
  .openapi('RevokeRequest');

/** `scope` of a refresh request → known scopes, or null with the unknown one. */
export function parseScopeParam(value: string): { scopes: Scope[] } | { unknown: string } {
  const names = value.split(' ').filter(Boolean);
  const unknown = names.find((s) => !isScope(s));
  return unknown === undefined ? { scopes: names as Scope[] } : { unknown };
}

export const tokenResponse = z
  .object({
    access_token: z.string().describe('a JWT (RFC 9068), signed with a key of GET /oauth2/jwks'),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('seconds the access token lives'),
    refresh_token: z.string().describe('opaque, single use: each refresh answers a new one'),
    scope: z.string().describe(`space-separated, of ${scopes.join(', ')}`),
    user_id: z.string().describe('the host-app user id (what a silent login with `auth` learns)'),
  })
  .openapi('TokenResponse');

export const oauthErrorBody = (codes: [string, ...string[]]) =>
  z.object({ error: z.enum(codes), error_description: z.string() });

export const jwksResponse = z
  .object({
    keys: z.array(
      z
        .object({ kty: z.string(), crv: z.string(), x: z.string(), kid: z.string(), alg: z.string(), use: z.string() })
        .passthrough(),
    ),
  })
  .openapi('JsonWebKeySet');
