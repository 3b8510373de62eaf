/**
 * Endpoints 1, 2, 4, 5 and 6 of the shop interface: the catalog, read from projections (routes in catalog-routes.ts,
 * docs/shop-api.md, "Catalog"). The voucher answers are prebuilt JSON bytes (voucher-json.ts), sent as they are.
 */
import { Router } from 'express';
import type { CatalogCaller, CatalogQueries, ShopCredentials } from '../../application/shop/index.js';
import { HttpError } from '../shared/interface-errors.js';
import { rawJson } from '../shared/route.js';
import { mount } from '../shared/route-spec.js';
import { shopAuth, type ShopCallerLocals } from './auth.js';
import { catalogRoutes } from './catalog-routes.js';
import { shopOk } from './envelope.js';
import { voucherJson, voucherPageJson } from './voucher-json.js';
import {
  booleanParam,
  catalogLimits,
  channelParam,
  countParam,
  idListParam,
  pageParams,
  tagParams,
} from './query-params.js';

function callerOf(locals: Record<string, unknown>): CatalogCaller {
  const c = locals.caller as ShopCallerLocals;
  return { merchantId: c.merchantId, userId: c.userId };
}

/** An id path segment (digits only, by the route): a pool or campaign id, or none when it is too large to be one. */
function pathId(value: string | undefined): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}

export function catalogRouter(deps: { catalog: CatalogQueries; credentials: ShopCredentials }): Router {
  const router = Router();
  const auth = [shopAuth(deps.credentials, { requireUser: false })];
  const { catalog } = deps;

  mount(router, catalogRoutes.listVouchers, auth, async (req, res) => {
    const query = {
      channel: channelParam(req),
      tags: tagParams(req),
      categoryIds: idListParam(req, 'categoryIds'),
      campaignIds: idListParam(req, 'campaignIds'),
      excludeCampaignIds: idListParam(req, 'excludeCampaignIds'),
      ...pageParams(req, catalogLimits.list),
    };
    return rawJson(voucherPageJson(await catalog.listVouchers(query, callerOf(res.locals))));
  });

  mount(router, catalogRoutes.getVoucher, auth, async (req, res) => {
    const channel = channelParam(req);
    const id = pathId(req.params.id);
    const voucher = id === undefined ? undefined : await catalog.voucher(id, { channel, ...callerOf(res.locals) });
    if (!voucher) throw new HttpError(404, 'SHOP-VOU-001', `voucher ${req.params.id} does not exist or is not on sale`);
    return rawJson(voucherJson(voucher));
  });

  mount(router, catalogRoutes.campaignCarousel, auth, async (req) =>
    shopOk(await catalog.carousel({ channel: channelParam(req), ...pageParams(req, catalogLimits.carousel) })),
  );

  mount(router, catalogRoutes.listCampaigns, auth, async (req, res) => {
    const { vouchersPerCampaign } = catalogLimits;
    const query = {
      channel: channelParam(req),
      tags: tagParams(req),
      includeVouchers: booleanParam(req, 'includeVouchers', false),
      vouchersPerCampaign: countParam(req, 'vouchersPerCampaign', vouchersPerCampaign.default, vouchersPerCampaign.max),
      ...pageParams(req, catalogLimits.list),
    };
    return shopOk(await catalog.listCampaigns(query, callerOf(res.locals)));
  });

  mount(router, catalogRoutes.getCampaign, auth, async (req) => {
    const channel = channelParam(req);
    const id = pathId(req.params.id);
    const campaign = id === undefined ? undefined : await catalog.campaign(id, channel);
    if (!campaign)
      throw new HttpError(
        404,
        'SHOP-CAM-001',
        `campaign ${req.params.id} does not exist or is not APPROVED and ACTIVE`,
      );
    return shopOk(campaign);
  });

  return router;
}
