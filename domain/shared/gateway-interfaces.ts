/**
 * The interfaces the gateway stands in front of (docs/gateway.md): a name every context's interface declares itself
 * by (api/shared/gateway-front.ts) and the gateway context grants parties. Shared, so the gateway's domain and every
 * interface name them alike without importing one another.
 */
export const gatewayInterfaces = ['shop', 'checkout', 'payments', 'orders', 'identity', 'files'] as const;
export type GatewayInterface = (typeof gatewayInterfaces)[number];
