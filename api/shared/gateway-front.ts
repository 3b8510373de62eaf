/**
 * What an interface tells the gateway in front of it (docs/gateway.md): which interface it is, whether it reads the
 * `env` header, its routes (so that rate limits are per endpoint) and how its own envelope answers each of the
 * gateway's refusals. The composition root puts the gateway (api/gateway) in front of every interface that declares
 * one; an interface never checks client_id/client_secret itself.
 */
import type { Response } from 'express';
import type { GatewayInterface, GatewayRefusal } from '../../application/shared/gateway.js';
import type { RouteSpec } from './route-spec.js';

// The shared vocabulary lives in application/shared/gateway.ts (the gateway's domain names the interfaces too).
export {
  gatewayInterfaces,
  type GatewayCaller,
  type GatewayInterface,
  type GatewayRefusal,
} from '../../application/shared/gateway.js';

export interface GatewayFront {
  interface: GatewayInterface;
  /** `required`: the `env` header (dev, sit, uat, prod) must be sent and name this deployment's environment. */
  envHeader: 'required' | 'optional' | 'ignored';
  /** The interface's routes, relative to its base path: a rate limit is per party and per one of these. */
  routes: readonly Pick<RouteSpec, 'method' | 'path' | 'pathPatterns'>[];
  /**
   * The header that names the end user a request acts for, as the seed has it (`X-User-Id`, ...): a request naming
   * one is also counted against that user's limit within the party (GATEWAY_USER_RATE_LIMIT_*). None: no user limit.
   */
  userHeader?: string;
  /** Every refusal → the interface's HTTP status and code (a refusal left out does not compile). */
  refusals: { readonly [R in GatewayRefusal]: readonly [status: number, code: string] };
  /**
   * The answer when the gateway cannot check a request (its lookups failed: the database is away); default 503 and
   * the gateway's own code GATEWAY-UNAVAILABLE. An interface gives its own internal error here.
   */
  unavailable?: readonly [status: number, code: string];
  /** Writes the interface's envelope (its InterfaceErrors' send). */
  send(res: Response, status: number, code: string, message: string, data: unknown): void;
}

/** An interface's codes for the gateway's refusals, one each (the order view's and the files interface's). */
export interface GatewayRefusalCodes {
  gatewayCredentialsMissing: string;
  gatewayCredentialsInvalid: string;
  environmentMissing: string;
  environmentMismatch: string;
  interfaceNotGranted: string;
  ipNotAllowed: string;
  rateLimited: string;
}

/** The refusals table of an interface with a code per refusal, at the gateway's usual statuses. */
export const gatewayRefusalsOf = (codes: GatewayRefusalCodes): GatewayFront['refusals'] => ({
  CREDENTIALS_MISSING: [401, codes.gatewayCredentialsMissing],
  CREDENTIALS_INVALID: [401, codes.gatewayCredentialsInvalid],
  ENVIRONMENT_MISSING: [400, codes.environmentMissing],
  ENVIRONMENT_MISMATCH: [400, codes.environmentMismatch],
  INTERFACE_NOT_GRANTED: [403, codes.interfaceNotGranted],
  IP_NOT_ALLOWED: [403, codes.ipNotAllowed],
  RATE_LIMITED: [429, codes.rateLimited],
});
