/**
 * The promotion checkout's API: its operator endpoints and their OpenAPI; its own interface (v1/promotion/...) comes
 * with issue 14. The only file of api/checkout the composition root imports (docs/conventions.md, "Modules").
 */
import type { CheckoutServices } from '../../application/checkout/index.js';
import type { ContextApi } from '../shared/context-api.js';
import { registerCheckoutOperatorOpenApi } from './operator-openapi.js';
import { checkoutOperatorRouter } from './operator-router.js';

export { checkoutOperatorRouter } from './operator-router.js';

export const checkoutApi: ContextApi<CheckoutServices> = {
  interfaces: () => [],
  operatorRouter: (s, { logger }) => checkoutOperatorRouter({ logger, promotionMasters: s.promotionMasters }),
  openApi: [registerCheckoutOperatorOpenApi],
  description:
    "The promotion checkout: so far its operator endpoints for promotion masters (`/operator/v1/promotion-masters`), in the checkout interface's snake_case. Details: docs/checkout.md.",
};
