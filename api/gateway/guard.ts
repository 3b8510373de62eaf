/**
 * The gateway in front of an interface (docs/gateway.md): the composition root mounts `gatewayGuard(front, gateway)`
 * before every interface whose MountedRouter declares a GatewayFront. It checks the request (application/gateway's
 * GatewayCheck), answers a refusal in the interface's own envelope and code (with Retry-After on a 429), and puts
 * the caller in res.locals.gateway for the interface behind it. No interface checks client_id/client_secret itself.
 */
import type { RequestHandler } from 'express';
import { endpointName, type GatewayServices } from '../../application/gateway/index.js';
import type { Logger } from '../../application/shared/logger.js';
import type { GatewayFront } from '../shared/gateway-front.js';
import { logContextOf } from '../shared/request-context.js';
import { endpointMatcher } from './endpoint-matcher.js';

export function gatewayGuard(
  front: GatewayFront,
  gateway: Pick<GatewayServices, 'check' | 'endpoints'>,
  deps: { logger: Logger },
): RequestHandler {
  const endpointOf = endpointMatcher(front.routes);
  // Operators' per-endpoint limits must name an endpoint this interface serves.
  gateway.endpoints.declare(
    front.interface,
    front.routes.map((r) => endpointName(r.method, r.path)),
  );
  const [unavailableStatus, unavailableCode] = front.unavailable ?? [503, 'GATEWAY-UNAVAILABLE'];
  return (req, res, next) => {
    gateway.check
      .check({
        clientId: req.header('client_id'),
        clientSecret: req.header('client_secret'),
        env: req.header('env'),
        envHeader: front.envHeader,
        interface: front.interface,
        endpoint: endpointOf(req.method, req.path),
        clientIp: req.ip,
        userId: front.userHeader ? req.header(front.userHeader) : undefined,
      })
      .then(
        (decision) => {
          if (decision.ok) {
            res.locals.gateway = decision.caller;
            return next();
          }
          const [status, code] = front.refusals[decision.reason];
          if (decision.retryAfterSeconds !== undefined)
            res.setHeader('Retry-After', String(decision.retryAfterSeconds));
          front.send(res, status, code, decision.message, null);
        },
        (err: unknown) => {
          // Never let a request through unchecked: the interface answers that it cannot serve it now.
          deps.logger.error('gateway check failed', { interface: front.interface, ...logContextOf(res), err });
          front.send(
            res,
            unavailableStatus,
            unavailableCode,
            'the gateway cannot check this request now; retry later',
            null,
          );
        },
      );
  };
}
