/**
 * The order view interface (docs/orders.md) under /order/cov: the webhooks and the customer app's queries, then its
 * 404 and its error envelope.
 */
import { Router } from 'express';
import type { OrderQueryErrorCode, OrdersServices, WebhookErrorCode } from '../../application/orders/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { rawJson } from '../shared/route.js';
import { interfaceErrorHandler, unknownEndpoint, type ErrorTable } from '../shared/interface-errors.js';
import { mount } from '../shared/route-spec.js';
import { customerAuth, customerOf } from './customer-auth.js';
import { customerRoutes } from './customer-routes.js';
import { ordersOk } from './envelope.js';
import { orderQueryErrorTable, ordersCodes, ordersErrors, webhookErrorTable } from './errors.js';
import { detailBytes, pageJson } from './order-json.js';
import { queryOf } from './query-params.js';
import { customerListQuery } from './query-schemas.js';
import { mountWebhooks } from './webhook-router.js';

export { ordersBasePath } from './webhook-routes.js';

const table: ErrorTable<WebhookErrorCode | OrderQueryErrorCode> = { ...webhookErrorTable, ...orderQueryErrorTable };

export function ordersRouter(deps: OrdersServices & { logger: Logger }): Router {
  const router = Router();
  const errors = ordersErrors('orders', table);
  mountWebhooks(router, deps, errors);

  const auth = customerAuth(deps.accessTokens, deps.customerAccess);
  mount(router, customerRoutes.myOrders, [auth], async (req, res) => {
    const q = queryOf(customerListQuery, req, [400, ordersCodes.invalidRequest]);
    const page = await deps.queries.myOrders(
      customerOf(res),
      { status: q.status, orderType: q.order_type },
      { page: q.page, size: q.size, ...(q.after && { after: q.after }) },
    );
    return ordersOk(pageJson(page, q.page, q.size));
  });
  mount(router, customerRoutes.myOrder, [auth], async (req, res) => {
    const order = await deps.queries.myOrder(customerOf(res), req.params.merchantId!, req.params.orderId!);
    return rawJson(detailBytes(order, (data) => ({ code: 0, message: 'Success', data })));
  });

  router.use(unknownEndpoint(errors));
  router.use(interfaceErrorHandler(errors, deps.logger));
  return router;
}
