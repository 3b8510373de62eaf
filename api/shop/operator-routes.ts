/**
 * The shop's operator routes (/operator/v1), declared once: operator-router.ts mounts them and operator-openapi.ts
 * documents them (api/shared/route-spec.ts). Envelope, codes and headers: docs/shop-api.md, "Operator API".
 */
import { z } from 'zod';
import { successResponse, type ErrorCase } from '../shared/openapi.js';
import {
  badOperatorParam,
  badPositiveIdParam,
  operatorBaseErrors,
  operatorBodyErrors,
  operatorErrorResponses,
  operatorJsonBody,
  operatorNotFound,
  operatorRoute,
  type OperatorRouteConfig,
  positiveIdParam,
} from '../shared/operator-openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import {
  campaignBannerBody,
  categoryNameBody,
  categorySchema,
  updateCampaignBannerBody,
  updateCampaignBody,
  updatePoolBody,
} from './operator-catalog-schemas.js';
import {
  addStockBody,
  campaignSchema,
  campaignStatusBody,
  createCampaignBody,
  createPoolBody,
  issueApiKeyBody,
  merchantSchemas,
  operatorSuccess,
  poolPricingSchema,
  poolSchema,
  registerMerchantBody,
} from './operator-schemas.js';

export const operatorTags = {
  merchants: 'Operator: merchants',
  campaigns: 'Operator: campaigns',
  pools: 'Operator: voucher pools',
  categories: 'Operator: voucher categories',
} as const;

const actor = ' The operator of the token is recorded as the actor of the events it appends.';
const poolChange = 'Runs through the same serialised pool state as the purchases.';

const base = operatorBaseErrors;
const withBody = [...operatorBaseErrors, ...operatorBodyErrors];
const badMerchantId = badOperatorParam('`merchantId` is not a merchant code');
const endedConflict: ErrorCase = [409, 'OPS-CONFLICT', 'the campaign has ENDED and can no longer change'];

const merchantParams = z.object({ merchantId: z.string().describe('the merchant code') });
const categoryParams = z.object({ categoryId: positiveIdParam });
const campaignParams = z.object({ campaignId: positiveIdParam });
const bannerParams = z.object({ campaignId: positiveIdParam, bannerId: positiveIdParam });
const poolParams = z.object({ poolId: positiveIdParam });

const merchant = (spec: OperatorRouteConfig) => operatorRoute(operatorTags.merchants, spec);
const category = (spec: OperatorRouteConfig) => operatorRoute(operatorTags.categories, spec);
const campaign = (spec: OperatorRouteConfig) => operatorRoute(operatorTags.campaigns, spec);
const pool = (spec: OperatorRouteConfig) => operatorRoute(operatorTags.pools, spec);

export const shopOperatorRoutes = {
  // ---- merchants and API keys ----
  registerMerchant: merchant({
    method: 'post',
    path: '/merchants',
    operationId: 'registerMerchant',
    summary: 'Register a merchant and issue its first API key',
    description: `The raw key is in this answer only; it is stored as a hash.${actor}`,
    request: operatorJsonBody(registerMerchantBody),
    responses: {
      201: successResponse('Registered', operatorSuccess(merchantSchemas.registered)),
      ...operatorErrorResponses(...withBody, [409, 'OPS-CONFLICT', 'a merchant with this id exists']),
    },
  }),
  getMerchant: merchant({
    method: 'get',
    path: '/merchants/{merchantId}',
    operationId: 'getMerchant',
    summary: 'A merchant and its API keys (never a key itself)',
    request: { params: merchantParams },
    responses: {
      200: successResponse('The merchant', operatorSuccess(merchantSchemas.merchant)),
      ...operatorErrorResponses(...base, badMerchantId, operatorNotFound('merchant')),
    },
  }),
  issueApiKey: merchant({
    method: 'post',
    path: '/merchants/{merchantId}/api-keys',
    operationId: 'issueApiKey',
    summary: 'Issue another API key (shown once)',
    description: `The new key works at once; the merchant's other keys keep working.${actor}`,
    request: { params: merchantParams, ...operatorJsonBody(issueApiKeyBody) },
    responses: {
      201: successResponse('Issued', operatorSuccess(merchantSchemas.issuedApiKey)),
      ...operatorErrorResponses(...withBody, badMerchantId, operatorNotFound('merchant')),
    },
  }),
  revokeApiKey: merchant({
    method: 'post',
    path: '/merchants/{merchantId}/api-keys/{apiKeyId}/revoke',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: `The shop refuses the key from then on (401 \`SHOP-AUTH-002\`). Revoking a revoked key changes nothing.${actor}`,
    request: { params: merchantParams.extend({ apiKeyId: positiveIdParam }) },
    responses: {
      200: successResponse('The key, revoked', operatorSuccess(merchantSchemas.apiKey)),
      ...operatorErrorResponses(
        ...base,
        badMerchantId,
        badPositiveIdParam('apiKeyId'),
        operatorNotFound('merchant or key'),
      ),
    },
  }),

  // ---- voucher categories ----
  createCategory: category({
    method: 'post',
    path: '/voucher-categories',
    operationId: 'createVoucherCategory',
    summary: 'Create a voucher category',
    description: `Its id is what pools give as \`categoryId\` and the shop filters on (\`categoryIds\`). Once one category exists, pools must name an existing one.${actor}`,
    request: operatorJsonBody(categoryNameBody),
    responses: {
      201: successResponse('Created', operatorSuccess(categorySchema)),
      ...operatorErrorResponses(...withBody),
    },
  }),
  listCategories: category({
    method: 'get',
    path: '/voucher-categories',
    operationId: 'listVoucherCategories',
    summary: 'Every voucher category, in creation order',
    responses: {
      200: successResponse('The categories', operatorSuccess(z.array(categorySchema))),
      ...operatorErrorResponses(...base),
    },
  }),
  getCategory: category({
    method: 'get',
    path: '/voucher-categories/{categoryId}',
    operationId: 'getVoucherCategory',
    summary: 'A voucher category',
    request: { params: categoryParams },
    responses: {
      200: successResponse('The category', operatorSuccess(categorySchema)),
      ...operatorErrorResponses(...base, badPositiveIdParam('categoryId'), operatorNotFound('category')),
    },
  }),
  renameCategory: category({
    method: 'patch',
    path: '/voucher-categories/{categoryId}',
    operationId: 'renameVoucherCategory',
    summary: 'Rename a voucher category',
    description: actor.trim(),
    request: { params: categoryParams, ...operatorJsonBody(categoryNameBody) },
    responses: {
      200: successResponse('The category as it now is', operatorSuccess(categorySchema)),
      ...operatorErrorResponses(...withBody, badPositiveIdParam('categoryId'), operatorNotFound('category')),
    },
  }),

  // ---- campaigns and banners ----
  createCampaign: campaign({
    method: 'post',
    path: '/campaigns',
    operationId: 'createCampaign',
    summary: 'Create a campaign (status DRAFT)',
    description: `Text is trimmed and times are stored in UTC.${actor}`,
    request: operatorJsonBody(createCampaignBody),
    responses: {
      201: successResponse('Created', operatorSuccess(campaignSchema)),
      ...operatorErrorResponses(...withBody, [
        409,
        'OPS-CONFLICT',
        'the campaign code is already used (compared case-insensitively)',
      ]),
    },
  }),
  getCampaign: campaign({
    method: 'get',
    path: '/campaigns/{campaignId}',
    operationId: 'getCampaign',
    summary: 'A campaign',
    request: { params: campaignParams },
    responses: {
      200: successResponse('The campaign', operatorSuccess(campaignSchema)),
      ...operatorErrorResponses(...base, badPositiveIdParam('campaignId'), operatorNotFound('campaign')),
    },
  }),
  changeCampaignStatus: campaign({
    method: 'post',
    path: '/campaigns/{campaignId}/status',
    operationId: 'changeCampaignStatus',
    summary: "Change a campaign's status",
    description: `DRAFT → APPROVED → ACTIVE ⇄ PAUSED, ACTIVE or PAUSED → ENDED. Vouchers are on sale while the campaign is ACTIVE.${actor}`,
    request: { params: campaignParams, ...operatorJsonBody(campaignStatusBody) },
    responses: {
      200: successResponse('The campaign in its new status', operatorSuccess(campaignSchema)),
      ...operatorErrorResponses(...withBody, badPositiveIdParam('campaignId'), operatorNotFound('campaign'), [
        409,
        'OPS-CONFLICT',
        'the lifecycle has no such transition from the current status',
      ]),
    },
  }),
  updateCampaign: campaign({
    method: 'patch',
    path: '/campaigns/{campaignId}',
    operationId: 'updateCampaign',
    summary: "Change a campaign's details: name, description, tag, display priority, theme, window, presale",
    description: `Only the fields given change; nothing is appended when nothing changes.${actor}`,
    request: { params: campaignParams, ...operatorJsonBody(updateCampaignBody) },
    responses: {
      200: successResponse('The campaign as it now is', operatorSuccess(campaignSchema)),
      ...operatorErrorResponses(
        ...withBody,
        badPositiveIdParam('campaignId'),
        operatorNotFound('campaign'),
        endedConflict,
      ),
    },
  }),
  addBanner: campaign({
    method: 'post',
    path: '/campaigns/{campaignId}/banners',
    operationId: 'addCampaignBanner',
    summary: 'Add a banner to a campaign',
    description: `The banner gets a new id (in the answer's \`banners\`).${actor}`,
    request: { params: campaignParams, ...operatorJsonBody(campaignBannerBody) },
    responses: {
      201: successResponse('The campaign with the banner', operatorSuccess(campaignSchema)),
      ...operatorErrorResponses(
        ...withBody,
        badPositiveIdParam('campaignId'),
        operatorNotFound('campaign'),
        endedConflict,
      ),
    },
  }),
  updateBanner: campaign({
    method: 'patch',
    path: '/campaigns/{campaignId}/banners/{bannerId}',
    operationId: 'updateCampaignBanner',
    summary: 'Change some fields of a banner',
    request: { params: bannerParams, ...operatorJsonBody(updateCampaignBannerBody) },
    responses: {
      200: successResponse('The campaign as it now is', operatorSuccess(campaignSchema)),
      ...operatorErrorResponses(
        ...withBody,
        badPositiveIdParam('campaignId or bannerId'),
        operatorNotFound('campaign or banner'),
        endedConflict,
      ),
    },
  }),
  removeBanner: campaign({
    method: 'delete',
    path: '/campaigns/{campaignId}/banners/{bannerId}',
    operationId: 'removeCampaignBanner',
    summary: 'Remove a banner',
    description: actor.trim(),
    request: { params: bannerParams },
    responses: {
      200: successResponse('The campaign without the banner', operatorSuccess(campaignSchema)),
      ...operatorErrorResponses(
        ...base,
        badPositiveIdParam('campaignId or bannerId'),
        operatorNotFound('campaign or banner'),
        endedConflict,
      ),
    },
  }),

  // ---- voucher pools ----
  createPool: pool({
    method: 'post',
    path: '/voucher-pools',
    operationId: 'createVoucherPool',
    summary: 'Create a voucher pool in a campaign',
    description: `An unknown campaign is 400 with \`data.field\` = \`campaignId\`.${actor}`,
    request: operatorJsonBody(createPoolBody),
    responses: {
      201: successResponse('Created, with its full stock on sale', operatorSuccess(poolSchema)),
      ...operatorErrorResponses(...withBody),
    },
  }),
  getPool: pool({
    method: 'get',
    path: '/voucher-pools/{poolId}',
    operationId: 'getVoucherPool',
    summary: 'A voucher pool with its live stock',
    description: 'Read from the pool aggregate, not a projection.',
    request: { params: poolParams },
    responses: {
      200: successResponse('The pool', operatorSuccess(poolSchema)),
      ...operatorErrorResponses(...base, badPositiveIdParam('poolId'), operatorNotFound('pool')),
    },
  }),
  addStock: pool({
    method: 'post',
    path: '/voucher-pools/{poolId}/stock',
    operationId: 'addVoucherStock',
    summary: 'Add stock to a pool',
    description: `${poolChange}${actor}`,
    request: { params: poolParams, ...operatorJsonBody(addStockBody) },
    responses: {
      200: successResponse('The pool with its new stock', operatorSuccess(poolSchema)),
      ...operatorErrorResponses(...withBody, badPositiveIdParam('poolId'), operatorNotFound('pool, or it is deleted')),
    },
  }),
  repricePool: pool({
    method: 'post',
    path: '/voucher-pools/{poolId}/pricing',
    operationId: 'repriceVoucherPool',
    summary: "Change a pool's pricing",
    description: `The body is the new pricing; \`data.field\` names its fields as \`pricing.<field>\`. Reserves must then send the new sellingPrice. ${poolChange}${actor}`,
    request: { params: poolParams, ...operatorJsonBody(poolPricingSchema) },
    responses: {
      200: successResponse('The pool with its new pricing', operatorSuccess(poolSchema)),
      ...operatorErrorResponses(...withBody, badPositiveIdParam('poolId'), operatorNotFound('pool, or it is deleted')),
    },
  }),
  updatePool: pool({
    method: 'patch',
    path: '/voucher-pools/{poolId}',
    operationId: 'updateVoucherPool',
    summary: "Change a pool's display, terms, category, mini apps or validity",
    description: `One event per part that really changes; nothing when nothing does. New terms govern the next reserves. Once any category exists, \`categoryId\` must name one.${actor} ${poolChange}`,
    request: { params: poolParams, ...operatorJsonBody(updatePoolBody) },
    responses: {
      200: successResponse('The pool as it now is', operatorSuccess(poolSchema)),
      ...operatorErrorResponses(...withBody, badPositiveIdParam('poolId'), operatorNotFound('pool, or it is deleted')),
    },
  }),
  deletePool: pool({
    method: 'delete',
    path: '/voucher-pools/{poolId}',
    operationId: 'deleteVoucherPool',
    summary: 'Soft-delete a pool',
    description: `Reserve then answers 404 \`SHOP-VOU-001\`; existing reservations stay.${actor}`,
    request: { params: poolParams },
    responses: {
      200: successResponse('The pool, DELETED', operatorSuccess(poolSchema)),
      ...operatorErrorResponses(
        ...base,
        badPositiveIdParam('poolId'),
        operatorNotFound('pool, or it is already deleted'),
      ),
    },
  }),
} satisfies Record<string, RouteSpec>;
