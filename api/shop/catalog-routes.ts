/**
 * The catalog routes of the shop interface (endpoints 1 to 6), declared once: catalog-router.ts and search-router.ts
 * mount them and openapi.ts documents them (api/shared/route-spec.ts). Id routes take digits only, so
 * /vouchers/search and /vouchers/reservation/... never reach them whatever the order the routers are mounted in.
 */
import { z } from 'zod';
import { successResponse, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import {
  campaignListQuery,
  carouselQuery,
  channelQuery,
  idParams,
  searchQuery,
  shopCampaignSchema,
  shopPage,
  shopVoucherSchema,
  voucherListQuery,
} from './catalog-schemas.js';
import { domainCase, shopCallErrors, shopErrorResponses, shopSecurity } from './openapi-parts.js';
import { envHeader, shopSuccess } from './schemas.js';

/** The headers besides the credentials (those are security schemes); X-User-Id is optional on the catalog. */
const catalogHeaders = z.object({
  env: envHeader,
  'X-Request-Id': z.string().uuid().describe('unique request id (UUID)'),
  'X-User-Id': z.string().optional().describe('the customer; when sent, vouchers carry userPurchaseUsage'),
});

const page = (item: z.ZodTypeAny) => shopSuccess(shopPage(item));

/** A GET of the catalog: read from projections, with the shop's credentials. */
function catalogRoute(
  spec: Pick<RouteSpec, 'path' | 'pathPatterns' | 'operationId' | 'summary'> & {
    query: z.AnyZodObject;
    answer: z.ZodTypeAny;
    errors: ErrorCase[];
    params?: z.AnyZodObject;
  },
): RouteSpec {
  const { query, answer, errors, params, ...rest } = spec;
  return {
    tags: ['Shop: catalog'],
    security: shopSecurity,
    method: 'get',
    ...rest,
    description:
      'See docs/shop-api.md, "Catalog". Read from projections: eventually consistent with the purchase flow (lag on /metrics).',
    request: { headers: catalogHeaders, query, ...(params ? { params } : {}) },
    responses: { 200: successResponse(spec.summary!, answer), ...shopErrorResponses(...shopCallErrors, ...errors) },
  };
}

const digits = { id: '\\d+' };

export const catalogRoutes = {
  listVouchers: catalogRoute({
    path: '/vouchers',
    operationId: 'listVouchers',
    summary: '1. Vouchers on sale',
    query: voucherListQuery,
    answer: page(shopVoucherSchema),
    errors: [],
  }),
  getVoucher: catalogRoute({
    path: '/vouchers/{id}',
    pathPatterns: digits,
    operationId: 'getVoucher',
    summary: '2. Voucher detail',
    query: channelQuery,
    answer: shopSuccess(shopVoucherSchema),
    errors: [[404, 'SHOP-VOU-001', 'voucher pool missing, deleted or not on sale']],
    params: idParams,
  }),
  searchVouchers: catalogRoute({
    path: '/vouchers/search',
    operationId: 'searchVouchers',
    summary: '3. Keyword search (Vietnamese, diacritics optional)',
    query: searchQuery,
    answer: page(shopVoucherSchema),
    errors: [domainCase('KEYWORD_TOO_SHORT', 'q shorter than 2 characters')],
  }),
  campaignCarousel: catalogRoute({
    path: '/campaigns/carousel',
    operationId: 'campaignCarousel',
    summary: '4. Home carousel campaigns',
    query: carouselQuery,
    answer: page(shopCampaignSchema),
    errors: [],
  }),
  listCampaigns: catalogRoute({
    path: '/campaigns',
    operationId: 'listCampaigns',
    summary: '5. Campaigns',
    query: campaignListQuery,
    answer: page(shopCampaignSchema),
    errors: [],
  }),
  getCampaign: catalogRoute({
    path: '/campaigns/{id}',
    pathPatterns: digits,
    operationId: 'getCampaign',
    summary: '6. Campaign detail',
    query: channelQuery,
    answer: shopSuccess(shopCampaignSchema),
    errors: [[404, 'SHOP-CAM-001', 'campaign missing or not APPROVED and ACTIVE']],
    params: idParams,
  }),
} satisfies Record<string, RouteSpec>;
