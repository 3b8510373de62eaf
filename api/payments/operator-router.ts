/**
 * The payment hub's onboarding endpoints in the operator API (routes in operator-routes.ts). Each write runs one
 * command as the authenticated operator (commandOf), recorded as the actor and in the audit fields. Codes and
 * fields: docs/payments.md, "Onboarding".
 */
import { Router, type Request } from 'express';
import type { OnboardingErrorCode, PaymentsServices } from '../../application/payments/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { HttpError, interfaceErrorHandler } from '../shared/interface-errors.js';
import { body, commandOf, ok, operatorErrors, operatorStatus } from '../shared/operator-api.js';
import type { RouteHandler } from '../shared/route.js';
import { mount, type RouteSpec } from '../shared/route-spec.js';
import { paymentsOperatorRoutes as routes } from './operator-routes.js';
import {
  addTerminalBody,
  changeIpnBody,
  codePattern,
  issuePaymentApiKeyBody,
  merchantJson,
  methodCodePattern,
  methodConfigOf,
  onboardMerchantBody,
  paymentMethodBody,
  rotateSecretBody,
  transactionListQuery,
} from './operator-schemas.js';
import { issueField, issueMessage, uuidPattern } from '../shared/validation.js';
import { ipnAttemptQuery, ipnNotificationQuery, paymentIpnRoutes } from './ipn-operator-routes.js';
import type { z } from 'zod';

/** A query parsed by its schema, or the operator API's 400 naming the field. */
function query<T extends z.ZodTypeAny>(schema: T, req: Request): z.infer<T> {
  const parsed = schema.safeParse(req.query);
  if (parsed.success) return parsed.data as z.infer<T>;
  const issue = parsed.error.issues[0]!;
  const field = issueField(issue);
  throw new HttpError(400, 'OPS-REQ-001', issueMessage(issue, field), { field });
}

const { invalid, notFound, conflict } = operatorStatus;

export const paymentsOperatorErrors = operatorErrors<OnboardingErrorCode>('payments operator', {
  INVALID_PAYMENT_SETUP: invalid,
  PAYMENT_MERCHANT_NOT_FOUND: notFound,
  PAYMENT_MERCHANT_EXISTS: conflict,
  TERMINAL_NOT_FOUND: notFound,
  TERMINAL_EXISTS: conflict,
  PAYMENT_API_KEY_NOT_FOUND: notFound,
  IPN_NOTIFICATION_NOT_FOUND: notFound,
  CREDENTIAL_SHOWN_ONCE: conflict,
  IDEMPOTENCY_KEY_REUSED: conflict,
});

function param(req: Request, name: string, pattern = codePattern): string {
  const value = req.params[name] ?? '';
  if (!pattern.test(value)) throw new HttpError(400, 'OPS-REQ-001', `${name} is not a valid code`, { field: name });
  return value;
}

export function paymentsOperatorRouter(deps: { services: PaymentsServices; logger: Logger }): Router {
  const { onboarding } = deps.services;
  const router = Router();
  const route = (spec: RouteSpec, handler: RouteHandler) => mount(router, spec, [], handler);
  const merchantOf = (req: Request) => param(req, 'merchantCode');

  route(routes.onboard, async (req, res) => {
    const { merchant, secret } = await onboarding.onboard(commandOf(req, res), body(onboardMerchantBody, req));
    return ok({ ...merchantJson(merchant), secretKey: secret.secretKey, secretId: secret.secretId }, 201);
  });
  route(routes.get, async (req) => ok(merchantJson(await onboarding.get(merchantOf(req)))));
  route(routes.changeIpn, async (req, res) => {
    const code = merchantOf(req);
    return ok(merchantJson(await onboarding.changeIpn(commandOf(req, res), code, body(changeIpnBody, req))));
  });
  route(routes.rotateSecret, async (req, res) => {
    const code = merchantOf(req);
    const { overlapSeconds } = body(rotateSecretBody, req);
    return ok(await onboarding.rotateSecret(commandOf(req, res), code, overlapSeconds), 201);
  });
  route(routes.addTerminal, async (req, res) => {
    const code = merchantOf(req);
    return ok(merchantJson(await onboarding.addTerminal(commandOf(req, res), code, body(addTerminalBody, req))), 201);
  });
  route(routes.issueApiKey, async (req, res) => {
    const code = merchantOf(req);
    const terminalId = param(req, 'terminalId');
    const input = body(issuePaymentApiKeyBody, req);
    return ok(await onboarding.issueApiKey(commandOf(req, res), code, terminalId, input), 201);
  });
  route(routes.revokeApiKey, async (req, res) => {
    const code = merchantOf(req);
    const terminalId = param(req, 'terminalId');
    const apiKeyId = param(req, 'apiKeyId', /^[0-9a-f-]{36}$/);
    return ok(merchantJson(await onboarding.revokeApiKey(commandOf(req, res), code, terminalId, apiKeyId)));
  });
  route(routes.configureMethod, async (req, res) => {
    const code = merchantOf(req);
    const terminalId = param(req, 'terminalId');
    const methodCode = param(req, 'methodCode', methodCodePattern);
    const config = methodConfigOf(methodCode, body(paymentMethodBody, req));
    return ok(merchantJson(await onboarding.configureMethod(commandOf(req, res), code, terminalId, config)));
  });

  const listing = deps.services.transactionListing;
  if (listing)
    route(routes.listTransactions, async (req) => {
      const code = merchantOf(req);
      const { status, terminalId, limit } = query(transactionListQuery, req);
      await onboarding.get(code); // an unknown merchant is a 404, not an empty list
      return ok({ items: await listing.list(code, { status, terminalId, limit: limit ?? 50 }) });
    });

  const ipn = deps.services.ipn;
  if (ipn) {
    route(paymentIpnRoutes.listNotifications, async (req) => {
      const code = merchantOf(req);
      const { status, transactionId, limit } = query(ipnNotificationQuery, req);
      return ok({ items: await ipn.list(code, { status, transactionId, limit: limit ?? 50 }) });
    });
    route(paymentIpnRoutes.listAttempts, async (req) => {
      const code = merchantOf(req);
      const { transactionId, notificationId, limit } = query(ipnAttemptQuery, req);
      return ok({ items: await ipn.attempts(code, { transactionId, notificationId, limit: limit ?? 50 }) });
    });
    route(paymentIpnRoutes.resendExhausted, async (req, res) =>
      ok(await ipn.resendExhausted(commandOf(req, res), merchantOf(req))),
    );
    route(paymentIpnRoutes.resend, async (req, res) => {
      const code = merchantOf(req);
      const notificationId = param(req, 'notificationId', uuidPattern);
      return ok(await ipn.resend(commandOf(req, res), code, notificationId));
    });
  }

  router.use(interfaceErrorHandler(paymentsOperatorErrors, deps.logger));
  return router;
}
