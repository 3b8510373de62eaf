/**
 * The shop's operator API (/operator/v1): merchants and their API keys, voucher categories, campaigns and their
 * banners, voucher pools. Each write runs one command as the authenticated operator (operator-http.ts, commandOf).
 * Envelope, codes and headers: docs/shop-api.md, "Operator API".
 */
import { Router } from 'express';
import type { CampaignAdmin, CategoryAdmin, MerchantAdmin, VoucherPoolAdmin } from '../../application/shop/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { interfaceErrorHandler } from '../shared/interface-errors.js';
import { body, commandOf, numericParam, ok } from '../shared/operator-api.js';
import { on } from '../shared/route.js';
import {
  campaignBannerBody,
  categoryNameBody,
  updateCampaignBannerBody,
  updateCampaignBody,
  updatePoolBody,
} from './operator-catalog-schemas.js';
import { merchantIdParam, shopOperatorErrors } from './operator-http.js';
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

  // ---- merchants and API keys ----
  router.post(
    '/merchants',
    on(async (req, res) => ok(await merchants.register(commandOf(req, res), body(registerMerchantBody, req)), 201)),
  );
  router.get(
    '/merchants/:merchantId',
    on(async (req) => ok(await merchants.get(merchantIdParam(req)))),
  );
  router.post(
    '/merchants/:merchantId/api-keys',
    on(async (req, res) => {
      const input = body(issueApiKeyBody, req);
      return ok(await merchants.issueApiKey(commandOf(req, res), merchantIdParam(req), input), 201);
    }),
  );
  router.post(
    '/merchants/:merchantId/api-keys/:apiKeyId/revoke',
    on(async (req, res) =>
      ok(await merchants.revokeApiKey(commandOf(req, res), merchantIdParam(req), numericParam(req, 'apiKeyId'))),
    ),
  );

  // ---- voucher categories ----
  router.post(
    '/voucher-categories',
    on(async (req, res) => ok(await categories.create(commandOf(req, res), body(categoryNameBody, req)), 201)),
  );
  router.get(
    '/voucher-categories',
    on(async () => ok(await categories.list())),
  );
  router.get(
    '/voucher-categories/:categoryId',
    on(async (req) => ok(await categories.get(numericParam(req, 'categoryId')))),
  );
  router.patch(
    '/voucher-categories/:categoryId',
    on(async (req, res) => {
      const categoryId = numericParam(req, 'categoryId');
      return ok(await categories.rename(commandOf(req, res), categoryId, body(categoryNameBody, req).name));
    }),
  );

  // ---- campaigns and banners ----
  router.post(
    '/campaigns',
    on(async (req, res) => ok(await campaigns.create(commandOf(req, res), body(createCampaignBody, req)), 201)),
  );
  router.get(
    '/campaigns/:campaignId',
    on(async (req) => ok(await campaigns.get(numericParam(req, 'campaignId')))),
  );
  router.post(
    '/campaigns/:campaignId/status',
    on(async (req, res) => {
      const campaignId = numericParam(req, 'campaignId');
      const { status } = body(campaignStatusBody, req);
      return ok(await campaigns.changeStatus(commandOf(req, res), campaignId, status));
    }),
  );
  router.patch(
    '/campaigns/:campaignId',
    on(async (req, res) => {
      const campaignId = numericParam(req, 'campaignId');
      return ok(await campaigns.updateDetails(commandOf(req, res), campaignId, body(updateCampaignBody, req)));
    }),
  );
  router.post(
    '/campaigns/:campaignId/banners',
    on(async (req, res) => {
      const campaignId = numericParam(req, 'campaignId');
      return ok(await campaigns.addBanner(commandOf(req, res), campaignId, body(campaignBannerBody, req)), 201);
    }),
  );
  router.patch(
    '/campaigns/:campaignId/banners/:bannerId',
    on(async (req, res) => {
      const [campaignId, bannerId] = [numericParam(req, 'campaignId'), numericParam(req, 'bannerId')];
      const changes = body(updateCampaignBannerBody, req);
      return ok(await campaigns.updateBanner(commandOf(req, res), campaignId, bannerId, changes));
    }),
  );
  router.delete(
    '/campaigns/:campaignId/banners/:bannerId',
    on(async (req, res) => {
      const [campaignId, bannerId] = [numericParam(req, 'campaignId'), numericParam(req, 'bannerId')];
      return ok(await campaigns.removeBanner(commandOf(req, res), campaignId, bannerId));
    }),
  );

  // ---- voucher pools: created like the rest; changed through the flash-sale executor, which takes no key ----
  router.post(
    '/voucher-pools',
    on(async (req, res) => ok(await pools.create(commandOf(req, res), body(createPoolBody, req)), 201)),
  );
  router.get(
    '/voucher-pools/:poolId',
    on(async (req) => ok(await pools.get(numericParam(req, 'poolId')))),
  );
  router.post(
    '/voucher-pools/:poolId/stock',
    on(async (req, res) => {
      const poolId = numericParam(req, 'poolId');
      const { quantity } = body(addStockBody, req);
      return ok(await pools.addStock(commandOf(req, res, false), poolId, quantity));
    }),
  );
  router.post(
    '/voucher-pools/:poolId/pricing',
    on(async (req, res) => {
      const poolId = numericParam(req, 'poolId');
      const pricing = body(poolPricingSchema, req, 'pricing');
      return ok(await pools.reprice(commandOf(req, res, false), poolId, pricing));
    }),
  );
  router.patch(
    '/voucher-pools/:poolId',
    on(async (req, res) => {
      const poolId = numericParam(req, 'poolId');
      return ok(await pools.update(commandOf(req, res, false), poolId, body(updatePoolBody, req)));
    }),
  );
  router.delete(
    '/voucher-pools/:poolId',
    on(async (req, res) => ok(await pools.delete(commandOf(req, res, false), numericParam(req, 'poolId')))),
  );

  // Its domain errors through the shop's table; a path none of its routes take goes on to the next context's router.
  router.use(interfaceErrorHandler(shopOperatorErrors, deps.logger));
  return router;
}
