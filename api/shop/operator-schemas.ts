/**
 * The operator API's bodies and answers as zod schemas. A body parsed by its schema is the typed command the
 * application services take: shape, types, lengths, formats, enums, URLs and date-times are checked here (a refusal
 * is 400 OPS-REQ-001 naming the field), text comes out trimmed and times in UTC; the rules between fields and against
 * the current state (a window, a lifecycle, a key's expiry ahead) stay with the deciders, which name the field the same
 * way. api/shared/openapi.ts documents the same schemas.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  bannerAssetTypes,
  bannerChannels,
  bannerPositions,
  campaignStatuses,
  maxCampaignBanners,
  currencies,
  merchantIdPattern,
} from '../../application/shop/index.js';

import { absoluteUrl, dateTimeInput, integer, matching, oneOf, text } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

export { dateTimeInput, text };

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });
const int = () => z.number().int();
/** A missing or null object is refused on its first field, as the services refuse it (e.g. `pricing.faceValue is required`). */
const requiredObject = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((value) => value ?? {}, schema);

// ---- the forms of operator input ----

/** 1 to 32 upper-case letters, digits or "_". */
const enumCode = (example: string) =>
  matching(/^[A-Z0-9_]{1,32}$/, `1 to 32 upper-case letters, digits or "_" (e.g. ${example})`);

// ---- merchants and API keys ----

export const registerMerchantBody = z
  .object({
    merchantId: matching(merchantIdPattern, '1 to 64 letters, digits, "_" or "-"').describe(
      'the merchant code shoppers send as X-Merchant-Id: 1 to 64 letters, digits, "_" or "-"',
    ),
    name: text(1, 200).describe('1 to 200 characters, trimmed'),
    apiKeyExpiresAt: dateTimeInput(
      'expiry of the first API key: a future ISO 8601 date-time with offset; null or absent for none',
    ).nullish(),
  })
  .openapi('RegisterMerchantRequest');

export const issueApiKeyBody = z
  .object({
    expiresAt: dateTimeInput('a future ISO 8601 date-time with offset; null or absent for none').nullish(),
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

/** A presale as an operator sets it. */
export const presaleInput = z.object({
  enabled: z.boolean(),
  startAt: dateTimeInput('before the campaign startAt'),
  countdownEnabled: z.boolean(),
  teaserText: text(0, 1000),
  teaserImageUrl: absoluteUrl(true).openapi({ format: 'uri', description: 'absolute http(s) URL' }),
});

const bannerFields = {
  channelCode: z.enum(bannerChannels),
  positionCode: z.enum(bannerPositions),
  assetUrl: z.string().openapi({ format: 'uri', description: 'absolute http(s) URL' }),
  assetType: z.enum(bannerAssetTypes),
  altText: z.string(),
  displayOrder: int(),
};

/** A banner's fields as an operator gives them. */
export const bannerInputFields = {
  channelCode: oneOf(bannerChannels),
  positionCode: oneOf(bannerPositions),
  assetUrl: absoluteUrl(true).openapi({ format: 'uri', description: 'absolute http(s) URL' }),
  assetType: oneOf(bannerAssetTypes),
  altText: text(0, 500),
  clickUrl: absoluteUrl(false).nullable().describe('absolute URL of any scheme (deep links allowed); null for none'),
  displayOrder: integer(0),
};

export const createCampaignBody = z
  .object({
    code: matching(/^[A-Za-z0-9_-]{1,64}$/, '1 to 64 letters, digits, "_" or "-"').describe(
      'unique (case-insensitively): 1 to 64 letters, digits, "_" or "-"',
    ),
    name: text(1, 200),
    description: text(0, 5000),
    campaignTag: enumCode('HOT_DEAL, FLASH_SALE').describe('upper-case code, e.g. HOT_DEAL, FLASH_SALE'),
    type: enumCode('SELL').describe('upper-case code, e.g. SELL'),
    displayPriority: integer(1).describe('>= 1'),
    themeUrl: absoluteUrl(true).openapi({ format: 'uri', description: 'absolute http(s) URL' }),
    startAt: dateTimeInput('ISO 8601 date-time with offset'),
    endAt: dateTimeInput('after startAt'),
    presale: presaleInput.nullable().default(null),
    banners: z
      .array(
        z
          .object({ ...bannerInputFields, clickUrl: bannerInputFields.clickUrl.default(null) })
          .openapi('NewCampaignBanner'),
      )
      .max(maxCampaignBanners, `must be an array of at most ${maxCampaignBanners}`),
  })
  .openapi('CreateCampaignRequest');

export const campaignStatusBody = z
  .object({ status: oneOf(campaignStatuses).describe('DRAFT → APPROVED → ACTIVE ⇄ PAUSED; ACTIVE or PAUSED → ENDED') })
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
    discountedPrice: int()
      .nullable()
      .describe(
        'null or equal to sellingPrice (the price the buyer pays); listings derive it from sellingPrice and faceValue',
      ),
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

/**
 * The optional X-Idempotency-Key of the operator's writes (docs/shop-api.md, "Operator API"): a resend with the same
 * key and body gets the first answer; another request under a used key is refused.
 */
export const operatorIdempotencyHeader = z
  .string()
  .regex(/^[\x21-\x7e]{1,128}$/)
  .optional()
  .openapi({ description: '1 to 128 printable ASCII characters without spaces; a UUID is best' });

/** The operator API's envelopes (api/shared/operator-openapi.ts), as the shop's schemas have always offered them. */
export { operatorFailure, operatorSuccess } from '../shared/operator-openapi.js';
