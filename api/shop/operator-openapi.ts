/**
 * The shop's operator API (/operator/v1, operator-router.ts) in the OpenAPI document, from the zod schemas the router
 * validates with. Its paths are restated here (the router does not declare route specs yet);
 * tests/api/openapi-routes.test.ts fails when the two differ.
 */
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  errorResponses,
  jsonContent,
  successResponse,
  type ErrorCase,
  type OpenApiRegistrar,
} from '../shared/openapi.js';
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
  operatorFailure,
  operatorSuccess,
  poolPricingSchema,
  poolSchema,
  registerMerchantBody,
} from './operator-schemas.js';

/** Where the operator API is served (container.ts mounts operator-router.ts there). */
import { operatorBasePath } from '../shared/operator-api.js';

const operatorBase: ErrorCase[] = [
  [401, 'OPS-AUTH-001', 'missing or unknown operator token'],
  [500, 'OPS-SYS-500', 'an unexpected failure'],
];
const operatorBody: ErrorCase[] = [
  [
    400,
    'OPS-REQ-001',
    'invalid input (malformed JSON, a wrong type, or a rule of the resource broken); `data.field` names the field',
  ],
  [413, 'OPS-REQ-413', 'body too large'],
  [415, 'OPS-REQ-415', '`Content-Type` is not `application/json`, or the body is not UTF-8'],
];
const badPath = (what: string): ErrorCase => [400, 'OPS-REQ-001', what];
const badMerchantId = badPath('`merchantId` is not a merchant code');
const badNumericId = (name: string) => badPath(`\`${name}\` is not a positive integer`);
const notFound = (what: string): ErrorCase => [404, 'OPS-NOT-FOUND', `no such ${what}`];
const operatorErrors = (...cases: ErrorCase[]) =>
  errorResponses(cases, (status, codes) => operatorFailure(codes[0], status === 400));

const positiveId = z.number().int().min(1);
const merchantParams = z.object({ merchantId: z.string().describe('the merchant code') });

export function registerShopOperatorOpenApi(api: OpenApiRegistrar): void {
  const { registry } = api;
  api.tag('Operator: merchants', 'Merchants and their API keys');
  api.tag('Operator: campaigns');
  api.tag('Operator: voucher pools');
  api.tag('Operator: voucher categories');

  const route = (config: Omit<RouteConfig, 'security' | 'tags'> & { tag: string }) => {
    const { tag, ...rest } = config;
    registry.registerPath({
      ...rest,
      tags: [tag],
      security: [{ operatorToken: [] }],
      path: `${operatorBasePath}${config.path}`,
    });
  };
  const body = (schema: z.ZodTypeAny) => ({ body: { required: true, content: jsonContent(schema) } });
  const actor = ' The operator of the token is recorded as the actor of the events it appends.';

  route({
    tag: 'Operator: merchants',
    method: 'post',
    path: '/merchants',
    operationId: 'registerMerchant',
    summary: 'Register a merchant and issue its first API key',
    description: `The raw key is in this answer only; it is stored as a hash.${actor}`,
    request: body(registerMerchantBody),
    responses: {
      201: successResponse('Registered', operatorSuccess(merchantSchemas.registered)),
      ...operatorErrors(...operatorBase, ...operatorBody, [409, 'OPS-CONFLICT', 'a merchant with this id exists']),
    },
  });
  route({
    tag: 'Operator: merchants',
    method: 'get',
    path: '/merchants/{merchantId}',
    operationId: 'getMerchant',
    summary: 'A merchant and its API keys (never a key itself)',
    request: { params: merchantParams },
    responses: {
      200: successResponse('The merchant', operatorSuccess(merchantSchemas.merchant)),
      ...operatorErrors(...operatorBase, badMerchantId, notFound('merchant')),
    },
  });
  route({
    tag: 'Operator: merchants',
    method: 'post',
    path: '/merchants/{merchantId}/api-keys',
    operationId: 'issueApiKey',
    summary: 'Issue another API key (shown once)',
    description: `The new key works at once; the merchant's other keys keep working.${actor}`,
    request: { params: merchantParams, ...body(issueApiKeyBody) },
    responses: {
      201: successResponse('Issued', operatorSuccess(merchantSchemas.issuedApiKey)),
      ...operatorErrors(...operatorBase, ...operatorBody, badMerchantId, notFound('merchant')),
    },
  });
  route({
    tag: 'Operator: merchants',
    method: 'post',
    path: '/merchants/{merchantId}/api-keys/{apiKeyId}/revoke',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: `The shop refuses the key from then on (401 \`SHOP-AUTH-002\`). Revoking a revoked key changes nothing.${actor}`,
    request: { params: merchantParams.extend({ apiKeyId: positiveId }) },
    responses: {
      200: successResponse('The key, revoked', operatorSuccess(merchantSchemas.apiKey)),
      ...operatorErrors(...operatorBase, badMerchantId, badNumericId('apiKeyId'), notFound('merchant or key')),
    },
  });

  const campaignParams = z.object({ campaignId: positiveId });
  route({
    tag: 'Operator: campaigns',
    method: 'post',
    path: '/campaigns',
    operationId: 'createCampaign',
    summary: 'Create a campaign (status DRAFT)',
    description: `Text is trimmed and times are stored in UTC.${actor}`,
    request: body(createCampaignBody),
    responses: {
      201: successResponse('Created', operatorSuccess(campaignSchema)),
      ...operatorErrors(...operatorBase, ...operatorBody, [
        409,
        'OPS-CONFLICT',
        'the campaign code is already used (compared case-insensitively)',
      ]),
    },
  });
  route({
    tag: 'Operator: campaigns',
    method: 'get',
    path: '/campaigns/{campaignId}',
    operationId: 'getCampaign',
    summary: 'A campaign',
    request: { params: campaignParams },
    responses: {
      200: successResponse('The campaign', operatorSuccess(campaignSchema)),
      ...operatorErrors(...operatorBase, badNumericId('campaignId'), notFound('campaign')),
    },
  });
  route({
    tag: 'Operator: campaigns',
    method: 'post',
    path: '/campaigns/{campaignId}/status',
    operationId: 'changeCampaignStatus',
    summary: "Change a campaign's status",
    description: `DRAFT → APPROVED → ACTIVE ⇄ PAUSED, ACTIVE or PAUSED → ENDED. Vouchers are on sale while the campaign is ACTIVE.${actor}`,
    request: { params: campaignParams, ...body(campaignStatusBody) },
    responses: {
      200: successResponse('The campaign in its new status', operatorSuccess(campaignSchema)),
      ...operatorErrors(...operatorBase, ...operatorBody, badNumericId('campaignId'), notFound('campaign'), [
        409,
        'OPS-CONFLICT',
        'the lifecycle has no such transition from the current status',
      ]),
    },
  });

  const poolParams = z.object({ poolId: positiveId });
  const poolChange = 'Runs through the same serialised pool state as the purchases.';
  route({
    tag: 'Operator: voucher pools',
    method: 'post',
    path: '/voucher-pools',
    operationId: 'createVoucherPool',
    summary: 'Create a voucher pool in a campaign',
    description: `An unknown campaign is 400 with \`data.field\` = \`campaignId\`.${actor}`,
    request: body(createPoolBody),
    responses: {
      201: successResponse('Created, with its full stock on sale', operatorSuccess(poolSchema)),
      ...operatorErrors(...operatorBase, ...operatorBody),
    },
  });
  route({
    tag: 'Operator: voucher pools',
    method: 'get',
    path: '/voucher-pools/{poolId}',
    operationId: 'getVoucherPool',
    summary: 'A voucher pool with its live stock',
    description: 'Read from the pool aggregate, not a projection.',
    request: { params: poolParams },
    responses: {
      200: successResponse('The pool', operatorSuccess(poolSchema)),
      ...operatorErrors(...operatorBase, badNumericId('poolId'), notFound('pool')),
    },
  });
  route({
    tag: 'Operator: voucher pools',
    method: 'post',
    path: '/voucher-pools/{poolId}/stock',
    operationId: 'addVoucherStock',
    summary: 'Add stock to a pool',
    description: `${poolChange}${actor}`,
    request: { params: poolParams, ...body(addStockBody) },
    responses: {
      200: successResponse('The pool with its new stock', operatorSuccess(poolSchema)),
      ...operatorErrors(...operatorBase, ...operatorBody, badNumericId('poolId'), notFound('pool, or it is deleted')),
    },
  });
  route({
    tag: 'Operator: voucher pools',
    method: 'post',
    path: '/voucher-pools/{poolId}/pricing',
    operationId: 'repriceVoucherPool',
    summary: "Change a pool's pricing",
    description: `The body is the new pricing; \`data.field\` names its fields as \`pricing.<field>\`. Reserves must then send the new sellingPrice. ${poolChange}${actor}`,
    request: { params: poolParams, ...body(poolPricingSchema) },
    responses: {
      200: successResponse('The pool with its new pricing', operatorSuccess(poolSchema)),
      ...operatorErrors(...operatorBase, ...operatorBody, badNumericId('poolId'), notFound('pool, or it is deleted')),
    },
  });
  route({
    tag: 'Operator: voucher pools',
    method: 'delete',
    path: '/voucher-pools/{poolId}',
    operationId: 'deleteVoucherPool',
    summary: 'Soft-delete a pool',
    description: `Reserve then answers 404 \`SHOP-VOU-001\`; existing reservations stay.${actor}`,
    request: { params: poolParams },
    responses: {
      200: successResponse('The pool, DELETED', operatorSuccess(poolSchema)),
      ...operatorErrors(...operatorBase, badNumericId('poolId'), notFound('pool, or it is already deleted')),
    },
  });
  route({
    tag: 'Operator: voucher pools',
    method: 'patch',
    path: '/voucher-pools/{poolId}',
    operationId: 'updateVoucherPool',
    summary: "Change a pool's display, terms, category, mini apps or validity",
    description: `One event per part that really changes; nothing when nothing does. New terms govern the next reserves. Once any category exists, \`categoryId\` must name one.${actor} ${poolChange}`,
    request: { params: poolParams, ...body(updatePoolBody) },
    responses: {
      200: successResponse('The pool as it now is', operatorSuccess(poolSchema)),
      ...operatorErrors(...operatorBase, ...operatorBody, badNumericId('poolId'), notFound('pool, or it is deleted')),
    },
  });

  const endedConflict: ErrorCase = [409, 'OPS-CONFLICT', 'the campaign has ENDED and can no longer change'];
  route({
    tag: 'Operator: campaigns',
    method: 'patch',
    path: '/campaigns/{campaignId}',
    operationId: 'updateCampaign',
    summary: "Change a campaign's details: name, description, tag, display priority, theme, window, presale",
    description: `Only the fields given change; nothing is appended when nothing changes.${actor}`,
    request: { params: campaignParams, ...body(updateCampaignBody) },
    responses: {
      200: successResponse('The campaign as it now is', operatorSuccess(campaignSchema)),
      ...operatorErrors(
        ...operatorBase,
        ...operatorBody,
        badNumericId('campaignId'),
        notFound('campaign'),
        endedConflict,
      ),
    },
  });
  const bannerParams = z.object({ campaignId: positiveId, bannerId: positiveId });
  route({
    tag: 'Operator: campaigns',
    method: 'post',
    path: '/campaigns/{campaignId}/banners',
    operationId: 'addCampaignBanner',
    summary: 'Add a banner to a campaign',
    description: `The banner gets a new id (in the answer's \`banners\`).${actor}`,
    request: { params: campaignParams, ...body(campaignBannerBody) },
    responses: {
      201: successResponse('The campaign with the banner', operatorSuccess(campaignSchema)),
      ...operatorErrors(
        ...operatorBase,
        ...operatorBody,
        badNumericId('campaignId'),
        notFound('campaign'),
        endedConflict,
      ),
    },
  });
  route({
    tag: 'Operator: campaigns',
    method: 'patch',
    path: '/campaigns/{campaignId}/banners/{bannerId}',
    operationId: 'updateCampaignBanner',
    summary: 'Change some fields of a banner',
    request: { params: bannerParams, ...body(updateCampaignBannerBody) },
    responses: {
      200: successResponse('The campaign as it now is', operatorSuccess(campaignSchema)),
      ...operatorErrors(
        ...operatorBase,
        ...operatorBody,
        badNumericId('campaignId or bannerId'),
        notFound('campaign or banner'),
        endedConflict,
      ),
    },
  });
  route({
    tag: 'Operator: campaigns',
    method: 'delete',
    path: '/campaigns/{campaignId}/banners/{bannerId}',
    operationId: 'removeCampaignBanner',
    summary: 'Remove a banner',
    description: actor.trim(),
    request: { params: bannerParams },
    responses: {
      200: successResponse('The campaign without the banner', operatorSuccess(campaignSchema)),
      ...operatorErrors(
        ...operatorBase,
        badNumericId('campaignId or bannerId'),
        notFound('campaign or banner'),
        endedConflict,
      ),
    },
  });

  const categoryParams = z.object({ categoryId: positiveId });
  route({
    tag: 'Operator: voucher categories',
    method: 'post',
    path: '/voucher-categories',
    operationId: 'createVoucherCategory',
    summary: 'Create a voucher category',
    description: `Its id is what pools give as \`categoryId\` and the shop filters on (\`categoryIds\`). Once one category exists, pools must name an existing one.${actor}`,
    request: body(categoryNameBody),
    responses: {
      201: successResponse('Created', operatorSuccess(categorySchema)),
      ...operatorErrors(...operatorBase, ...operatorBody),
    },
  });
  route({
    tag: 'Operator: voucher categories',
    method: 'get',
    path: '/voucher-categories',
    operationId: 'listVoucherCategories',
    summary: 'Every voucher category, in creation order',
    responses: {
      200: successResponse('The categories', operatorSuccess(z.array(categorySchema))),
      ...operatorErrors(...operatorBase),
    },
  });
  route({
    tag: 'Operator: voucher categories',
    method: 'get',
    path: '/voucher-categories/{categoryId}',
    operationId: 'getVoucherCategory',
    summary: 'A voucher category',
    request: { params: categoryParams },
    responses: {
      200: successResponse('The category', operatorSuccess(categorySchema)),
      ...operatorErrors(...operatorBase, badNumericId('categoryId'), notFound('category')),
    },
  });
  route({
    tag: 'Operator: voucher categories',
    method: 'patch',
    path: '/voucher-categories/{categoryId}',
    operationId: 'renameVoucherCategory',
    summary: 'Rename a voucher category',
    description: actor.trim(),
    request: { params: categoryParams, ...body(categoryNameBody) },
    responses: {
      200: successResponse('The category as it now is', operatorSuccess(categorySchema)),
      ...operatorErrors(...operatorBase, ...operatorBody, badNumericId('categoryId'), notFound('category')),
    },
  });
}
