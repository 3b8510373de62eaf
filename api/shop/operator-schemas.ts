/**
 * The operator API's bodies and answers as zod schemas. The operator router
 * parses bodies with them for shape and type (a wrong type is 400
 * OPS-REQ-001 naming the field); the business rules (formats, ranges, URLs,
 * times, lifecycles) stay with the application services, which name the
 * field the same way. api/shared/openapi.ts documents the same schemas.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { bannerAssetTypes, bannerChannels, bannerPositions, campaignStatuses } from '../../domain/shop/campaign.js';
import { currencies } from '../../domain/shop/events.js';

extendZodWithOpenApi(z);

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });
const int = () => z.number().int();
/** A missing or null object is refused on its first field, as the services refuse it (e.g. `pricing.faceValue is required`). */
const requiredObject = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((value) => value ?? {}, schema);

// ---- merchants and API keys ----

export const registerMerchantBody = z
  .object({
    merchantId: z
      .string()
      .describe('the merchant code shoppers send as X-Merchant-Id: 1 to 64 letters, digits, "_" or "-"'),
    name: z.string().describe('1 to 200 characters, trimmed'),
    apiKeyExpiresAt: instant(
      'expiry of the first API key: a future ISO 8601 date-time with offset; null or absent for none',
    ).nullish(),
  })
  .openapi('RegisterMerchantRequest');

export const issueApiKeyBody = z
  .object({
    expiresAt: instant('a future ISO 8601 date-time with offset; null or absent for none').nullish(),
  })
  .openapi('IssueApiKeyRequest');

const issuedApiKey = z
  .object({
    id: int(),
    key: z.string().describe('the raw key, shown only in this answer; send it as X-Promotion-Api-Key'),
    prefix: z.string().describe('the start of the key, to tell keys apart in listings'),
    expiresAt: instant('UTC').nullable(),
  })
  .openapi('IssuedApiKey');

const apiKeyView = z
  .object({
    id: int(),
    prefix: z.string(),
    status: z.enum(['ACTIVE', 'REVOKED']),
    expiresAt: instant('UTC').nullable(),
    issuedAt: instant('UTC'),
    revokedAt: instant('UTC').nullable(),
  })
  .openapi('ApiKey');

export const merchantSchemas = {
  registered: z
    .object({ merchantId: z.string(), name: z.string(), apiKey: issuedApiKey })
    .openapi('RegisteredMerchant'),
  merchant: z
    .object({ merchantId: z.string(), name: z.string(), registeredAt: instant('UTC'), apiKeys: z.array(apiKeyView) })
    .openapi('Merchant'),
  issuedApiKey,
  apiKey: apiKeyView,
};

// ---- campaigns ----

// Not a named component: zod-to-openapi 7 drops `nullable` from a nullable reference.
const presale = z.object({
  enabled: z.boolean(),
  startAt: instant('before the campaign startAt'),
  countdownEnabled: z.boolean(),
  teaserText: z.string(),
  teaserImageUrl: z.string().openapi({ format: 'uri' }),
});

const bannerFields = {
  channelCode: z.enum(bannerChannels),
  positionCode: z.enum(bannerPositions),
  assetUrl: z.string().openapi({ format: 'uri', description: 'absolute http(s) URL' }),
  assetType: z.enum(bannerAssetTypes),
  altText: z.string(),
  displayOrder: int(),
};

export const createCampaignBody = z
  .object({
    code: z.string().describe('unique (case-insensitively): 1 to 64 letters, digits, "_" or "-"'),
    name: z.string(),
    description: z.string(),
    campaignTag: z.string().describe('upper-case code, e.g. HOT_DEAL, FLASH_SALE'),
    type: z.string().describe('upper-case code, e.g. SELL'),
    displayPriority: int().describe('>= 1'),
    themeUrl: z.string().openapi({ format: 'uri' }),
    startAt: instant('ISO 8601 date-time with offset'),
    endAt: instant('after startAt'),
    presale: presale.nullable().default(null),
    banners: z.array(
      z
        .object({
          ...bannerFields,
          clickUrl: z.string().nullable().default(null).describe('absolute URL of any scheme (deep links allowed)'),
        })
        .openapi('NewCampaignBanner'),
    ),
  })
  .openapi('CreateCampaignRequest');

export const campaignStatusBody = z
  .object({ status: z.enum(campaignStatuses).describe('DRAFT → APPROVED → ACTIVE ⇄ PAUSED; ACTIVE or PAUSED → ENDED') })
  .openapi('CampaignStatusRequest');

export const campaignSchema = z
  .object({
    id: int(),
    code: z.string(),
    name: z.string(),
    description: z.string(),
    campaignTag: z.string(),
    type: z.string(),
    status: z.enum(campaignStatuses),
    displayPriority: int(),
    themeUrl: z.string(),
    startAt: instant('UTC'),
    endAt: instant('UTC'),
    presale: presale.nullable(),
    banners: z.array(
      z.object({ id: int(), ...bannerFields, clickUrl: z.string().nullable() }).openapi('CampaignBanner'),
    ),
  })
  .openapi('Campaign');

// ---- voucher pools ----

export const poolPricingSchema = z
  .object({
    faceValue: int().describe('minor units, >= 0'),
    sellingPrice: int().describe('<= faceValue'),
    discountedPrice: int().nullable().describe('null or <= sellingPrice'),
    currency: z.enum(currencies),
  })
  .openapi('PoolPricing');

export const poolTerms = z
  .object({
    usageType: z.enum(['ONLINE', 'OFFLINE']),
    termsAndConditions: z.string(),
    validityDays: int().describe('days an issued voucher stays valid, >= 1'),
    usageLimit: int().nullable().describe('most vouchers one user may hold in total; null: no limit'),
    maxPerDay: int().nullable().describe('most vouchers one user may buy per day; null: no limit'),
    maxPerOrder: int().nullable().describe('most vouchers in one reservation; null: no limit'),
  })
  .openapi('PoolTerms');

export const poolDisplay = z
  .object({
    title: z.string(),
    shortTitle: z.string(),
    brandName: z.string(),
    logoUrl: z.string(),
    bannerUrl: z.string(),
    thumbnailUrl: z.string(),
    description: z.string(),
  })
  .openapi('PoolDisplay');

const poolValidity = z
  .object({ startAt: instant('ISO 8601'), endAt: instant('after startAt') })
  .nullable()
  .describe('when its vouchers are on sale; null: always');

export const createPoolBody = z
  .object({
    campaignId: int().describe('an existing campaign'),
    categoryId: int(),
    miniAppIds: z.array(z.string()),
    display: poolDisplay,
    pricing: requiredObject(poolPricingSchema),
    totalQuantity: int().describe('initial stock, >= 0'),
    terms: requiredObject(poolTerms),
    validity: poolValidity,
  })
  .openapi('CreateVoucherPoolRequest');

export const addStockBody = z.object({ quantity: int().describe('vouchers to add, >= 1') }).openapi('AddStockRequest');

export const poolSchema = z
  .object({
    poolId: int(),
    campaignId: int(),
    categoryId: int(),
    miniAppIds: z.array(z.string()),
    status: z.enum(['ACTIVE', 'DELETED']),
    display: poolDisplay,
    validity: poolValidity,
    pricing: poolPricingSchema,
    terms: poolTerms,
    totalQuantity: int(),
    remainingQuantity: int().describe('on sale now'),
    reservedQuantity: int().describe('held by reservations not yet committed or released'),
    soldQuantity: int(),
  })
  .openapi('VoucherPool');

/** The operator API's envelope around `data`. */
export const operatorSuccess = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ code: z.literal('SUCCESS'), message: z.literal('Success'), data });

/** The operator API's failure envelope; a 400 names the offending field in data.field when there is one. */
export const operatorFailure = (code: string, withField = false) =>
  z.object({
    code: z.literal(code),
    message: z.string(),
    data: withField
      ? z.object({ field: z.string().describe('e.g. pricing.faceValue, banners[0].channelCode') }).nullable()
      : z.null(),
  });
