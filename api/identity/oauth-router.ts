/**
 * The OAuth interface (/oauth2): the token exchange and revocation (routes in oauth-routes.ts) behind the gateway,
 * and the public JWKS. Parameters come as a form body or JSON; the mini-app authenticates with HTTP Basic or the
 * client_id/client_secret parameters (RFC 6749 §2.3.1). docs/identity.md, "Token exchange".
 */
import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import type { ClientCredentials, IdentityServices, IssuedTokens } from '../../application/identity/index.js';
import type { CommandContext } from '../../application/shared/command-context.js';
import type { Logger } from '../../application/shared/logger.js';
import { actorContextOf } from '../shared/command-context.js';
import { HttpError, interfaceErrorHandler, unknownEndpoint } from '../shared/interface-errors.js';
import { formBody, jsonBody } from '../shared/json-body.js';
import { json } from '../shared/route.js';
import { mount } from '../shared/route-spec.js';
import { basicChallengeLocal, oauthErrors } from './oauth-errors.js';
import { jwksRoutes, oauthRoutes } from './oauth-routes.js';
import { grantTypes, parseScopeParam, revokeRequest, tokenRequest } from './oauth-schemas.js';

const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const invalidRequest = (message: string) => new HttpError(400, 'invalid_request', message);
const invalidClient = (res: Response, message: string, challenge: boolean) => {
  if (challenge) res.locals[basicChallengeLocal] = true;
  return new HttpError(401, 'invalid_client', message);
};

/** The request's parameters: a form body or a JSON object, each parameter a string given once. */
function paramsOf(req: Request): Record<string, unknown> {
  if (!req.is(['application/x-www-form-urlencoded', 'application/json']))
    throw new HttpError(
      req.headers['content-type'] === undefined ? 400 : 415,
      'invalid_request',
      'the parameters must be sent as application/x-www-form-urlencoded (or application/json)',
    );
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequest('the body must hold the parameters (a JSON object, or a form)');
  for (const [name, value] of Object.entries(body))
    if (Array.isArray(value)) throw invalidRequest(`${name} must be given once`);
  return body as Record<string, unknown>;
}

function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, params: Record<string, unknown>): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = issue.path.join('.') || 'body';
  if (issue.code === 'invalid_type' && issue.received === 'undefined') throw invalidRequest(`${name} is required`);
  throw invalidRequest(issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`);
}

/** `application/x-www-form-urlencoded` decoding of a Basic credential part (RFC 6749 §2.3.1). */
function formDecoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The mini-app's credentials, from HTTP Basic or the body; one method only (RFC 6749 §2.3). */
function clientOf(req: Request, res: Response, params: Record<string, unknown>): ClientCredentials {
  const header = req.header('authorization');
  const inBody = params.client_id !== undefined || params.client_secret !== undefined;
  if (header !== undefined) {
    const basic = /^Basic +([A-Za-z0-9+/=_-]+) *$/i.exec(header);
    if (!basic) throw invalidClient(res, 'the Authorization header must be Basic client credentials', true);
    if (inBody) throw invalidRequest('authenticate with HTTP Basic or client_id/client_secret, not both');
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const miniAppId = colon > 0 ? formDecoded(decoded.slice(0, colon)) : undefined;
    const secret = colon > 0 ? formDecoded(decoded.slice(colon + 1)) : undefined;
    if (!miniAppId || !secret) throw invalidClient(res, 'the Basic credentials are not client_id:client_secret', true);
    // A failed Basic authentication is answered with the challenge too.
    res.locals[basicChallengeLocal] = true;
    return { miniAppId, secret };
  }
  const { client_id: miniAppId, client_secret: secret } = params;
  if (typeof miniAppId === 'string' && typeof secret === 'string' && miniAppId && secret) return { miniAppId, secret };
  if (inBody) throw invalidClient(res, 'client_id and client_secret must both be given', false);
  throw invalidClient(res, 'client authentication is required (HTTP Basic, or client_id and client_secret)', true);
}

/** A fresh command per request: a token exchange is never answered again from an earlier one (its secrets are gone). */
const contextOf = (res: Response, miniAppId: string): CommandContext => ({
  ...actorContextOf(res, { miniAppId }),
  commandId: randomUUID(),
});

const tokenJson = (t: IssuedTokens) =>
  json(
    200,
    {
      access_token: t.accessToken,
      token_type: 'Bearer',
      expires_in: t.expiresIn,
      refresh_token: t.refreshToken,
      scope: t.scopes.join(' '),
      user_id: t.userId,
    },
    noStore,
  );

const bodyParsers = [
  ...formBody({ limit: '16kb', parameterLimit: 50 }),
  ...jsonBody({ limit: '16kb', budget: { members: 50, elements: 50 } }),
];

export function oauthRouter(deps: Pick<IdentityServices, 'tokens'> & { logger: Logger }): Router {
  const { tokens } = deps;
  const router = Router();

  mount(router, oauthRoutes.exchange, bodyParsers, async (req, res) => {
    const params = paramsOf(req);
    const client = clientOf(req, res, params);
    const grantType = params.grant_type;
    if (typeof grantType === 'string' && grantType && !(grantTypes as readonly string[]).includes(grantType))
      throw new HttpError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported`);
    const request = parse(tokenRequest, params);
    const context = contextOf(res, client.miniAppId);
    if (request.grant_type === 'authorization_code')
      return tokenJson(await tokens.exchangeCode(context, client, request.code));
    let scopes = null;
    if (request.scope !== undefined) {
      const parsed = parseScopeParam(request.scope);
      if ('unknown' in parsed) throw new HttpError(400, 'invalid_scope', `scope ${parsed.unknown} is not known`);
      if (parsed.scopes.length === 0) throw new HttpError(400, 'invalid_scope', 'scope must name at least one scope');
      scopes = parsed.scopes;
    }
    return tokenJson(await tokens.refresh(context, client, request.refresh_token, scopes));
  });

  mount(router, oauthRoutes.revoke, bodyParsers, async (req, res) => {
    const params = paramsOf(req);
    const client = clientOf(req, res, params);
    const { token } = parse(revokeRequest, params);
    await tokens.revoke(contextOf(res, client.miniAppId), client, token);
    return json(200, {}, noStore);
  });

  router.use(unknownEndpoint(oauthErrors));
  router.use(interfaceErrorHandler(oauthErrors, deps.logger));
  return router;
}

/** GET /oauth2/jwks, outside the gateway; other paths go on to the token routes' router. */
export function jwksRouter(deps: Pick<IdentityServices, 'keys'> & { logger: Logger }): Router {
  const router = Router();
  mount(router, jwksRoutes.jwks, [], () =>
    json(200, deps.keys.publicKeys(), { 'Cache-Control': 'public, max-age=300' }),
  );
  router.use(interfaceErrorHandler(oauthErrors, deps.logger));
  return router;
}
