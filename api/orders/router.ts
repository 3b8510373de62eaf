/**
 * The order view interface (docs/orders.md) under /order/cov: the webhooks, then its 404 and its error envelope.
 */
import { Router } from 'express';
import type { OrdersServices, WebhookErrorCode } from '../../application/orders/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { interfaceErrorHandler, unknownEndpoint } from '../shared/interface-errors.js';
import { ordersErrors, webhookErrorTable } from './errors.js';
import { mountWebhooks } from './webhook-router.js';

export { ordersBasePath } from './webhook-routes.js';

export function ordersRouter(deps: OrdersServices & { logger: Logger }): Router {
  const router = Router();
  mountWebhooks(router, deps);
  const errors = ordersErrors<WebhookErrorCode>('orders', webhookErrorTable);
  router.use(unknownEndpoint(errors));
  router.use(interfaceErrorHandler(errors, deps.logger));
  return router;
}
