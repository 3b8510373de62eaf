/** The checkout's operator routes (operator-routes.ts, which operator-router.ts mounts) in the OpenAPI document. */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerOperatorRoutes } from '../shared/operator-openapi.js';
import { checkoutOperatorRoutes, issuedPromotionsTag, promotionMastersTag } from './operator-routes.js';

export function registerCheckoutOperatorOpenApi({ registry, tag }: OpenApiRegistrar): void {
  tag(promotionMastersTag, 'Promotion masters of the promotion checkout: the definitions issued promotions follow');
  tag(issuedPromotionsTag, "Promotions in users' wallets: issue, read, cancel");
  registerOperatorRoutes(registry, checkoutOperatorRoutes);
}
