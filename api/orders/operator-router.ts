/**
 * The order view's operator endpoints (/operator/v1): merchants and their webhook keys (routes in
 * operator-routes.ts). Each write runs one command as the authenticated operator (commandOf). docs/orders-keys.md.
 */
import { Router, type Request } from 'express';
import type { OrdersServices } from '../../application/orders/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { HttpError, interfaceErrorHandler } from '../shared/interface-errors.js';
import { body, commandOf, numericParam, ok } from '../shared/operator-api.js';
import { mount } from '../shared/route-spec.js';
import { ordersOperatorErrors } from './operator-http.js';
import { ordersOperatorRoutes as routes } from './operator-routes.js';
import {
  issuedKeyJson,
  issueKeyBody,
  merchantIdForm,
  orderKeyJson,
  orderMerchantJson,
  registerMerchantBody,
  rotateKeyBody,
} from './operator-schemas.js';

const merchantOf = (req: Request): string => {
  const merchantId = req.params.merchantId ?? '';
  if (!merchantIdForm.test(merchantId))
    throw new HttpError(400, 'OPS-REQ-001', 'merchantId must be 1 to 64 letters, digits or "_"');
  return merchantId;
};

export function ordersOperatorRouter(deps: Pick<OrdersServices, 'merchants'> & { logger: Logger }): Router {
  const { merchants } = deps;
  const router = Router();

  mount(router, routes.registerMerchant, [], async (req, res) =>
    ok(orderMerchantJson(await merchants.register(commandOf(req, res), body(registerMerchantBody, req))), 201),
  );
  mount(router, routes.getMerchant, [], async (req) => ok(orderMerchantJson(await merchants.get(merchantOf(req)))));
  mount(router, routes.issueKey, [], async (req, res) => {
    const merchantId = merchantOf(req);
    const { environment } = body(issueKeyBody, req);
    return ok(issuedKeyJson(await merchants.issue(commandOf(req, res), merchantId, environment)), 201);
  });
  mount(router, routes.rotateKey, [], async (req, res) => {
    const merchantId = merchantOf(req);
    const keyId = numericParam(req, 'keyId');
    const { overlap_hours } = body(rotateKeyBody, req);
    const overlapMs = overlap_hours === undefined ? undefined : overlap_hours * 3_600_000;
    return ok(issuedKeyJson(await merchants.rotate(commandOf(req, res), merchantId, keyId, overlapMs)), 201);
  });
  mount(router, routes.revokeKey, [], async (req, res) => {
    const merchantId = merchantOf(req);
    const keyId = numericParam(req, 'keyId');
    return ok(orderKeyJson(await merchants.revoke(commandOf(req, res), merchantId, keyId)));
  });

  router.use(interfaceErrorHandler(ordersOperatorErrors, deps.logger));
  return router;
}
