/**
 * The payment hub interface (/api/payments/v1; docs/payments.md): the terminal's key first (4101, 4100), then each
 * route's headers and body (4001), the X-Timestamp window (4103) and the secureHash (4102), then the operation, run
 * once per X-Request-ID (an identical resend replays its answer, another request under it is refused 4093).
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  cancelConfirmSigningString,
  initSigningString,
  removeSavedMethodSigningString,
  type PaymentCaller,
  type PaymentsServices,
  type TransactionReference,
} from '../../application/payments/index.js';
import type { CommandContext } from '../../application/shared/command-context.js';
import type { Logger } from '../../application/shared/logger.js';
import { commandContextOf } from '../shared/command-context.js';
import { HttpError, interfaceErrorHandler, unknownEndpoint } from '../shared/interface-errors.js';
import { interfaceBody } from '../shared/interface-body.js';
import { saneToken } from '../shared/request-context.js';
import { mount } from '../shared/route-spec.js';
import { issueField, issueMessage } from '../shared/validation.js';
import { hubErrors, hubOk } from './hub-errors.js';
import { mountRefundRoutes } from './refund-router.js';
import { json } from '../shared/route.js';
import { hubRoutes } from './hub-routes.js';
import {
  cancelBody,
  confirmBody,
  initPaymentBody,
  lookupQuery,
  paymentMethodsQuery,
  removeSavedMethodBody,
} from './hub-schemas.js';
import { mountSessionRoutes } from './session-router.js';
import { initPaymentJson, paymentMethodJson, savedMethodJson, transactionItemJson } from './transaction-json.js';

/** 4001 "Invalid request": what is wrong goes to data.detail, the field (when one) to data.field. */
export const invalid = (detail: string, field?: string) =>
  new HttpError(400, '4001', detail, field === undefined ? null : { field });

/** At most 200 order items of 7 fields and ~40 fields around them (api/payments/hub-schemas.ts): ~1,450 members. */
const hubBodyBudget = { members: 2_000, elements: 1_000 };

/** The terminal of X-Payment-API-Key, in res.locals.paymentCaller; 401 4101 when absent, 4100 when not usable. */
export function keyAuth(services: PaymentsServices): RequestHandler {
  return (req, res, next) => {
    services.directory
      .checkKey(req.header('x-payment-api-key'))
      .then((check) => {
        if (!check.ok)
          throw check.reason === 'MISSING'
            ? new HttpError(401, '4101', 'X-Payment-API-Key header is required')
            : new HttpError(401, '4100', 'Invalid API key');
        res.locals.paymentCaller = check.caller;
        next();
      })
      .catch(next);
  };
}

export const callerOf = (res: Response) => res.locals.paymentCaller as PaymentCaller;

/**
 * The hub's bodies: up to 64 KiB of a JSON object. A wrong Content-Type is its 4001 naming the header; a refusal names
 * its field.
 */
const hubBody = interfaceBody(hubErrors, {
  limit: '64kb',
  budget: hubBodyBudget,
  strict: false,
  notJson: 'invalid',
  notObject: 'the body must be a JSON object',
});

export const parseBody = hubBody.read;

/** A header that, when sent, must be a sane token (printable ASCII, no spaces, 1 to 128). */
function optionalHeader(req: Request, name: string): string | undefined {
  const value = req.header(name);
  if (value === undefined) return undefined;
  if (!saneToken.test(value)) throw invalid(`${name} must be 1 to 128 printable characters without spaces`, name);
  return value;
}

function requiredHeader(req: Request, name: string): string {
  const value = optionalHeader(req, name);
  if (value === undefined) throw invalid(`${name} header is required`, name);
  return value;
}

/** X-Request-ID and X-Timestamp of a signed write, the timestamp checked against the window. */
export function signedHeaders(services: PaymentsServices, req: Request): { requestId: string; timestamp: string } {
  const requestId = requiredHeader(req, 'X-Request-ID');
  const timestamp = requiredHeader(req, 'X-Timestamp');
  if (!/^[0-9]{1,12}$/.test(timestamp)) throw invalid('X-Timestamp must be Unix seconds', 'X-Timestamp');
  services.signatures.checkTimestamp(timestamp);
  return { requestId, timestamp };
}

/** The command context of a signed write: the terminal acts, and X-Request-ID is its idempotency key. */
export function commandOf(req: Request, res: Response, requestId: string): CommandContext {
  const caller = callerOf(res);
  return commandContextOf(req, res, {
    actor: { merchantId: caller.merchantCode, terminalId: caller.terminalId },
    idempotency: { scope: `payments:${caller.merchantCode}:${caller.terminalId}`, key: requestId },
  });
}

/**
 * Of `vi` and `en`, the one the caller's Accept-Language prefers: by weight (`q`, default 1; `q=0` refuses), then by
 * order; `vi` when it names neither.
 */
function languageOf(req: Request): 'vi' | 'en' {
  const ranked = (req.header('accept-language') ?? '')
    .split(',')
    .map((entry, order) => {
      const [tag = '', ...params] = entry.split(';').map((p) => p.trim());
      const q = params.find((p) => /^q=/i.test(p));
      return { lang: tag.slice(0, 2).toLowerCase(), q: q ? Number(q.slice(2)) : 1, order };
    })
    .filter(
      (t): t is { lang: 'vi' | 'en'; q: number; order: number } => (t.lang === 'vi' || t.lang === 'en') && t.q > 0,
    )
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked[0]?.lang ?? 'vi';
}

const referenceOf = (b: { transactionId?: string; orderId?: string; referenceId?: string }): TransactionReference =>
  b.transactionId !== undefined
    ? { transactionId: b.transactionId.toLowerCase() }
    : { orderId: b.orderId!, referenceId: b.referenceId! };

export function hubRouter(deps: { services: PaymentsServices; logger: Logger }): Router {
  const { services } = deps;
  const router = Router();
  const auth = keyAuth(services);
  const withBody = [auth, ...hubBody.parsers];

  mount(router, hubRoutes.init, withBody, async (req, res) => {
    const caller = callerOf(res);
    const body = parseBody(initPaymentBody, req);
    const { requestId } = signedHeaders(services, req);
    const miniAppUserId = optionalHeader(req, 'X-MiniApp-User-ID');
    const externalUserId = optionalHeader(req, 'X-External-User-ID');
    const miniAppId = optionalHeader(req, 'X-MiniApp-Id');
    const authAudience = optionalHeader(req, 'X-Auth-Audience');
    await services.signatures.verify(
      caller,
      initSigningString({ ...body, orderCreatedAt: body.orderInfo?.orderCreatedAt }),
      body.secureHash,
    );
    const { secureHash: _hash, returnURL, ...fields } = body;
    const result = await services.transactions.init(commandOf(req, res, requestId), caller, {
      ...fields,
      amount: Math.trunc(body.amount),
      returnUrl: returnURL,
      miniAppUserId,
      externalUserId,
      miniAppId,
      authAudience,
    });
    return hubOk(initPaymentJson(result));
  });

  mount(router, hubRoutes.lookup, [auth], async (req, res) => {
    const parsed = lookupQuery.safeParse(req.query);
    if (!parsed.success) throw new HttpError(400, '4661', 'send transactionId (a UUID), or orderId and referenceId');
    const items = await services.transactions.find(callerOf(res), referenceOf(parsed.data));
    return hubOk({ items: items.map(transactionItemJson) });
  });

  const signedReference = async (
    req: Request,
    res: Response,
    body: { transactionId?: string; orderId?: string; referenceId?: string; secureHash: string },
  ) => {
    const { requestId, timestamp } = signedHeaders(services, req);
    const ref = referenceOf(body);
    // transactionId wins: signed as sent (any case), looked up in lower case.
    const signedRef = body.transactionId !== undefined ? { transactionId: body.transactionId } : ref;
    await services.signatures.verify(callerOf(res), cancelConfirmSigningString(signedRef, timestamp), body.secureHash);
    return { ref, context: commandOf(req, res, requestId) };
  };

  mount(router, hubRoutes.cancel, withBody, async (req, res) => {
    const body = parseBody(cancelBody, req);
    const { ref, context } = await signedReference(req, res, body);
    await services.transactions.cancel(context, callerOf(res), ref, {
      reason: body.reason ?? null,
      requestedBy: body.requestedBy ?? null,
    });
    return hubOk();
  });

  mount(router, hubRoutes.confirm, withBody, async (req, res) => {
    const body = parseBody(confirmBody, req);
    const { ref, context } = await signedReference(req, res, body);
    await services.transactions.confirm(context, callerOf(res), ref);
    return hubOk();
  });

  mount(router, hubRoutes.paymentMethods, [auth], async (req, res) => {
    const parsed = paymentMethodsQuery.safeParse(req.query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issueField(issue);
      throw invalid(issueMessage(issue, field), field);
    }
    const { amount, currency } = parsed.data;
    const caller = callerOf(res);
    // With a user named, each method lists the user's saved cards for it (an addition to the seed).
    const miniAppUserId = optionalHeader(req, 'X-MiniApp-User-ID');
    const saved =
      miniAppUserId === undefined
        ? undefined
        : await services.savedMethods.list(caller, await services.savedMethods.user(miniAppUserId));
    const items = await services.paymentMethods.list(caller, amount, currency, languageOf(req), saved);
    return json(200, { items: items.map(paymentMethodJson) });
  });

  mount(router, hubRoutes.savedMethods, [auth], async (req, res) => {
    const userId = await services.savedMethods.user(requiredHeader(req, 'X-MiniApp-User-ID'));
    const items = await services.savedMethods.list(callerOf(res), userId);
    return hubOk({ items: items.map(savedMethodJson) });
  });

  mount(router, hubRoutes.removeSavedMethod, withBody, async (req, res) => {
    const body = parseBody(removeSavedMethodBody, req);
    const { requestId, timestamp } = signedHeaders(services, req);
    const miniAppUserId = requiredHeader(req, 'X-MiniApp-User-ID');
    await services.signatures.verify(
      callerOf(res),
      removeSavedMethodSigningString(body.userPaymentMethodId, miniAppUserId, timestamp),
      body.secureHash,
    );
    const userId = await services.savedMethods.user(miniAppUserId);
    await services.savedMethods.remove(commandOf(req, res, requestId), callerOf(res), userId, body.userPaymentMethodId);
    return hubOk();
  });

  // Refunds and snapshots (docs/payments-refunds.md), with this router's key check, parsing and signed headers.
  mountRefundRoutes(router, {
    services,
    withBody,
    parseBody,
    signedHeaders: (req) => signedHeaders(services, req),
    commandOf,
    optionalHeader,
    requiredHeader,
    callerOf,
  });
  // Payment sessions (docs/payments-sessions.md).
  mountSessionRoutes(router, { services, auth, withBody });

  router.use(unknownEndpoint(hubErrors));
  router.use(interfaceErrorHandler(hubErrors, deps.logger));
  return router;
}
