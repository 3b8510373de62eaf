/**
 * The shop's operator routes (operator-routes.ts, which operator-router.ts mounts) in the OpenAPI document, under
 * their tags.
 */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerOperatorRoutes } from '../shared/operator-openapi.js';
import { operatorTags, shopOperatorRoutes } from './operator-routes.js';

export function registerShopOperatorOpenApi(api: OpenApiRegistrar): void {
  api.tag(operatorTags.merchants, 'Merchants and their API keys');
  api.tag(operatorTags.campaigns);
  api.tag(operatorTags.pools);
  api.tag(operatorTags.categories);
  registerOperatorRoutes(api.registry, shopOperatorRoutes);
}
