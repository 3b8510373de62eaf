/**
 * The routes of the order view interface (docs/orders.md), declared once: the routers mount them, openapi.ts
 * documents them and the gateway in front of the interface rate-limits each (gateway.ts).
 */
import { z } from 'zod';
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errorResponses, jsonContent, successResponse, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { ordersCodes, ordersGatewayRefusals, webhookErrorTable } from './errors.js';
import { cancelledBody, createdBody, updatedBody } from './webhook-schemas.js';

export const ordersBasePath = '/order/cov';
export const webhooksTag = 'Order view: webhooks';

/** The order view's success envelope around `data`. */
export const ordersSuccess = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ code: z.literal(0), message: z.literal('Success'), data });

/** Its failure envelope: one of `codes` (numbers), a message, data naming the field where one is at fault. */
export const ordersFailure = (codes: [string, ...string[]]) =>
  z.object({
    code: z
      .number()
      .int()
      .openapi({ enum: codes.map(Number) }),
    message: z.string().describe('what was wrong'),
    data: z
      .object({ field: z.string().optional(), limit: z.number().optional() })
      .nullable()
      .describe('`field` names the field at fault (`order.items[0].quantity`); null otherwise'),
  });

/** What any call of the interface can get from the gateway in front of it, and the 500. */
export const gatewayErrors: ErrorCase[] = [
  [
    ordersGatewayRefusals.CREDENTIALS_MISSING[0],
    ordersCodes.gatewayCredentialsMissing,
    'gateway: no `client_id`/`client_secret`',
  ],
  [
    ordersGatewayRefusals.CREDENTIALS_INVALID[0],
    ordersCodes.gatewayCredentialsInvalid,
    'gateway: wrong `client_id`/`client_secret`',
  ],
  [400, ordersCodes.environmentMismatch, 'gateway: the `env` header names another environment'],
  [403, ordersCodes.interfaceNotGranted, 'gateway: the party is not granted the orders interface'],
  [403, ordersCodes.ipNotAllowed, "gateway: the caller's address is not on the party's allowlist"],
  [429, ordersCodes.rateLimited, 'gateway: rate limit reached (see `Retry-After`)'],
  [500, ordersCodes.internal, 'an unexpected failure'],
  [503, ordersCodes.internal, 'the database is away or starting (see `Retry-After`)'],
];

const webhookErrors: ErrorCase[] = [
  ...gatewayErrors,
  [400, ordersCodes.invalidRequest, 'a field breaks a rule (`data.field` names it), or the body is not a JSON object'],
  [400, ordersCodes.requestIdInvalid, '`X-Request-Id` missing or not a UUID v4'],
  [
    webhookErrorTable.EVENT_TIMESTAMP_OUT_OF_WINDOW[0],
    webhookErrorTable.EVENT_TIMESTAMP_OUT_OF_WINDOW[1],
    '`event_timestamp` too old or ahead of the clock',
  ],
  [401, ordersCodes.apiKeyMissing, '`X-API-Key` missing'],
  [401, ordersCodes.apiKeyMalformed, '`X-API-Key` not of the form `ak_{live|test}_{32 letters or digits}`'],
  [401, ordersCodes.apiKeyInvalid, '`X-API-Key` unknown, revoked, or retired after a rotation'],
  [
    401,
    ordersCodes.apiKeyWrongEnvironment,
    '`X-API-Key` of the other environment (a test key on live, or the reverse)',
  ],
  [
    401,
    ordersCodes.secureHashMismatch,
    "`secure_hash` is not the HMAC of the string to sign under the key's secretKey, or another webhook (body, endpoint or order) took it already",
  ],
  [409, webhookErrorTable.IDEMPOTENCY_KEY_REUSED[1], 'this `X-Request-Id` was used for another request'],
  [413, ordersCodes.bodyTooLarge, 'body too large'],
  [415, ordersCodes.notJson, '`Content-Type` is not `application/json`'],
];

const headers = z.object({
  'X-API-Key': z.string().openapi({ example: 'ak_test_0123456789abcdefghijABCDEFGHIJ01' }),
  'X-Request-Id': z.string().uuid().openapi({ description: 'UUID v4, unique per request (idempotency)' }),
});

const answer = z
  .object({
    order_id: z.string(),
    event: z.enum(['order.created', 'order.updated', 'order.cancelled']),
    outcome: z.enum(['CREATED', 'APPLIED', 'STALE', 'PARKED', 'DUPLICATE']),
    applied_fields: z.array(z.string()),
    stale_fields: z.array(z.string()),
    early_applied: z.number().int(),
    early_discarded: z.number().int(),
    warnings: z.array(z.string()),
  })
  .openapi('OrderWebhookAnswer');

const responses = (...cases: ErrorCase[]): Record<string, ResponseConfig> => ({
  200: successResponse(
    'Accepted (see `outcome`); an identical resend under its X-Request-Id gets this answer again',
    ordersSuccess(answer),
  ),
  ...errorResponses([...webhookErrors, ...cases], (_status, codes) => ordersFailure(codes)),
});

const webhook = (
  path: string,
  operationId: string,
  summary: string,
  body: z.ZodTypeAny,
  ...cases: ErrorCase[]
): RouteSpec => ({
  tags: [webhooksTag],
  security: [{ clientId: [], clientSecret: [] }],
  method: 'post',
  path,
  operationId,
  summary,
  description:
    'Signed with `secure_hash` (docs/orders-signing.md, "Signing"). Late, early and repeated events are accepted (docs/orders-ordering.md, "Ordering").',
  request: { headers, body: { required: true, content: jsonContent(body) } },
  responses: responses(...cases),
});

export const webhookRoutes = {
  created: webhook('/webhook/v1/orders/created', 'orderCreatedWebhook', 'order.created: a new order', createdBody, [
    409,
    webhookErrorTable.ORDER_ALREADY_CREATED[1],
    'the order was created already with other content',
  ]),
  updated: webhook(
    '/webhook/v1/orders/updated',
    'orderUpdatedWebhook',
    'order.updated: anything changed',
    updatedBody,
    [
      409,
      webhookErrorTable.ORDER_FIELD_IMMUTABLE[1],
      'a field the created fixes (`business_unit_id`, `branch_id`, `seller_merchant_id`, `customer`, `deeplink`) differs from it',
    ],
    [409, webhookErrorTable.TOO_MANY_EARLY_EVENTS[1], "too many events wait for this order's created"],
  ),
  cancelled: webhook(
    '/webhook/v1/orders/cancelled',
    'orderCancelledWebhook',
    'order.cancelled: cancelled by the customer or the system',
    cancelledBody,
    [
      409,
      webhookErrorTable.ORDER_FIELD_IMMUTABLE[1],
      'a field the created fixes (`business_unit_id`, `branch_id`, `seller_merchant_id`, `customer`, `deeplink`) differs from it',
    ],
    [409, webhookErrorTable.TOO_MANY_EARLY_EVENTS[1], "too many events wait for this order's created"],
  ),
} satisfies Record<string, RouteSpec>;
