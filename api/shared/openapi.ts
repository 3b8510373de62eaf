/**
 * The OpenAPI 3 document of every interface this service serves, generated
 * from the zod schemas the routers validate with. Status codes and error
 * codes follow docs/shop-api.md; each error response lists the codes that
 * status can carry on that operation.
 */
import {
  campaignListQuery,
  carouselQuery,
  channelQuery,
  idParams,
  shopCampaignSchema,
  shopPage,
  shopVoucherSchema,
  voucherListQuery,
} from '../shop/catalog-schemas.js';
import {
  OpenAPIRegistry,
  OpenApiGeneratorV3,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
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
} from '../shop/operator-schemas.js';
import {
  campaignBannerBody,
  categoryNameBody,
  categorySchema,
  updateCampaignBannerBody,
  updateCampaignBody,
  updatePoolBody,
} from '../shop/operator-catalog-schemas.js';
import {
  committedData,
  purchaseHeaders,
  releaseBody,
  releasedData,
  reservationData,
  reservationKeyBody,
  reservationLookupParams,
  reservedData,
  reserveBody,
  reserveHeaders,
  shopFailure,
  shopSuccess,
} from '../shop/schemas.js';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV3['generateDocument']>;

/** Every answer carries X-Request-Id (api/shared/request-context.ts). */
const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
const json = (schema: z.ZodTypeAny) => ({ 'application/json': { schema } });

/** [HTTP status, code, when] */
type ErrorCase = [number, string, string];

const statusNames: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  500: 'Internal error',
};

/** One response per status; its description lists each code and when it is given. */
function errorResponses(
  cases: ErrorCase[],
  envelope: (status: number, codes: [string, ...string[]]) => z.ZodTypeAny,
): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ErrorCase[]>();
  for (const c of cases) byStatus.set(c[0], [...(byStatus.get(c[0]) ?? []), c]);
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, list] of byStatus) {
    const whenByCode = new Map<string, string[]>();
    for (const [, code, when] of list) whenByCode.set(code, [...(whenByCode.get(code) ?? []), when]);
    const codes = [...whenByCode.keys()] as [string, ...string[]];
    responses[status] = {
      description: `${statusNames[status]}:\n\n${codes.map((code) => `- \`${code}\`: ${whenByCode.get(code)!.join('; ')}`).join('\n')}`,
      headers: requestIdHeader,
      content: json(envelope(status, codes)),
    };
  }
  return responses;
}

const success = (description: string, envelope: z.ZodTypeAny): ResponseConfig => ({
  description,
  headers: requestIdHeader,
  content: json(envelope),
});

// ---- the shop interface (/api/v1) ----

const shopSecurity = [{ clientId: [], clientSecret: [], promotionApiKey: [], merchantId: [] }];

const shopCallErrors: ErrorCase[] = [
  [
    400,
    'SHOP-REQ-001',
    'a missing or invalid header (X-Request-Id, X-User-Id), field or path value (the message names it)',
  ],
  [401, 'SHOP-AUTH-001', '`client_id`/`client_secret` missing or wrong'],
  [401, 'SHOP-AUTH-002', '`X-Promotion-Api-Key` missing, unknown, revoked or expired (the message says which)'],
  [401, 'SHOP-AUTH-003', '`X-Merchant-Id` missing'],
  [403, 'SHOP-AUTH-004', 'the key is valid but belongs to another merchant'],
  [500, 'SHOP-SYS-500', 'an unexpected failure; safe to retry with the same `X-Idempotency-Key`'],
];
const shopBodyErrors: ErrorCase[] = [
  [400, 'SHOP-REQ-001', 'the body is not valid JSON'],
  [413, 'SHOP-REQ-413', 'body larger than 64 kB'],
  [415, 'SHOP-REQ-415', '`Content-Type` is not `application/json`, or the body is not UTF-8'],
];
const shopErrors = (...cases: ErrorCase[]) => errorResponses(cases, (_status, codes) => shopFailure(codes));

const catalogHeaders = z.object({
  'X-Request-Id': z.string().uuid().describe('unique request id (UUID)'),
  'X-User-Id': z.string().optional().describe('the customer; when sent, vouchers carry userPurchaseUsage'),
});

function registerShopCatalog(registry: OpenAPIRegistry): void {
  const common: Pick<RouteConfig, 'tags' | 'security'> = { tags: ['Shop: catalog'], security: shopSecurity };
  const page = (item: z.ZodTypeAny) => shopSuccess(shopPage(item));
  const eventual = ' Read from projections: eventually consistent with the purchase flow (lag on /metrics).';
  const searchQuery = voucherListQuery.pick({ tag: true, tags: true, channel: true, page: true }).extend({
    q: z.string().describe('keyword, at least 2 characters, UTF-8 percent-encoded; diacritics optional'),
    size: z.string().optional().describe('default 20; an integer >= 1; above 100 it is clamped to 100'),
  });
  const paths: [string, string, string, z.AnyZodObject, z.ZodTypeAny, ErrorCase[], z.AnyZodObject?][] = [
    ['/api/v1/vouchers', 'listVouchers', '1. Vouchers on sale', voucherListQuery, page(shopVoucherSchema), []],
    [
      '/api/v1/vouchers/{id}',
      'getVoucher',
      '2. Voucher detail',
      channelQuery,
      shopSuccess(shopVoucherSchema),
      [[404, 'SHOP-VOU-001', 'voucher pool missing, deleted or not on sale']],
      idParams,
    ],
    [
      '/api/v1/vouchers/search',
      'searchVouchers',
      '3. Keyword search (Vietnamese, diacritics optional)',
      searchQuery,
      page(shopVoucherSchema),
      [[400, 'SHOP-VOU-002', 'q shorter than 2 characters']],
    ],
    [
      '/api/v1/campaigns/carousel',
      'campaignCarousel',
      '4. Home carousel campaigns',
      carouselQuery,
      page(shopCampaignSchema),
      [],
    ],
    ['/api/v1/campaigns', 'listCampaigns', '5. Campaigns', campaignListQuery, page(shopCampaignSchema), []],
    [
      '/api/v1/campaigns/{id}',
      'getCampaign',
      '6. Campaign detail',
      channelQuery,
      shopSuccess(shopCampaignSchema),
      [[404, 'SHOP-CAM-001', 'campaign missing or not APPROVED and ACTIVE']],
      idParams,
    ],
  ];
  for (const [path, operationId, summary, query, answer, errors, params] of paths) {
    registry.registerPath({
      ...common,
      method: 'get',
      path,
      operationId,
      summary,
      description: `See docs/shop-api.md, "Catalog".${eventual}`,
      request: { headers: catalogHeaders, query, ...(params ? { params } : {}) },
      responses: { 200: success(summary, answer), ...shopErrors(...shopCallErrors, ...errors) },
    });
  }
}

function registerShopPurchase(registry: OpenAPIRegistry): void {
  const common: Pick<RouteConfig, 'tags' | 'security'> = { tags: ['Shop: purchase'], security: shopSecurity };

  registry.registerPath({
    ...common,
    method: 'post',
    path: '/api/v1/vouchers/reserve',
    operationId: 'reserveVouchers',
    summary: '7. Reserve vouchers for checkout',
    description:
      'Holds stock and issues voucher codes, all pools of the request or none. A resend under a used `X-Idempotency-Key` with the same body gets the first answer (`SHOP_IDEMPOTENCY_MODE=replay`, the default) or 409 `SHOP-PUR-011` (`reject`); another body under a used key is always 409.',
    request: { headers: reserveHeaders, body: { required: true, content: json(reserveBody) } },
    responses: {
      200: success('Reserved: stock held, voucher codes issued', shopSuccess(reservedData)),
      ...shopErrors(
        ...shopCallErrors,
        ...shopBodyErrors,
        [400, 'SHOP-PUR-001', '`amount` differs from unitPrice × quantity'],
        [400, 'SHOP-PUR-012', 'pool sold out or not enough stock'],
        [400, 'SHOP-PUR-014', "`unitPrice` differs from the pool's current sellingPrice"],
        [400, 'SHOP-PUR-015', "`currency` differs from the pool's currency"],
        [400, 'SHOP-PUR-016', 'daily, total or per-order purchase limit exceeded'],
        [404, 'SHOP-VOU-001', 'pool missing or deleted'],
        [
          409,
          'SHOP-PUR-011',
          'order id already used by another reservation, or the idempotency key reused with another body',
        ],
      ),
    },
  });

  registry.registerPath({
    ...common,
    method: 'post',
    path: '/api/v1/vouchers/commit',
    operationId: 'commitReservation',
    summary: '8. Commit a reservation after payment success',
    description:
      'The vouchers go to the user. Repeating it creates no new side effect and is answered with 400 `SHOP-PUR-006`.',
    request: { headers: purchaseHeaders, body: { required: true, content: json(reservationKeyBody) } },
    responses: {
      200: success('Committed', shopSuccess(committedData)),
      ...shopErrors(
        ...shopCallErrors,
        ...shopBodyErrors,
        [400, 'SHOP-PUR-006', 'the reservation is already committed, released or expired'],
        [404, 'SHOP-PUR-003', "reservation missing or not the user's"],
      ),
    },
  });

  registry.registerPath({
    ...common,
    method: 'post',
    path: '/api/v1/vouchers/release',
    operationId: 'releaseReservation',
    summary: '9. Release a reservation (payment failed or cancelled)',
    description:
      "Returns the stock and the user's purchase quota. Repeating it creates no new side effect and is answered with 400 `SHOP-PUR-007`.",
    request: { headers: purchaseHeaders, body: { required: true, content: json(releaseBody) } },
    responses: {
      200: success('Released', shopSuccess(releasedData)),
      ...shopErrors(
        ...shopCallErrors,
        ...shopBodyErrors,
        [400, 'SHOP-PUR-007', 'the reservation is already released or committed'],
        [400, 'SHOP-PUR-006', 'the reservation expired (only with `SHOP_RESERVATION_AUTO_EXPIRY=true`)'],
        [404, 'SHOP-PUR-003', "reservation missing or not the user's"],
      ),
    },
  });

  registry.registerPath({
    ...common,
    method: 'get',
    path: '/api/v1/vouchers/reservation/{key}',
    operationId: 'getReservation',
    summary: '10. Look up a reservation',
    description: 'Reads the reservation aggregate (strongly consistent): for polling or verification before acting.',
    request: { headers: purchaseHeaders, params: reservationLookupParams },
    responses: {
      200: success('The reservation', shopSuccess(reservationData)),
      ...shopErrors(...shopCallErrors, [404, 'SHOP-PUR-003', "reservation missing or not the user's"]),
    },
  });
}

// ---- the operator API (/operator/v1) ----

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

function registerShopOperator(registry: OpenAPIRegistry): void {
  const route = (config: Omit<RouteConfig, 'security' | 'tags'> & { tag: string }) => {
    const { tag, ...rest } = config;
    registry.registerPath({
      ...rest,
      tags: [tag],
      security: [{ operatorToken: [] }],
      path: `/operator/v1${config.path}`,
    });
  };
  const body = (schema: z.ZodTypeAny) => ({ body: { required: true, content: json(schema) } });
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
      201: success('Registered', operatorSuccess(merchantSchemas.registered)),
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
      200: success('The merchant', operatorSuccess(merchantSchemas.merchant)),
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
      201: success('Issued', operatorSuccess(merchantSchemas.issuedApiKey)),
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
      200: success('The key, revoked', operatorSuccess(merchantSchemas.apiKey)),
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
      201: success('Created', operatorSuccess(campaignSchema)),
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
      200: success('The campaign', operatorSuccess(campaignSchema)),
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
      200: success('The campaign in its new status', operatorSuccess(campaignSchema)),
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
      201: success('Created, with its full stock on sale', operatorSuccess(poolSchema)),
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
      200: success('The pool', operatorSuccess(poolSchema)),
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
      200: success('The pool with its new stock', operatorSuccess(poolSchema)),
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
      200: success('The pool with its new pricing', operatorSuccess(poolSchema)),
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
      200: success('The pool, DELETED', operatorSuccess(poolSchema)),
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
      200: success('The pool as it now is', operatorSuccess(poolSchema)),
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
      200: success('The campaign as it now is', operatorSuccess(campaignSchema)),
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
      201: success('The campaign with the banner', operatorSuccess(campaignSchema)),
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
      200: success('The campaign as it now is', operatorSuccess(campaignSchema)),
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
      200: success('The campaign without the banner', operatorSuccess(campaignSchema)),
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
      201: success('Created', operatorSuccess(categorySchema)),
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
      200: success('The categories', operatorSuccess(z.array(categorySchema))),
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
      200: success('The category', operatorSuccess(categorySchema)),
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
      200: success('The category as it now is', operatorSuccess(categorySchema)),
      ...operatorErrors(...operatorBase, ...operatorBody, badNumericId('categoryId'), notFound('category')),
    },
  });
}

// ---- operations (served by http-app) ----

function registerOperations(registry: OpenAPIRegistry): void {
  const tags = ['Operations'];
  registry.registerPath({
    tags,
    method: 'get',
    path: '/health',
    operationId: 'health',
    summary: 'Liveness',
    responses: { 200: success('The process is up', z.object({ status: z.literal('UP') })) },
  });
  const readiness = z.object({
    status: z.enum(['READY', 'NOT_READY']),
    checks: z.record(z.boolean()).describe('each dependency and whether it answers'),
  });
  registry.registerPath({
    tags,
    method: 'get',
    path: '/ready',
    operationId: 'ready',
    summary: 'Readiness: every dependency this process needs answers',
    responses: { 200: success('Ready', readiness), 503: success('Not ready', readiness) },
  });
  registry.registerPath({
    tags,
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics: relay position, projector lag, dead letters, process metrics',
    responses: {
      200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: z.string() } } },
    },
  });
}

// ---- the document ----

function registerComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('headers', 'RequestId', {
    description:
      "the caller's X-Request-Id when it is a sane token (1 to 128 printable characters), a fresh UUID otherwise",
    schema: { type: 'string' },
  });
  const header = (name: string, description: string) => ({
    type: 'apiKey' as const,
    in: 'header' as const,
    name,
    description,
  });
  registry.registerComponent('securitySchemes', 'clientId', header('client_id', 'gateway client id (SHOP_CLIENT_ID)'));
  registry.registerComponent(
    'securitySchemes',
    'clientSecret',
    header('client_secret', 'gateway client secret (SHOP_CLIENT_SECRET)'),
  );
  registry.registerComponent(
    'securitySchemes',
    'promotionApiKey',
    header('X-Promotion-Api-Key', "the merchant's API key, issued by the operator API"),
  );
  registry.registerComponent('securitySchemes', 'merchantId', header('X-Merchant-Id', "the key's merchant"));
  registry.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'a token of OPERATOR_TOKENS (name=token,…); its name is recorded as the actor of every change',
  });
}

/** The OpenAPI 3.0 document of the shop interface and its operator API. */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerComponents(registry);
  registerShopCatalog(registry);
  registerShopPurchase(registry);
  registerShopOperator(registry);
  registerOperations(registry);
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Super-app commerce backend',
      version: '1.0.0',
      description: [
        'The voucher shop (`/api/v1`) and its operator API (`/operator/v1`).',
        'Every answer is the envelope `{code, message, data}`: `SUCCESS`/`Success` on success; on failure `data` is null (the operator API puts the offending field in `data.field`) and `message` says what was wrong.',
        'Amounts are integers in minor units; times are ISO 8601. Details and the resolved contradictions of the spec: docs/shop-api.md.',
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'this service' }],
    tags: [
      { name: 'Shop: catalog', description: 'Endpoints 1 to 6 of the shop interface' },
      { name: 'Shop: purchase', description: 'Endpoints 7 to 10 of the shop interface' },
      { name: 'Operator: merchants', description: 'Merchants and their API keys' },
      { name: 'Operator: campaigns' },
      { name: 'Operator: voucher pools' },
      {
        name: 'Operations',
        description: 'Health, readiness and metrics; this document is at /openapi.json and browsable at /docs',
      },
    ],
  });
}
