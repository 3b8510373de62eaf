import { Router } from 'express';
import type { Logger } from '../../infrastructure/shared/logger.js';
import { sendShopError } from './envelope.js';
import { shopErrorHandler } from './error-mapping.js';

/** The shop interface under /api/v1: its routers, its 404 and its error envelope. */
export function shopRouter(deps: { logger: Logger; routers: Router[] }): Router {
  const router = Router();
  for (const r of deps.routers) router.use(r);
  router.use((req, res) =>
    sendShopError(res, 404, 'SHOP-REQ-404', `no endpoint ${req.method} ${req.baseUrl}${req.path}`),
  );
  router.use(shopErrorHandler(deps.logger));
  return router;
}
