/**
 * What the order view interface tells the gateway in front of it (api/shared/gateway-front.ts; docs/orders-signing.md,
 * "Headers"): its routes for per-endpoint rate limits, the `env` header optional (the seed's webhook headers do not
 * list it), and every gateway refusal in the order view's envelope.
 */
import type { GatewayFront } from '../shared/gateway-front.js';
import { sendOrdersError } from './envelope.js';
import { ordersCodes, ordersGatewayRefusals } from './errors.js';
import { customerRoutes } from './customer-routes.js';
import { webhookRoutes } from './webhook-routes.js';

export const ordersGateway: GatewayFront = {
  interface: 'orders',
  envHeader: 'optional',
  routes: [...Object.values(webhookRoutes), ...Object.values(customerRoutes)],
  refusals: ordersGatewayRefusals,
  unavailable: [503, ordersCodes.internal],
  send: sendOrdersError,
};
