/** The checkout interface (/loyalty/v1/promotion) in the OpenAPI document: the routes checkout-router.ts mounts. */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerRoutes } from '../shared/route-spec.js';
import { checkoutBasePath, checkoutRoutes } from './checkout-routes.js';

export function registerCheckoutOpenApi(api: OpenApiRegistrar): void {
  api.tag('Checkout', 'The promotion checkout (spec part B), behind the gateway: applicable to refund');
  registerRoutes(api.registry, checkoutBasePath, Object.values(checkoutRoutes));
}
