/**
 * The promotion checkout's API: its interface under /loyalty/v1/promotion (behind the gateway), its operator
 * endpoints and their OpenAPI. The only file of api/checkout the composition root imports (docs/conventions.md,
 * "Modules").
 */
import type { CheckoutServices } from '../../application/checkout/index.js';
import type { ContextApi } from '../shared/context-api.js';
import { registerCheckoutOpenApi } from './checkout-openapi.js';
import { checkoutRouter } from './checkout-router.js';
import { checkoutBasePath } from './checkout-routes.js';
import { checkoutGatewayFront } from './gateway-front.js';
import { registerCheckoutOperatorOpenApi } from './operator-openapi.js';
import { checkoutOperatorRouter } from './operator-router.js';

export { checkoutOperatorRouter } from './operator-router.js';

export const checkoutApi: ContextApi<CheckoutServices> = {
  interfaces: (s, { logger }) => [
    {
      path: checkoutBasePath,
      gateway: checkoutGatewayFront,
      router: checkoutRouter({ services: s, merchantKeys: s.merchantKeys, logger }),
    },
  ],
  operatorRouter: (s, { logger }) =>
    checkoutOperatorRouter({ logger, promotionMasters: s.promotionMasters, wallet: s.wallet }),
  openApi: [registerCheckoutOpenApi, registerCheckoutOperatorOpenApi],
  description: [
    'The promotion checkout (`/loyalty/v1/promotion/...`, spec part B) behind the gateway, and its operator endpoints (`/operator/v1/promotion-masters`, `/operator/v1/issued-promotions`).',
    'Checkout answers are `{code, message, data}` with `code` "0" on success and the seed\'s 8001 to 8012, 8500, 8501 otherwise; fields are snake_case. Details: docs/checkout.md.',
  ].join('\n\n'),
};
