/**
 * The seven routes of the checkout interface (spec part B, "Checkout endpoints"), declared once: checkout-router.ts
 * mounts them and checkout-openapi.ts documents them under /loyalty/v1/promotion. Codes: docs/checkout.md.
 */
import { z } from 'zod';
import { errorResponses, jsonContent, successResponse, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { checkoutCodes, checkoutErrorTable, checkoutMessages } from './checkout-errors.js';
import {
  applicableBody,
  applicablePromotionSchema,
  confirmBody,
  discountResultSchema,
  getReservationBody,
  previewBody,
  promotionStatusSchema,
  refundBody,
  releaseBody,
  reserveBody,
} from './checkout-schemas.js';
import type { CheckoutInterfaceErrorCode } from '../../application/checkout/index.js';

export const checkoutBasePath = '/loyalty/v1/promotion';

const uuidHeader = (description: string) => z.string().uuid().describe(description);
const printableHeader = (max: number, description: string) =>
  z
    .string()
    .regex(new RegExp(`^[\\x21-\\x7e]{1,${max}}$`))
    .describe(description);

export const checkoutHeaders = z.object({
  env: z.enum(['dev', 'sit', 'uat', 'prod']).describe('must name the environment this deployment runs as'),
  'X-Auth-Audience': printableHeader(64, "platform identifier (the host app's platform code)"),
  'X-App-Id': printableHeader(64, 'app identifier (the mini-app id)'),
  'X-App-User-Id': printableHeader(128, 'the app user: the wallet owner'),
  'X-Request-Id': uuidHeader('unique request id; a resend with the same id and body is answered as the first'),
});

const reserveHeaders = checkoutHeaders.extend({
  'X-Idempotency-Key': uuidHeader('required: a resend under the key with the same body gets the first answer'),
});

export const checkoutSecurity = [{ clientId: [], clientSecret: [], promotionApiKey: [], merchantId: [] }];

const success = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ code: z.literal('0'), message: z.literal('Success'), data });
const failure = (codes: [string, ...string[]]) =>
  z.object({
    code: z.enum(codes),
    message: z
      .string()
      .describe(
        "the seed's text for its codes (listed with each code), the same every time; for the service's own codes, what was wrong (for bad input it names the field or header)",
      ),
    data: z
      .object({
        detail: z.string().optional().describe('what was wrong this time: a sentence for developers, not for people'),
        promotion_id: z.number().int().optional(),
        reservation_key: z.string().optional(),
        reason: z.string().optional().describe('why, machine-readable: an `ineligible_reason`, or `ORDER_ALREADY_*`'),
        field: z.string().optional(),
        min_order_value: z.number().int().optional().describe("8006: the promotion's minimum"),
        remaining_amount: z.number().int().optional().describe('8006: what the subtotal lacks of it'),
      })
      .nullable(),
  });

const c = checkoutCodes;
/** What any checkout call can get from the gateway, the headers, the body and the service. */
const callErrors: ErrorCase[] = [
  [400, c.invalid, 'a missing or invalid header or body field (the message names it), or a body that is not JSON'],
  [401, c.unauthenticated, 'client_id/client_secret or X-Promotion-API-Key missing, wrong, revoked or expired'],
  [
    403,
    c.forbidden,
    "`env` names another environment, the party is not granted the checkout, or the key is another merchant's",
  ],
  [404, c.unknownEndpoint, 'no such endpoint'],
  [413, c.tooLarge, 'body larger than 256 kB'],
  [415, c.unsupportedMediaType, '`Content-Type` is not `application/json`'],
  [429, c.rateLimited, "the party's rate limit for this endpoint is reached (`Retry-After`)"],
  [500, c.internal, 'an unexpected failure (retryable)'],
  [502, c.unavailable, 'its storage is away (retryable, `Retry-After`)'],
];
const domain = (code: CheckoutInterfaceErrorCode, when: string): ErrorCase => [...checkoutErrorTable[code], when];
const responses = (...cases: ErrorCase[]) =>
  errorResponses([...callErrors, ...cases], (_status, codes) => failure(codes), checkoutMessages);

const promotionRefusals = [
  domain('PROMOTION_NOT_FOUND', 'no such promotion, or one scoped to another merchant'),
  domain('PROMOTION_NOT_OWNED', "the promotion is not in X-App-User-Id's wallet"),
  domain(
    'PROMOTION_NOT_APPLICABLE',
    'used, cancelled, not valid yet, master paused/ended, scope or categories do not match, SHARED',
  ),
  domain('PROMOTION_CODE_INVALID', "pin_code missing or wrong, or code_type is not the promotion's"),
  domain('PROMOTION_ALREADY_RESERVED', 'held by another checkout'),
  domain('QUOTA_EXHAUSTED', "the master's total_quota is taken"),
  domain('ORDER_MINIMUM_NOT_MET', 'subtotal below min_order_value (`data.min_order_value`, `data.remaining_amount`)'),
  domain('PROMOTION_EXPIRED', 'its validity ended'),
  domain('USAGE_LIMIT_REACHED', "the user's per_user_limit is taken"),
];

const route = (spec: Omit<RouteSpec, 'tags' | 'security' | 'method'>): RouteSpec => ({
  method: 'post',
  tags: ['Checkout'],
  security: checkoutSecurity,
  ...spec,
});

const statuses = z.object({ promotions: z.array(promotionStatusSchema) });

export const checkoutRoutes = {
  applicable: route({
    path: '/applicable',
    operationId: 'applicablePromotions',
    summary: "The wallet's promotions for these orders, each eligible or not (and why)",
    description:
      'Reads the wallet read model (eventually consistent). Eligible ones first, biggest discount first. `ineligible_reason` is an addition (docs/checkout.md).',
    request: { headers: checkoutHeaders, body: { required: true, content: jsonContent(applicableBody) } },
    responses: {
      200: successResponse(
        'The promotions',
        success(
          z.object({ applicable_promotions: z.object({ discount_promotions: z.array(applicablePromotionSchema) }) }),
        ),
      ),
      ...responses(),
    },
  }),
  preview: route({
    path: '/preview-discount',
    operationId: 'previewDiscount',
    summary: 'The discount the selected promotion would give (changes nothing)',
    request: { headers: checkoutHeaders, body: { required: true, content: jsonContent(previewBody) } },
    responses: {
      200: successResponse('The discount', success(discountResultSchema)),
      ...responses(...promotionRefusals),
    },
  }),
  reserve: route({
    path: '/reserve',
    operationId: 'reservePromotion',
    summary: 'Reserve the selected promotion for the order and compute the final discount (all or nothing)',
    request: { headers: reserveHeaders, body: { required: true, content: jsonContent(reserveBody) } },
    responses: {
      200: successResponse(
        'Reserved',
        success(z.object({ reservation_key: z.string(), discount: discountResultSchema })),
      ),
      ...responses(
        ...promotionRefusals,
        domain(
          'ORDER_ALREADY_RESERVED',
          'the order_id holds another reservation (one promotion per order; `data.reason` `ORDER_ALREADY_RESERVED`)',
        ),
        domain(
          'ORDER_ALREADY_CONFIRMED',
          "the order_id's reservation was confirmed (refund it first; `data.reason` `ORDER_ALREADY_CONFIRMED`)",
        ),
        domain('IDEMPOTENCY_KEY_REUSED', 'another body under a used X-Idempotency-Key'),
      ),
    },
  }),
  confirm: route({
    path: '/confirm',
    operationId: 'confirmPromotion',
    summary: 'Confirm usage after payment success: USED',
    request: { headers: checkoutHeaders, body: { required: true, content: jsonContent(confirmBody) } },
    responses: {
      200: successResponse('Confirmed', success(statuses)),
      ...responses(
        domain('RESERVATION_NOT_FOUND', 'no such reservation of this order, user and merchant, or it was released'),
        domain('RESERVATION_EXPIRED', 'past its time-to-live (only with CHECKOUT_RESERVATION_TTL_SECONDS)'),
        domain('RESERVATION_ALREADY_CONFIRMED', 'confirmed already'),
      ),
    },
  }),
  release: route({
    path: '/release',
    operationId: 'releasePromotion',
    summary: 'Release on checkout failure or cancel: back to ISSUED (a repeat answers the same)',
    request: { headers: checkoutHeaders, body: { required: true, content: jsonContent(releaseBody) } },
    responses: {
      200: successResponse('Released', success(statuses)),
      ...responses(
        domain('RESERVATION_NOT_FOUND', 'no such reservation of this order, user and merchant'),
        domain('RESERVATION_ALREADY_CONFIRMED', 'confirmed: refund it instead'),
      ),
    },
  }),
  getReservation: route({
    path: '/get-reservation',
    operationId: 'getPromotionReservation',
    summary: 'Read a reservation (strongly consistent)',
    request: { headers: checkoutHeaders, body: { required: true, content: jsonContent(getReservationBody) } },
    responses: {
      200: successResponse(
        'The reservation',
        success(
          z.object({
            reservation_key: z.string(),
            order_id: z.string(),
            status: z.enum(['RESERVED', 'CONFIRMED', 'RELEASED', 'EXPIRED', 'REFUNDED']).describe('addition'),
            promotions: z.array(promotionStatusSchema),
          }),
        ),
      ),
      ...responses(domain('RESERVATION_NOT_FOUND', 'no such reservation of this order, user and merchant')),
    },
  }),
  refund: route({
    path: '/refund',
    operationId: 'refundPromotion',
    summary: 'Restore a used promotion after payment refund: back to ISSUED (a repeat answers the same)',
    request: { headers: checkoutHeaders, body: { required: true, content: jsonContent(refundBody) } },
    responses: {
      200: successResponse('Refunded', success(statuses)),
      ...responses(
        domain('RESERVATION_NOT_FOUND', 'no such reservation of this order, user and merchant'),
        domain('RESERVATION_NOT_CONFIRMED', 'never confirmed: release it instead'),
      ),
    },
  }),
} satisfies Record<string, RouteSpec>;
