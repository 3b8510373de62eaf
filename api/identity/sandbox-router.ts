/**
 * The sandbox consent page (/sandbox/identity/consent): what the host app shows before `getAuthCode` with
 * profile/phone/email. Public (a browser cannot send gateway credentials), on only while the sandbox is, protected
 * against CSRF by a double-submit cookie, and framed by nobody. docs/identity.md, "The consent page".
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  identityIdPattern,
  isConsentScope,
  isScope,
  type ConsentPageErrorCode,
  type ConsentScope,
  type IdentityServices,
} from '../../application/identity/index.js';
import { characters } from '../../application/shared/characters.js';
import type { CommandContext } from '../../application/shared/command-context.js';
import type { Logger } from '../../application/shared/logger.js';
import { actorContextOf } from '../shared/command-context.js';
import { HttpError, interfaceErrorHandler, unknownEndpoint, type InterfaceErrors } from '../shared/interface-errors.js';
import { formBody } from '../shared/json-body.js';
import { expressPath, type RouteSpec } from '../shared/route-spec.js';
import { codePage, consentFormPage, deniedPage, errorPage } from './sandbox-page.js';
import { sandboxRoutes } from './sandbox-routes.js';

const csrfCookie = 'identity_sandbox_csrf';
const csrfPattern = /^[A-Za-z0-9_-]{43}$/;

/** The page's headers: never cached, never framed (a consent screen in a frame invites clickjacking), no scripts. */
const pageHeaders = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

type PageResult = { status: number; html: string; headers?: Record<string, string> } | { redirect: string };

/** The page's form of `on` (api/shared/route.ts): the handler returns HTML or a redirect; what it throws goes on. */
function mountPage(
  router: Router,
  spec: RouteSpec,
  middleware: RequestHandler[],
  handler: (req: Request, res: Response) => Promise<PageResult>,
) {
  router[spec.method](expressPath(spec), ...middleware, (req, res, next) => {
    handler(req, res).then((result) => {
      if ('redirect' in result) {
        res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
        res.redirect(303, result.redirect);
        return;
      }
      res
        .set({ ...pageHeaders, ...result.headers })
        .status(result.status)
        .send(result.html);
    }, next);
  });
}

const pageErrors: InterfaceErrors<ConsentPageErrorCode> = {
  name: 'identity sandbox',
  table: {
    USER_NOT_FOUND: [404, 'user_not_found'],
    MINI_APP_NOT_FOUND: [404, 'miniapp_not_found'],
    SCOPE_NOT_CONSENTED: [409, 'scope_not_consented'],
    SANDBOX_DISABLED: [404, 'sandbox_disabled'],
    REDIRECT_URI_NOT_REGISTERED: [400, 'invalid_redirect_uri'],
  },
  malformed: { invalid: 'invalid_request', tooLarge: 'invalid_request', unsupportedMediaType: 'invalid_request' },
  unknownEndpoint: 'not_found',
  internal: { code: 'server_error', message: 'internal error' },
  send: (res, status, code, message) => {
    res
      .set(pageHeaders)
      .status(status)
      .send(errorPage(status, code, message));
  },
};

const bad = (message: string) => new HttpError(400, 'invalid_request', message);

/** A single text parameter (a query or form value given once). */
function textParam(source: Record<string, unknown>, name: string, required: boolean, max = 2048): string | null {
  const value = source[name];
  if (value === undefined || value === '') {
    if (required) throw bad(`${name} is required`);
    return null;
  }
  if (typeof value !== 'string') throw bad(`${name} must be given once`);
  if (value.length > max && characters(value) > max) throw bad(`${name} is too long`);
  return value;
}

function idParam(source: Record<string, unknown>, name: 'user_id' | 'miniapp_id'): string {
  const value = textParam(source, name, true)!;
  if (!identityIdPattern.test(value)) throw bad(`${name} is not a valid id`);
  return value;
}

/** `scope` → the consent scopes asked for and whether `auth` was. */
function scopeParam(value: string | null): { requested: ConsentScope[]; withAuth: boolean } {
  const names = (value ?? 'profile phone email').split(' ').filter(Boolean);
  const unknown = names.find((s) => !isScope(s));
  if (unknown !== undefined) throw bad(`scope ${unknown} is not known`);
  const requested = (['profile', 'phone', 'email'] as const).filter((s) => names.includes(s));
  const withAuth = names.includes('auth');
  if (!requested.length) throw bad('scope must ask for profile, phone or email');
  return { requested, withAuth };
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

const sameToken = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** `uri` with `params` added to its query. */
function withQuery(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return url.toString();
}

/** The person at the page acts for the user; each command of a submission gets its own id. */
const userContext = (res: Response, userId: string): CommandContext => ({
  ...actorContextOf(res, { userId }),
  commandId: randomUUID(),
});

export function sandboxRouter(
  deps: Pick<IdentityServices, 'users' | 'miniApps' | 'authCodes'> & { logger: Logger },
): Router {
  const { users, miniApps, authCodes } = deps;
  const router = Router();

  /** The user and mini-app of a request, and its redirect URI, which must be one the mini-app registered. */
  async function partiesOf(source: Record<string, unknown>) {
    authCodes.assertEnabled();
    const userId = idParam(source, 'user_id');
    const miniAppId = idParam(source, 'miniapp_id');
    const redirectUri = textParam(source, 'redirect_uri', false);
    const state = textParam(source, 'state', false, 512);
    const miniApp = await miniApps.get(miniAppId);
    const user = await users.get(userId);
    if (redirectUri !== null && !miniApp.redirectUris.includes(redirectUri))
      throw new HttpError(400, 'invalid_redirect_uri', 'redirect_uri is not one the mini-app registered');
    return { user, miniApp, redirectUri, state };
  }

  mountPage(router, sandboxRoutes.consentForm, [], async (req) => {
    const query = req.query as Record<string, unknown>;
    const { user, miniApp, redirectUri, state } = await partiesOf(query);
    const { requested, withAuth } = scopeParam(textParam(query, 'scope', false, 200));
    const kept = cookieOf(req, csrfCookie);
    const csrf = kept && csrfPattern.test(kept) ? kept : randomBytes(32).toString('base64url');
    const granted = user.consents.find((c) => c.miniAppId === miniApp.miniAppId)?.scopes ?? [];
    return {
      status: 200,
      html: consentFormPage({
        csrf,
        userId: user.userId,
        userName: user.name,
        miniAppId: miniApp.miniAppId,
        miniAppName: miniApp.name,
        requested,
        granted,
        withAuth,
        redirectUri,
        state,
      }),
      headers: { 'Set-Cookie': `${csrfCookie}=${csrf}; Path=/sandbox/identity; HttpOnly; SameSite=Strict` },
    };
  });

  const form = formBody({ limit: '8kb', parameterLimit: 20 });
  mountPage(router, sandboxRoutes.consentSubmit, form, async (req, res) => {
    if (!req.is('application/x-www-form-urlencoded')) throw bad('the form must be application/x-www-form-urlencoded');
    const fields = req.body as Record<string, unknown>;
    const cookie = cookieOf(req, csrfCookie);
    const csrf = textParam(fields, 'csrf', false, 64);
    if (!cookie || !csrf || !sameToken(cookie, csrf))
      throw new HttpError(403, 'csrf', 'the form is not one this page showed (CSRF token missing or wrong): reload it');
    const { user, miniApp, redirectUri, state } = await partiesOf(fields);
    const { requested, withAuth } = scopeParam(textParam(fields, 'scope', true, 200));
    const decision = textParam(fields, 'decision', true);
    if (decision !== 'allow' && decision !== 'deny') throw bad('decision must be allow or deny');
    const ticked = ([] as unknown[]).concat(fields.grant ?? []);
    if (!ticked.every((s) => typeof s === 'string' && isConsentScope(s) && requested.includes(s)))
      throw bad('grant must name scopes that were asked for');
    const denied = () =>
      redirectUri === null
        ? { status: 200, html: deniedPage(miniApp.name) }
        : { redirect: withQuery(redirectUri, { error: 'access_denied', state }) };
    if (decision === 'deny') return denied();

    const granted = requested.filter((s) => ticked.includes(s));
    const withdrawn = requested.filter((s) => !ticked.includes(s));
    await users.recordConsent(userContext(res, user.userId), user.userId, miniApp.miniAppId, { granted, withdrawn });
    const scopes = [...(withAuth ? (['auth'] as const) : []), ...granted];
    if (!scopes.length) return denied();
    const code = await authCodes.issue(userContext(res, user.userId), {
      userId: user.userId,
      miniAppId: miniApp.miniAppId,
      scopes,
    });
    if (redirectUri !== null) return { redirect: withQuery(redirectUri, { code: code.code, state }) };
    return { status: 200, html: codePage(code, miniApp.name) };
  });

  router.use(unknownEndpoint(pageErrors));
  router.use(interfaceErrorHandler(pageErrors, deps.logger));
  return router;
}
