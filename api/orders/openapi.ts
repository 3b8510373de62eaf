/**
 * The order view in the OpenAPI document: its interface's routes (/order/cov) and its operator routes. The gateway's
 * client_id/client_secret schemes are the document's `clientId` and `clientSecret`.
 */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerOperatorRoutes } from '../shared/operator-openapi.js';
import { registerRoutes } from '../shared/route-spec.js';
import { orderMerchantsTag, ordersOperatorRoutes } from './operator-routes.js';
import { ordersBasePath, webhookRoutes, webhooksTag } from './webhook-routes.js';

export function registerOrdersOpenApi(api: OpenApiRegistrar): void {
  api.tag(
    webhooksTag,
    'order.created, order.updated, order.cancelled from the business units, signed (docs/orders.md)',
  );
  api.tag(orderMerchantsTag, 'Merchants of the order view and the webhook keys they sign with');
  registerRoutes(api.registry, ordersBasePath, Object.values(webhookRoutes));
  registerOperatorRoutes(api.registry, ordersOperatorRoutes);
}
