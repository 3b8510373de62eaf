/**
 * The API half of a bounded context's module (docs/conventions.md, "Modules"): the interfaces it serves, its
 * operator endpoints and their OpenAPI registration, next to its routers. The composition root mounts them.
 */
import type { RequestHandler, Router } from 'express';
import type { Logger } from '../../application/shared/logger.js';
import type { GatewayFront } from './gateway-front.js';
import type { OpenApiRegistration } from './openapi.js';

export interface MountedRouter {
  path: string;
  router: Router;
  /**
   * The gateway in front of it (api/shared/gateway-front.ts), which the composition root mounts before it. Required,
   * so that no interface forgets it: null only for a public surface every caller may read without gateway
   * credentials (a JWKS document, a page a browser opens), said so where it is declared (docs/gateway.md).
   */
  gateway: GatewayFront | null;
}

export interface ContextApi<S> {
  /** The context's own interfaces, each under its base path with its own auth, envelope and error table. */
  interfaces(services: S, deps: { logger: Logger }): MountedRouter[];
  /**
   * Only the context that stands in front of every other's interfaces (the gateway, docs/gateway.md): the guard the
   * composition root mounts before each interface that declares its front (`MountedRouter.gateway`).
   */
  guard?(services: S, deps: { logger: Logger }): (front: GatewayFront) => RequestHandler;
  /** Its endpoints in the operator API (api/shared/operator-api.ts), which authenticates and parses for it. */
  operatorRouter?(services: S, deps: { logger: Logger }): Router;
  /** Documents every route it mounts (tests/api/openapi-routes.test.ts fails on a route left out). */
  openApi: readonly OpenApiRegistration[];
  /** A paragraph of the OpenAPI document's description: what the context serves, where its conventions live. */
  description: string;
}
