/**
 * The shop catalog (endpoints 1 to 6) as zod schemas, for the OpenAPI
 * document: the answers (ShopVoucherResponse, ShopCampaignResponse, the page)
 * and the query parameters. The router reads its parameters with
 * query-params.ts, which implements the rules these describe
 * (docs/shop-api.md, "Catalog"); the API tests check real answers against
 * the response schemas.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { searchPageSize } from '../../application/shop/index.js';
import { catalogLimits } from './query-params.js';
import { poolDisplay, poolTerms } from './operator-schemas.js';

extendZodWithOpenApi(z);

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });
const int = () => z.number().int();
const window = z.object({ startAt: instant('start (UTC)'), endAt: instant('end (UTC)') }).strict();

// ---- answers ----

export const shopVoucherSchema = z
  .object({
    id: int().describe('voucher pool id'),
    categoryId: int(),
    miniAppIds: z.array(z.string()),
    campaign: z
      .object({
        id: int(),
        name: z.string(),
        tag: z.string().describe('e.g. HOT_DEAL, FLASH_SALE'),
        displayPriority: int().describe('1 = highest'),
        validity: window.describe('the campaign window'),
        countdown: z
          .object({
            endAt: instant('the campaign end'),
            remainingSeconds: int().min(0).describe('floor((endAt - now) / 1 s), computed at each request'),
          })
          .strict()
          .nullable()
          .describe('FLASH_SALE campaigns only'),
      })
      .strict(),
    display: poolDisplay.strict(),
    pricing: z
      .object({
        faceValue: int(),
        sellingPrice: int(),
        discountedPrice: int()
          .nullable()
          .describe('sellingPrice when it is below faceValue (the price after discount the buyer pays), else null'),
        currency: z.enum(['VND', 'VPOINT']),
        discountPercentage: int().describe(
          'round((faceValue - sellingPrice) × 100 / faceValue); 0 when faceValue is 0',
        ),
      })
      .strict(),
    inventory: z
      .object({
        totalQuantity: int(),
        remainingQuantity: int().describe('total - reserved - sold'),
        isOutOfStock: z.boolean(),
      })
      .strict(),
    userPurchaseUsage: z
      .object({
        dailyPurchasedQty: int(),
        totalPurchasedQty: int(),
        dailyRemaining: int()
          .nullable()
          .describe('maxPerDay - today, capped by totalRemaining; null without maxPerDay'),
        totalRemaining: int().nullable().describe('usageLimit - total; null without usageLimit'),
      })
      .strict()
      .nullable()
      .describe('only when X-User-Id is sent'),
    validity: window.nullable().describe('the pool’s own validity, if any'),
    terms: poolTerms.strict(),
  })
  .strict()
  .openapi('ShopVoucherResponse');

const bannerSchema = z
  .object({
    id: int(),
    channelCode: z.enum(['APP', 'WEB']),
    positionCode: z.enum(['CAROUSEL', 'DETAIL_TOP']),
    assetUrl: z.string(),
    assetType: z.enum(['IMAGE', 'VIDEO']),
    altText: z.string(),
    clickUrl: z.string().nullable(),
    displayOrder: int(),
  })
  .strict()
  .openapi('ShopCampaignBanner');

export const shopCampaignSchema = z
  .object({
    id: int(),
    code: z.string(),
    name: z.string(),
    description: z.string(),
    campaignTag: z.string(),
    displayPriority: int(),
    themeUrl: z.string(),
    startAt: instant('vouchers are listed from then'),
    endAt: instant('end of the campaign (exclusive)'),
    presale: z
      .object({
        enabled: z.boolean(),
        startAt: instant('presale start; the campaign is shown from then when enabled'),
        countdownEnabled: z.boolean(),
        teaserText: z.string(),
        teaserImageUrl: z.string(),
      })
      .strict()
      .nullable(),
    banners: z.array(bannerSchema).describe('the banners of the requested channel, by displayOrder'),
    voucherSummary: z
      .object({
        totalCount: int().describe('pools not deleted'),
        availableCount: int().describe('of those, pools with stock left'),
        soldCount: int().describe('vouchers sold'),
        displayedCount: int().describe('pools the voucher list shows now (0 during presale)'),
      })
      .strict(),
    vouchers: z.array(shopVoucherSchema).nullable().describe('only with includeVouchers=true (endpoint 5)'),
  })
  .strict()
  .openapi('ShopCampaignResponse');

/** The shop's paginated payload around `item`. */
export const shopPage = <T extends z.ZodTypeAny>(item: T) =>
  z
    .object({
      content: z.array(item),
      page: z
        .object({
          size: int().describe('the page size used (after clamping)'),
          number: int().describe('0-indexed'),
          totalElements: int(),
          totalPages: int().describe('ceil(totalElements / size)'),
        })
        .strict(),
    })
    .strict();

// ---- query parameters (documentation of query-params.ts) ----

const channel = z.enum(['APP', 'WEB']).optional().describe('default APP');
const page = z.string().optional().describe('0-indexed, default 0; an integer >= 0');
const size = (defaults: { defaultSize: number; maxSize: number }) =>
  z
    .string()
    .optional()
    .describe(
      `default ${defaults.defaultSize}; an integer >= 1; above ${defaults.maxSize} it is clamped to ${defaults.maxSize}`,
    );
const idList = (what: string) =>
  z.string().optional().describe(`${what}: integers, comma-separated or the parameter repeated; at most 100`);
const tag = z.string().optional().describe('one campaign tag, e.g. HOT_DEAL');
const tags = z.string().optional().describe('campaign tags, comma-separated (or repeated); wins over tag');

export const voucherListQuery = z.object({
  tag,
  tags,
  categoryIds: idList('voucher categories'),
  campaignIds: idList('only these campaigns'),
  excludeCampaignIds: idList('not these campaigns'),
  channel,
  page,
  size: size(catalogLimits.list),
});

export const channelQuery = z.object({ channel });

export const carouselQuery = z.object({
  channel: channel.describe('default APP; picks the campaigns with a CAROUSEL banner on it and their banners'),
  page,
  size: size(catalogLimits.carousel),
});

export const campaignListQuery = z.object({
  tag,
  tags,
  includeVouchers: z.enum(['true', 'false']).optional().describe('default false'),
  vouchersPerCampaign: z
    .string()
    .optional()
    .describe(
      `default ${catalogLimits.vouchersPerCampaign.default}; an integer >= 1; above ${catalogLimits.vouchersPerCampaign.max} it is clamped`,
    ),
  channel: channel.describe('default APP; picks the banners'),
  page,
  size: size(catalogLimits.list),
});

export const searchQuery = voucherListQuery.pick({ tag: true, tags: true, channel: true, page: true }).extend({
  q: z.string().describe('keyword, at least 2 characters, UTF-8 percent-encoded; diacritics optional'),
  size: size(searchPageSize),
});

export const idParams = z.object({ id: z.string().regex(/^\d+$/).describe('digits only') });
