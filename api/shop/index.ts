/**
 * The voucher shop's API: the shop interface under /api/v1, its operator endpoints and their OpenAPI. The only
 * file of api/shop the composition root imports (docs/conventions.md, "Modules").
 */
import type { ShopServices } from '../../application/shop/index.js';
import type { ContextApi } from '../shared/context-api.js';
import { catalogRouter } from './catalog-router.js';
import { shopGatewayFront } from './gateway-front.js';
import { registerShopOpenApi } from './openapi.js';
import { registerShopOperatorOpenApi } from './operator-openapi.js';
import { operatorRouter } from './operator-router.js';
import { purchaseRouter } from './purchase-router.js';
import { shopBasePath, shopRouter } from './router.js';
import { searchRouter } from './search-router.js';

export const shopApi: ContextApi<ShopServices> = {
  interfaces: (s, { logger }) => [
    {
      path: shopBasePath,
      gateway: shopGatewayFront,
      router: shopRouter({
        logger,
        routers: [
          purchaseRouter({ purchases: s.purchases, credentials: s.credentials }),
          searchRouter({ search: s.search, credentials: s.credentials }),
          catalogRouter({ catalog: s.catalog, credentials: s.credentials }),
        ],
      }),
    },
  ],
  operatorRouter: (s, { logger }) =>
    operatorRouter({
      logger,
      merchants: s.merchants,
      campaigns: s.campaigns,
      categories: s.categories,
      pools: s.pools,
    }),
  openApi: [registerShopOpenApi, registerShopOperatorOpenApi],
  description: [
    'The voucher shop (`/api/v1`) and its operator endpoints (`/operator/v1`).',
    'Every answer is the envelope `{code, message, data}`: `SUCCESS`/`Success` on success; on failure `data` is null (the operator API puts the offending field in `data.field`) and `message` says what was wrong.',
    'Amounts are integers in minor units; times are ISO 8601. Details and the resolved contradictions of the spec: docs/shop-api.md.',
  ].join('\n\n'),
};
