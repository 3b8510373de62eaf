/**
 * The order view's API: its interface under /order/cov behind the gateway, its operator endpoints and their OpenAPI.
 * The only file of api/orders the composition root imports (docs/conventions.md, "Modules").
 */
import type { OrdersServices } from '../../application/orders/index.js';
import type { ContextApi } from '../shared/context-api.js';
import { ordersGateway } from './gateway.js';
import { registerOrdersOpenApi } from './openapi.js';
import { ordersOperatorRouter } from './operator-router.js';
import { orderPortalRouter } from './portal-router.js';
import { Router } from 'express';
import { ordersBasePath, ordersRouter } from './router.js';

export { ordersOperatorRouter } from './operator-router.js';
export { orderPortalRouter } from './portal-router.js';

export const ordersApi: ContextApi<OrdersServices> = {
  interfaces: (s, { logger }) => [
    { path: ordersBasePath, router: ordersRouter({ ...s, logger }), gateway: ordersGateway },
  ],
  operatorRouter: (s, { logger }) =>
    Router().use(
      ordersOperatorRouter({ logger, merchants: s.merchants }),
      orderPortalRouter({ logger, queries: s.queries }),
    ),
  openApi: [registerOrdersOpenApi],
  description:
    "The central order view (`/order/cov`): the signed webhooks order.created, order.updated and order.cancelled from the business units, answered `{code, message, data}` with a numeric `code` (0 on success); the customer app's orders under `/order/cov/app/v1/orders` (bearer access token); its merchants and webhook keys under `/operator/v1/order-merchants`, the portal's orders and daily statistics under `/operator/v1/orders` (read models: eventually consistent). Details: docs/orders.md.",
};
