/**
 * The order view's API: its interface under /order/cov behind the gateway, its operator endpoints and their OpenAPI.
 * The only file of api/orders the composition root imports (docs/conventions.md, "Modules").
 */
import type { OrdersServices } from '../../application/orders/index.js';
import type { ContextApi } from '../shared/context-api.js';
import { ordersGateway } from './gateway.js';
import { registerOrdersOpenApi } from './openapi.js';
import { ordersOperatorRouter } from './operator-router.js';
import { ordersBasePath, ordersRouter } from './router.js';

export { ordersOperatorRouter } from './operator-router.js';

export const ordersApi: ContextApi<OrdersServices> = {
  interfaces: (s, { logger }) => [
    { path: ordersBasePath, router: ordersRouter({ ...s, logger }), gateway: ordersGateway },
  ],
  operatorRouter: (s, { logger }) => ordersOperatorRouter({ logger, merchants: s.merchants }),
  openApi: [registerOrdersOpenApi],
  description:
    'The central order view (`/order/cov`): the signed webhooks order.created, order.updated and order.cancelled from the business units, answered `{code, message, data}` with a numeric `code` (0 on success); its merchants and webhook keys under `/operator/v1/order-merchants`. Details: docs/orders.md.',
};
