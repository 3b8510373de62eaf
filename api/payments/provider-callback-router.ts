/**
 * Providers' callbacks (/payment-providers/v1/{providerCode}/callbacks; docs/payments.md, "Providers"): no gateway in
 * front (providers are not gateway parties, said so in docs/gateway.md's sense of a public surface), authenticated by
 * the provider's signature over the raw body, checked before the body is even parsed.
 */
import { Router, type Request } from 'express';
import type { z } from 'zod';
import type { PaymentsServices, ProviderResultErrorCode } from '../../application/payments/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { interfaceErrorHandler, unknownEndpoint, type InterfaceErrors } from '../shared/interface-errors.js';
import { interfaceBody } from '../shared/interface-body.js';
import { json } from '../shared/route.js';
import { mount } from '../shared/route-spec.js';
import {
  providerCallbackBody,
  providerCallbackRoutes,
  providerRefundCallbackBody,
  providerRefundCallbackRoutes,
} from './provider-routes.js';

export const providerCallbackErrors: InterfaceErrors<ProviderResultErrorCode> = {
  name: 'provider callbacks',
  table: {
    TRANSACTION_NOT_FOUND: [404, 'NOT_FOUND'],
    TRANSACTION_NOT_PROCESSABLE: [409, 'NOT_PROCESSABLE'],
    INVALID_PROVIDER_CALLBACK: [401, 'INVALID_SIGNATURE'],
  },
  malformed: { invalid: 'INVALID', tooLarge: 'INVALID', unsupportedMediaType: 'INVALID' },
  unknownEndpoint: 'NOT_FOUND',
  internal: { code: 'INTERNAL', message: 'internal error' },
  send: (res, status, code, message) => res.status(status).json({ code, message }),
};

/** A callback is a handful of fields (api/payments/provider-routes.ts); signed, but bounded all the same. */
const callbackBodyBudget = { members: 200, elements: 200 };

export function providerCallbackRouter(deps: { services: PaymentsServices; logger: Logger }): Router {
  const { providerCallbacks } = deps.services;
  const router = Router();
  // The raw bytes, for the signature over them; then JSON within the budget, read by the route's schema.
  const callbackBody = interfaceBody(providerCallbackErrors, { limit: '32kb', raw: true, budget: callbackBodyBudget });
  const raw = callbackBody.parsers;

  mount(router, providerCallbackRoutes.callback, raw, async (req) => {
    const { providerCode, body } = verifiedCallback(req, providerCallbackBody);
    const t = await providerCallbacks.apply(providerCode, body);
    return json(200, { code: 'OK', status: t.status });
  });

  // A refund's result (docs/payments-refunds.md): verified the same way, applied to the transaction's refund ledger.
  mount(router, providerRefundCallbackRoutes.refundCallback, raw, async (req) => {
    const { providerCode, body } = verifiedCallback(req, providerRefundCallbackBody);
    const refund = await deps.services.refundCallbacks.apply(providerCode, body);
    return json(200, { code: 'OK', status: refund.status });
  });

  /** The provider's signature over the raw body checked first, then the body parsed as JSON and read by `schema`. */
  function verifiedCallback<S extends z.ZodTypeAny>(
    req: Request,
    schema: S,
  ): { providerCode: string; body: z.output<S> } {
    const providerCode = req.params.providerCode ?? '';
    const text = callbackBody.text(req);
    providerCallbacks.verify(providerCode, text, req.header('x-provider-signature'));
    return { providerCode, body: callbackBody.parseText(schema, text) };
  }

  router.use(unknownEndpoint(providerCallbackErrors));
  router.use(interfaceErrorHandler(providerCallbackErrors, deps.logger));
  return router;
}
