/**
 * The checkout interface as the gateway in front of it sees it (api/shared/gateway-front.ts; docs/gateway.md): the
 * `env` header is required (spec part B: "must match the environment called"), and each refusal of the gateway gets
 * the checkout's envelope and code (docs/checkout.md, "Codes").
 */
import type { GatewayFront } from '../shared/gateway-front.js';
import { checkoutCodes, sendCheckoutError } from './checkout-errors.js';
import { checkoutRoutes } from './checkout-routes.js';

export const checkoutGatewayFront: GatewayFront = {
  interface: 'checkout',
  envHeader: 'required',
  userHeader: 'X-App-User-Id',
  routes: Object.values(checkoutRoutes),
  refusals: {
    CREDENTIALS_MISSING: [401, checkoutCodes.unauthenticated],
    CREDENTIALS_INVALID: [401, checkoutCodes.unauthenticated],
    ENVIRONMENT_MISSING: [400, checkoutCodes.invalid],
    ENVIRONMENT_MISMATCH: [403, checkoutCodes.forbidden],
    INTERFACE_NOT_GRANTED: [403, checkoutCodes.forbidden],
    IP_NOT_ALLOWED: [403, checkoutCodes.forbidden],
    RATE_LIMITED: [429, checkoutCodes.rateLimited],
  },
  unavailable: [502, checkoutCodes.unavailable],
  send: sendCheckoutError,
};
