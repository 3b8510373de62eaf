/**
 * What an interface tells the gateway in front of it (docs/gateway.md): which interface it is, whether it reads the
 * `env` header, its routes (so that rate limits are per endpoint) and how its own envelope answers each of the
 * gateway's refusals. The composition root puts the gateway (api/gateway) in front of every interface that declares
 * one; an interface never checks client_id/client_secret itself.
 */
import type { Response } from 'express';
import type { RouteSpec } from './route-spec.js';

/** The interfaces a gateway party can be granted. */
export const gatewayInterfaces = ['shop', 'checkout', 'payments', 'orders', 'identity', 'files'] as const;
export type GatewayInterface = (typeof gatewayInterfaces)[number];

/** Why the gateway refused a request; each interface maps every one to its own status and code. */
export type GatewayRefusal =
  | 'CREDENTIALS_MISSING'
  | 'CREDENTIALS_INVALID'
  | 'ENVIRONMENT_MISSING'
  | 'ENVIRONMENT_MISMATCH'
  | 'INTERFACE_NOT_GRANTED'
  | 'IP_NOT_ALLOWED'
  | 'RATE_LIMITED';

export interface GatewayFront {
  interface: GatewayInterface;
  /** `required`: the `env` header (dev, sit, uat, prod) must be sent and name this deployment's environment. */
  envHeader: 'required' | 'optional' | 'ignored';
  /** The interface's routes, relative to its base path: a rate limit is per party and per one of these. */
  routes: readonly Pick<RouteSpec, 'method' | 'path' | 'pathPatterns'>[];
  /** Every refusal → the interface's HTTP status and code (a refusal left out does not compile). */
  refusals: { readonly [R in GatewayRefusal]: readonly [status: number, code: string] };
  /** Writes the interface's envelope (its InterfaceErrors' send). */
  send(res: Response, status: number, code: string, message: string, data: unknown): void;
}

/** Who the gateway let through, in res.locals.gateway for the interface behind it. */
export interface GatewayCaller {
  partyId: string;
  clientId: string;
  environment: string;
}
