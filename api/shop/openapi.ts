/**
 * The shop interface (/api/v1) in the OpenAPI document: its credentials and the routes of its route tables, which its
 * routers mount (catalog-routes.ts, purchase-routes.ts).
 */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerRoutes } from '../shared/route-spec.js';
import { catalogRoutes } from './catalog-routes.js';
import { purchaseRoutes } from './purchase-routes.js';
import { shopBasePath } from './router.js';

/** The shop's own credential headers (auth.ts), as security schemes; the gateway's (clientId, clientSecret) are api/gateway's. */
function registerShopSecurity({ registry }: OpenApiRegistrar): void {
  const header = (name: string, description: string) => ({
    type: 'apiKey' as const,
    in: 'header' as const,
    name,
    description,
  });
  registry.registerComponent(
    'securitySchemes',
    'promotionApiKey',
    header('X-Promotion-Api-Key', "the merchant's API key, issued by the operator API"),
  );
  registry.registerComponent('securitySchemes', 'merchantId', header('X-Merchant-Id', "the key's merchant"));
}

export function registerShopOpenApi(api: OpenApiRegistrar): void {
  registerShopSecurity(api);
  api.tag('Shop: catalog', 'Endpoints 1 to 6 of the shop interface');
  api.tag('Shop: purchase', 'Endpoints 7 to 10 of the shop interface');
  registerRoutes(api.registry, shopBasePath, Object.values(catalogRoutes));
  registerRoutes(api.registry, shopBasePath, Object.values(purchaseRoutes));
}
