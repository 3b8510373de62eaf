/**
 * The gateway's vocabulary every interface shares (docs/gateway.md): the interfaces, why the gateway refuses a
 * request, and who it let through. The gateway context (application/gateway) decides them; each interface answers a
 * refusal in its own envelope (api/shared/gateway-front.ts).
 */
export { gatewayInterfaces, type GatewayInterface } from '../../domain/shared/gateway-interfaces.js';

/** Why the gateway refused a request; each interface maps every one to its own status and code. */
export type GatewayRefusal =
  | 'CREDENTIALS_MISSING'
  | 'CREDENTIALS_INVALID'
  | 'ENVIRONMENT_MISSING'
  | 'ENVIRONMENT_MISMATCH'
  | 'INTERFACE_NOT_GRANTED'
  | 'IP_NOT_ALLOWED'
  | 'RATE_LIMITED';

/** Who the gateway let through, in res.locals.gateway for the interface behind it. */
export interface GatewayCaller {
  partyId: string;
  clientId: string;
  environment: string;
}
