/**
 * The checkout's operator endpoints (/operator/v1): promotion masters. Each write runs one command as the
 * authenticated operator (commandOf). Fields and codes: docs/checkout.md.
 */
import { Router } from 'express';
import type { CheckoutServices } from '../../application/checkout/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { interfaceErrorHandler } from '../shared/interface-errors.js';
import { body, commandOf, numericParam, ok } from '../shared/operator-api.js';
import { on } from '../shared/route.js';
import { checkoutOperatorErrors } from './operator-http.js';
import { createPromotionMasterBody, promotionMasterJson } from './operator-schemas.js';

export function checkoutOperatorRouter(deps: Pick<CheckoutServices, 'promotionMasters'> & { logger: Logger }): Router {
  const { promotionMasters } = deps;
  const router = Router();

  router.post(
    '/promotion-masters',
    on(async (req, res) => {
      const definition = body(createPromotionMasterBody, req);
      return ok(promotionMasterJson(await promotionMasters.create(commandOf(req, res), definition)), 201);
    }),
  );
  router.get(
    '/promotion-masters/:promotionMasterId',
    on(async (req) => ok(promotionMasterJson(await promotionMasters.get(numericParam(req, 'promotionMasterId'))))),
  );

  // Its domain errors through the checkout's table; a path none of its routes take goes on to the next router.
  router.use(interfaceErrorHandler(checkoutOperatorErrors, deps.logger));
  return router;
}
