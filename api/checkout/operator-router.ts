/**
 * The checkout's operator endpoints (/operator/v1): promotion masters (routes in operator-routes.ts). Each write runs
 * one command as the authenticated operator (commandOf). Fields and codes: docs/checkout.md.
 */
import { Router } from 'express';
import type { CheckoutServices } from '../../application/checkout/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { interfaceErrorHandler } from '../shared/interface-errors.js';
import { body, commandOf, numericParam, ok } from '../shared/operator-api.js';
import { mount } from '../shared/route-spec.js';
import { checkoutOperatorErrors } from './operator-http.js';
import { checkoutOperatorRoutes as routes } from './operator-routes.js';
import { createPromotionMasterBody, promotionMasterJson, promotionMasterStatusBody } from './operator-schemas.js';
import { cancelBody, issuePromotionsBody, issuedJson, issuedPromotionJson } from './operator-wallet-schemas.js';

export function checkoutOperatorRouter(
  deps: Pick<CheckoutServices, 'promotionMasters' | 'wallet'> & { logger: Logger },
): Router {
  const { promotionMasters, wallet } = deps;
  const router = Router();

  // Authentication and JSON bodies are the operator API's (operatorApi), before every context's router.
  mount(router, routes.createPromotionMaster, [], async (req, res) => {
    const definition = body(createPromotionMasterBody, req);
    return ok(promotionMasterJson(await promotionMasters.create(commandOf(req, res), definition)), 201);
  });
  mount(router, routes.getPromotionMaster, [], async (req) =>
    ok(promotionMasterJson(await promotionMasters.get(numericParam(req, 'promotionMasterId')))),
  );

  mount(router, routes.changePromotionMasterStatus, [], async (req, res) => {
    const { status } = body(promotionMasterStatusBody, req);
    const id = numericParam(req, 'promotionMasterId');
    return ok(promotionMasterJson(await promotionMasters.changeStatus(commandOf(req, res), id, status)));
  });
  mount(router, routes.issuePromotions, [], async (req, res) => {
    const recipients = body(issuePromotionsBody, req);
    const id = numericParam(req, 'promotionMasterId');
    return ok(issuedJson(id, await wallet.issue(commandOf(req, res), id, recipients)), 201);
  });
  mount(router, routes.getIssuedPromotion, [], async (req) =>
    ok(issuedPromotionJson(await wallet.get(numericParam(req, 'promotionId')))),
  );
  mount(router, routes.cancelIssuedPromotion, [], async (req, res) => {
    body(cancelBody, req);
    const id = numericParam(req, 'promotionId');
    await wallet.cancel(commandOf(req, res), id);
    return ok(issuedPromotionJson(await wallet.get(id)));
  });

  // Its domain errors through the checkout's table; a path none of its routes take goes on to the next router.
  router.use(interfaceErrorHandler(checkoutOperatorErrors, deps.logger));
  return router;
}
