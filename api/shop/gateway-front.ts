/**
 * The shop interface as the gateway in front of it sees it (api/shared/gateway-front.ts; docs/gateway.md and
 * docs/shop-api.md, "Headers and authentication"): its routes (each a rate-limited endpoint), the `env` header checked
 * only when sent (the shop's header list does not name it), and its codes for the gateway's refusals.
 */
import type { GatewayFront } from '../shared/gateway-front.js';
import { catalogRoutes } from './catalog-routes.js';
import { sendShopError } from './envelope.js';
import { shopErrors } from './error-mapping.js';
import { purchaseRoutes } from './purchase-routes.js';

export const shopGatewayFront: GatewayFront = {
  interface: 'shop',
  envHeader: 'optional',
  userHeader: 'X-User-Id',
  routes: [...Object.values(catalogRoutes), ...Object.values(purchaseRoutes)],
  refusals: {
    CREDENTIALS_MISSING: [401, 'SHOP-AUTH-001'],
    CREDENTIALS_INVALID: [401, 'SHOP-AUTH-001'],
    // The shop never requires `env`; were it required, a missing header is a missing header.
    ENVIRONMENT_MISSING: [400, 'SHOP-REQ-001'],
    ENVIRONMENT_MISMATCH: [403, 'SHOP-AUTH-005'],
    INTERFACE_NOT_GRANTED: [403, 'SHOP-AUTH-006'],
    IP_NOT_ALLOWED: [403, 'SHOP-AUTH-007'],
    RATE_LIMITED: [429, 'SHOP-REQ-429'],
  },
  unavailable: [500, shopErrors.internal.code],
  send: (res, status, code, message) => sendShopError(res, status, code, message),
};
