/**
 * What the files interface tells the gateway in front of it (api/shared/gateway-front.ts; docs/files.md,
 * "Gateway"): its routes for per-endpoint rate limits, the `env` header optional, and every gateway refusal in the
 * files envelope.
 */
import type { GatewayFront } from '../shared/gateway-front.js';
import { sendFilesError } from './envelope.js';
import { filesGatewayRefusals } from './errors.js';
import { filesRoutes } from './routes.js';

export const filesGateway: GatewayFront = {
  interface: 'files',
  envHeader: 'optional',
  routes: Object.values(filesRoutes),
  refusals: filesGatewayRefusals,
  send: sendFilesError,
};
