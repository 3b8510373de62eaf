import { Router, type RequestHandler } from 'express';
import type { CatalogCaller, CatalogQueries } from '../../application/shop/catalog-queries.js';
import type { ShopCredentials } from '../../application/shop/credentials.js';
import { shopAuth, type ShopCallerLocals } from './auth.js';
import { ShopHttpError, sendShopJson, sendShopSuccess } from './envelope.js';
import { voucherJson, voucherPageJson } from './voucher-json.js';
import { booleanParam, channelParam, countParam, idListParam, pageParams, tagParams } from './query-params.js';

/** Limits of the spec (000, "Limits"); a larger size is clamped. */
export const catalogLimits = {
  list: { defaultSize: 20, maxSize: 50 },
  carousel: { defaultSize: 10, maxSize: 50 },
  vouchersPerCampaign: { default: 10, max: 50 },
};

function callerOf(locals: Record<string, unknown>): CatalogCaller {
  const c = locals.caller as ShopCallerLocals;
  return { merchantId: c.merchantId, userId: c.userId };
}

/** An id path segment (digits only, by the route): a pool or campaign id, or none when it is too large to be one. */
function pathId(value: string | undefined): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}

const handle =
  (fn: (...args: Parameters<RequestHandler>) => Promise<void>): RequestHandler =>
  (req, res, next) => {
    fn(req, res, next).catch(next);
  };

/**
 * Endpoints 1, 2, 4, 5 and 6 of the shop interface: the catalog, read from
 * projections. Id routes take digits only, so /vouchers/search and
 * /vouchers/reservation/... never reach them whatever the router order.
 */
export function catalogRouter(deps: { catalog: CatalogQueries; credentials: ShopCredentials }): Router {
  const router = Router();
  const auth = shopAuth(deps.credentials, { requireUser: false });
  const { catalog } = deps;

  router.get(
    '/vouchers',
    auth,
    handle(async (req, res) => {
      const query = {
        channel: channelParam(req),
        tags: tagParams(req),
        categoryIds: idListParam(req, 'categoryIds'),
        campaignIds: idListParam(req, 'campaignIds'),
        excludeCampaignIds: idListParam(req, 'excludeCampaignIds'),
        ...pageParams(req, catalogLimits.list),
      };
      sendShopJson(res, voucherPageJson(await catalog.listVouchers(query, callerOf(res.locals))));
    }),
  );

  router.get(
    '/vouchers/:id(\\d+)',
    auth,
    handle(async (req, res) => {
      const channel = channelParam(req);
      const id = pathId(req.params.id);
      const voucher = id === undefined ? undefined : await catalog.voucher(id, { channel, ...callerOf(res.locals) });
      if (!voucher)
        throw new ShopHttpError(404, 'SHOP-VOU-001', `voucher ${req.params.id} does not exist or is not on sale`);
      sendShopJson(res, voucherJson(voucher));
    }),
  );

  router.get(
    '/campaigns/carousel',
    auth,
    handle(async (req, res) => {
      sendShopSuccess(
        res,
        await catalog.carousel({ channel: channelParam(req), ...pageParams(req, catalogLimits.carousel) }),
      );
    }),
  );

  router.get(
    '/campaigns',
    auth,
    handle(async (req, res) => {
      const { vouchersPerCampaign } = catalogLimits;
      const query = {
        channel: channelParam(req),
        tags: tagParams(req),
        includeVouchers: booleanParam(req, 'includeVouchers', false),
        vouchersPerCampaign: countParam(
          req,
          'vouchersPerCampaign',
          vouchersPerCampaign.default,
          vouchersPerCampaign.max,
        ),
        ...pageParams(req, catalogLimits.list),
      };
      sendShopSuccess(res, await catalog.listCampaigns(query, callerOf(res.locals)));
    }),
  );

  router.get(
    '/campaigns/:id(\\d+)',
    auth,
    handle(async (req, res) => {
      const channel = channelParam(req);
      const id = pathId(req.params.id);
      const campaign = id === undefined ? undefined : await catalog.campaign(id, channel);
      if (!campaign)
        throw new ShopHttpError(
          404,
          'SHOP-CAM-001',
          `campaign ${req.params.id} does not exist or is not APPROVED and ACTIVE`,
        );
      sendShopSuccess(res, campaign);
    }),
  );

  return router;
}
