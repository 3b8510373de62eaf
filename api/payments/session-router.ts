/**
 * The payment sessions' handlers (docs/payments-sessions.md), mounted inside the hub's router (hub-router.ts) so they
 * share its key check, its signed-request checks, its X-Request-ID replay and its error table.
 */
import type { Router, RequestHandler } from 'express';
import {
  sessionCancelSigningString,
  sessionCreateSigningString,
  type PaymentSessionReference,
  type PaymentsServices,
} from '../../application/payments/index.js';
import { HttpError } from '../shared/interface-errors.js';
import { mount } from '../shared/route-spec.js';
import { hubOk } from './hub-errors.js';
import { callerOf, commandOf, parseBody, signedHeaders } from './hub-router.js';
import { paymentSessionJson } from './session-json.js';
import { sessionRoutes } from './session-routes.js';
import { cancelSessionBody, createSessionBody, sessionLookupQuery } from './session-schemas.js';

const referenceOf = (b: {
  paymentSessionId?: string;
  orderId?: string;
  referenceId?: string;
}): PaymentSessionReference =>
  b.paymentSessionId !== undefined
    ? { paymentSessionId: b.paymentSessionId.toLowerCase() }
    : { orderId: b.orderId!, referenceId: b.referenceId! };

export function mountSessionRoutes(
  router: Router,
  deps: { services: PaymentsServices; auth: RequestHandler; withBody: RequestHandler[] },
): void {
  const { services, auth, withBody } = deps;

  mount(router, sessionRoutes.createSession, withBody, async (req, res) => {
    const caller = callerOf(res);
    const body = parseBody(createSessionBody, req);
    const { requestId } = signedHeaders(services, req);
    await services.signatures.verify(caller, sessionCreateSigningString(body), body.secureHash);
    const { secureHash: _hash, ...fields } = body;
    const session = await services.sessions.create(commandOf(req, res, requestId), caller, {
      ...fields,
      originalAmount: Math.trunc(body.originalAmount),
    });
    return hubOk(paymentSessionJson(session));
  });

  mount(router, sessionRoutes.getSession, [auth], async (req, res) => {
    const parsed = sessionLookupQuery.safeParse(req.query);
    if (!parsed.success) throw new HttpError(400, '4001', 'send paymentSessionId (a UUID), or orderId and referenceId');
    const session = await services.sessions.find(callerOf(res), referenceOf(parsed.data));
    return hubOk(paymentSessionJson(session));
  });

  mount(router, sessionRoutes.cancelSession, withBody, async (req, res) => {
    const body = parseBody(cancelSessionBody, req);
    const { requestId, timestamp } = signedHeaders(services, req);
    // paymentSessionId wins: signed as sent (any case), looked up in lower case.
    const signedRef =
      body.paymentSessionId !== undefined ? { paymentSessionId: body.paymentSessionId } : referenceOf(body);
    await services.signatures.verify(callerOf(res), sessionCancelSigningString(signedRef, timestamp), body.secureHash);
    const session = await services.sessions.cancel(commandOf(req, res, requestId), callerOf(res), referenceOf(body), {
      reason: body.reason ?? null,
      requestedBy: body.requestedBy ?? null,
    });
    return hubOk(paymentSessionJson(session));
  });
}
