/** The shop interface (docs/shop-api.md): its routers under one base path, its 404 and its error envelope. */
import { Router } from 'express';
import type { Logger } from '../../application/shared/logger.js';
import { unknownEndpoint } from '../shared/interface-errors.js';
import { shopErrorHandler, shopErrors } from './error-mapping.js';

/** Where the shop interface is served; its OpenAPI registration documents its routes under it. */
export const shopBasePath = '/api/v1';

export function shopRouter(deps: { logger: Logger; routers: Router[] }): Router {
  const router = Router();
  for (const r of deps.routers) router.use(r);
  router.use(unknownEndpoint(shopErrors));
  router.use(shopErrorHandler(deps.logger));
  return router;
}
