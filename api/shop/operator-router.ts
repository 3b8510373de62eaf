/**
 * The shop's operator API (/operator/v1): merchants and their API keys, voucher categories, campaigns and their
 * banners, voucher pools (routes in operator-routes.ts). Each write runs one command as the authenticated operator
 * (operator-http.ts, commandOf). Envelope, codes and headers: docs/shop-api.md, "Operator API".
 */
import { Router } from 'express';
import type { CampaignAdmin, CategoryAdmin, MerchantAdmin, VoucherPoolAdmin } from '../../application/shop/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { interfaceErrorHandler } from '../shared/interface-errors.js';
import { body, commandOf, numericParam, ok } from '../shared/operator-api.js';
import type { RouteHandler } from '../shared/route.js';
import { mount, type RouteSpec } from '../shared/route-spec.js';
import {
  campaignBannerBody,
  categoryNameBody,
  updateCampaignBannerBody,
  updateCampaignBody,
  updatePoolBody,
} from './operator-catalog-schemas.js';
import { merchantIdParam, shopOperatorErrors } from './operator-http.js';
import { shopOperatorRoutes as routes } from './operator-routes.js';
import {
  addStockBody,
  campaignStatusBody,
  createCampaignBody,
  createPoolBody,
  issueApiKeyBody,
  poolPricingSchema,
  registerMerchantBody,
} from './operator-schemas.js';

export interface OperatorDeps {
  logger: Logger;
  merchants: MerchantAdmin;
  campaigns: CampaignAdmin;
  categories: CategoryAdmin;
  pools: VoucherPoolAdmin;
}

export function operatorRouter(deps: OperatorDeps): Router {
  const { merchants, campaigns, categories, pools } = deps;
  const router = Router();
  // Authentication and JSON bodies are the operator API's (operatorApi), before every context's router.
  const route = (spec: RouteSpec, handler: RouteHandler) => mount(router, spec, [], handler);

  // ---- merchants and API keys ----
  route(routes.registerMerchant, async (req, res) =>
    ok(await merchants.register(commandOf(req, res), body(registerMerchantBody, req)), 201),
  );
  route(routes.getMerchant, async (req) => ok(await merchants.get(merchantIdParam(req))));
  route(routes.issueApiKey, async (req, res) => {
    const input = body(issueApiKeyBody, req);
    return ok(await merchants.issueApiKey(commandOf(req, res), merchantIdParam(req), input), 201);
  });
  route(routes.revokeApiKey, async (req, res) =>
    ok(await merchants.revokeApiKey(commandOf(req, res), merchantIdParam(req), numericParam(req, 'apiKeyId'))),
  );

  // ---- voucher categories ----
  route(routes.createCategory, async (req, res) =>
    ok(await categories.create(commandOf(req, res), body(categoryNameBody, req)), 201),
  );
  route(routes.listCategories, async () => ok(await categories.list()));
  route(routes.getCategory, async (req) => ok(await categories.get(numericParam(req, 'categoryId'))));
  route(routes.renameCategory, async (req, res) => {
    const categoryId = numericParam(req, 'categoryId');
    return ok(await categories.rename(commandOf(req, res), categoryId, body(categoryNameBody, req).name));
  });

  // ---- campaigns and banners ----
  route(routes.createCampaign, async (req, res) =>
    ok(await campaigns.create(commandOf(req, res), body(createCampaignBody, req)), 201),
  );
  route(routes.getCampaign, async (req) => ok(await campaigns.get(numericParam(req, 'campaignId'))));
  route(routes.changeCampaignStatus, async (req, res) => {
    const campaignId = numericParam(req, 'campaignId');
    const { status } = body(campaignStatusBody, req);
    return ok(await campaigns.changeStatus(commandOf(req, res), campaignId, status));
  });
  route(routes.updateCampaign, async (req, res) => {
    const campaignId = numericParam(req, 'campaignId');
    return ok(await campaigns.updateDetails(commandOf(req, res), campaignId, body(updateCampaignBody, req)));
  });
  route(routes.addBanner, async (req, res) => {
    const campaignId = numericParam(req, 'campaignId');
    return ok(await campaigns.addBanner(commandOf(req, res), campaignId, body(campaignBannerBody, req)), 201);
  });
  route(routes.updateBanner, async (req, res) => {
    const [campaignId, bannerId] = [numericParam(req, 'campaignId'), numericParam(req, 'bannerId')];
    const changes = body(updateCampaignBannerBody, req);
    return ok(await campaigns.updateBanner(commandOf(req, res), campaignId, bannerId, changes));
  });
  route(routes.removeBanner, async (req, res) => {
    const [campaignId, bannerId] = [numericParam(req, 'campaignId'), numericParam(req, 'bannerId')];
    return ok(await campaigns.removeBanner(commandOf(req, res), campaignId, bannerId));
  });

  // ---- voucher pools: created like the rest; changed through the flash-sale executor, which takes no key ----
  route(routes.createPool, async (req, res) =>
    ok(await pools.create(commandOf(req, res), body(createPoolBody, req)), 201),
  );
  route(routes.getPool, async (req) => ok(await pools.get(numericParam(req, 'poolId'))));
  route(routes.addStock, async (req, res) => {
    const poolId = numericParam(req, 'poolId');
    const { quantity } = body(addStockBody, req);
    return ok(await pools.addStock(commandOf(req, res, false), poolId, quantity));
  });
  route(routes.repricePool, async (req, res) => {
    const poolId = numericParam(req, 'poolId');
    const pricing = body(poolPricingSchema, req, 'pricing');
    return ok(await pools.reprice(commandOf(req, res, false), poolId, pricing));
  });
  route(routes.updatePool, async (req, res) => {
    const poolId = numericParam(req, 'poolId');
    return ok(await pools.update(commandOf(req, res, false), poolId, body(updatePoolBody, req)));
  });
  route(routes.deletePool, async (req, res) =>
    ok(await pools.delete(commandOf(req, res, false), numericParam(req, 'poolId'))),
  );

  // Its domain errors through the shop's table; a path none of its routes take goes on to the next context's router.
  router.use(interfaceErrorHandler(shopOperatorErrors, deps.logger));
  return router;
}
