/**
 * The order view in the OpenAPI document: its interface's routes (/order/cov) and its operator routes. The gateway's
 * client_id/client_secret schemes are the document's `clientId` and `clientSecret`.
 */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerOperatorRoutes } from '../shared/operator-openapi.js';
import { registerRoutes } from '../shared/route-spec.js';
import { customerRoutes, customerTag } from './customer-routes.js';
import { orderMerchantsTag, ordersOperatorRoutes } from './operator-routes.js';
import { portalRoutes, portalTag } from './portal-routes.js';
import { ordersBasePath, webhookRoutes, webhooksTag } from './webhook-routes.js';

export function registerOrdersOpenApi(api: OpenApiRegistrar): void {
  api.tag(
    webhooksTag,
    'order.created, order.updated, order.cancelled from the business units, signed (docs/orders-signing.md)',
  );
  api.tag(orderMerchantsTag, 'Merchants of the order view and the webhook keys they sign with');
  api.tag(customerTag, "The customer app's orders: the token's user's own, from the read models");
  api.tag(portalTag, "The internal portal's orders and analysts' daily statistics, from the read models");
  registerRoutes(api.registry, ordersBasePath, [...Object.values(webhookRoutes), ...Object.values(customerRoutes)]);
  registerOperatorRoutes(api.registry, ordersOperatorRoutes);
  registerOperatorRoutes(api.registry, portalRoutes);
}
