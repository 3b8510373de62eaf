/**
 * The gateway's API: the guard the composition root mounts in front of every interface that declares a
 * GatewayFront (`guard`, gatewayGuard), its operator endpoints and their OpenAPI. The only file of api/gateway the composition
 * root imports (docs/conventions.md, "Modules"; docs/gateway.md).
 */
import type { GatewayServices } from '../../application/gateway/index.js';
import type { ContextApi } from '../shared/context-api.js';
import { gatewayGuard } from './guard.js';
import { registerGatewayOpenApi } from './openapi.js';
import { gatewayOperatorRouter } from './operator-router.js';

export { gatewayGuard } from './guard.js';
export { gatewayOperatorRouter } from './operator-router.js';

export const gatewayApi: ContextApi<GatewayServices> = {
  interfaces: () => [],
  guard:
    (s, { logger }) =>
    (front) =>
      gatewayGuard(front, s, { logger }),
  operatorRouter: (s, { logger }) => gatewayOperatorRouter({ logger, parties: s.parties }),
  openApi: [registerGatewayOpenApi],
  description:
    'The gateway in front of every interface: each call carries its party’s `client_id` and `client_secret` (and, where an interface asks for it, the `env` header); refusals, rate limits (429 with `Retry-After`) and the IP allowlist answer in the interface’s own envelope. Operators manage parties and credentials under `/operator/v1/gateway`. Details: docs/gateway.md.',
};
