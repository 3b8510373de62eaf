/**
 * The purchase routes of the shop interface (endpoints 7 to 10), declared once: purchase-router.ts mounts them and
 * openapi.ts documents them (api/shared/route-spec.ts).
 */
import { jsonContent, successResponse } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { domainCase, shopBodyErrors, shopCallErrors, shopErrorResponses, shopSecurity } from './openapi-parts.js';
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
  shopSuccess,
} from './schemas.js';

const route = (spec: Omit<RouteSpec, 'tags' | 'security'>): RouteSpec => ({
  tags: ['Shop: purchase'],
  security: shopSecurity,
  ...spec,
});

const notTheUsers = domainCase('RESERVATION_NOT_FOUND', "reservation missing or not the user's");

export const purchaseRoutes = {
  reserve: route({
    method: 'post',
    path: '/vouchers/reserve',
    operationId: 'reserveVouchers',
    summary: '7. Reserve vouchers for checkout',
    description:
      'Holds stock and issues voucher codes, all pools of the request or none. A resend under a used `X-Idempotency-Key` with the same body gets the first answer (`SHOP_IDEMPOTENCY_MODE=replay`, the default) or 409 `SHOP-PUR-011` (`reject`); another body under a used key is always 409.',
    request: { headers: reserveHeaders, body: { required: true, content: jsonContent(reserveBody) } },
    responses: {
      200: successResponse('Reserved: stock held, voucher codes issued', shopSuccess(reservedData)),
      ...shopErrorResponses(
        ...shopCallErrors,
        ...shopBodyErrors,
        domainCase('AMOUNT_MISMATCH', '`amount` differs from unitPrice × quantity'),
        domainCase('OUT_OF_STOCK', 'pool sold out or not enough stock'),
        domainCase('PRICE_MISMATCH', "`unitPrice` differs from the pool's current sellingPrice"),
        domainCase('CURRENCY_MISMATCH', "`currency` differs from the pool's currency"),
        domainCase('PURCHASE_LIMIT_EXCEEDED', 'daily, total or per-order purchase limit exceeded'),
        domainCase('POOL_NOT_FOUND', 'pool missing or deleted'),
        domainCase(
          'ORDER_ID_USED',
          'order id already used by another reservation, or the idempotency key reused with another body',
        ),
      ),
    },
  }),

  commit: route({
    method: 'post',
    path: '/vouchers/commit',
    operationId: 'commitReservation',
    summary: '8. Commit a reservation after payment success',
    description:
      'The vouchers go to the user. Repeating it creates no new side effect and is answered with 400 `SHOP-PUR-006`.',
    request: { headers: purchaseHeaders, body: { required: true, content: jsonContent(reservationKeyBody) } },
    responses: {
      200: successResponse('Committed', shopSuccess(committedData)),
      ...shopErrorResponses(
        ...shopCallErrors,
        ...shopBodyErrors,
        domainCase('RESERVATION_NOT_RESERVED', 'the reservation is already committed, released or expired'),
        notTheUsers,
      ),
    },
  }),

  release: route({
    method: 'post',
    path: '/vouchers/release',
    operationId: 'releaseReservation',
    summary: '9. Release a reservation (payment failed or cancelled)',
    description:
      "Returns the stock and the user's purchase quota. Repeating it creates no new side effect and is answered with 400 `SHOP-PUR-007`.",
    request: { headers: purchaseHeaders, body: { required: true, content: jsonContent(releaseBody) } },
    responses: {
      200: successResponse('Released', shopSuccess(releasedData)),
      ...shopErrorResponses(
        ...shopCallErrors,
        ...shopBodyErrors,
        domainCase('RESERVATION_ALREADY_FINAL', 'the reservation is already released or committed'),
        domainCase('RESERVATION_EXPIRED', 'the reservation expired (only with `SHOP_RESERVATION_AUTO_EXPIRY=true`)'),
        notTheUsers,
      ),
    },
  }),

  lookup: route({
    method: 'get',
    path: '/vouchers/reservation/{key}',
    operationId: 'getReservation',
    summary: '10. Look up a reservation',
    description: 'Reads the reservation aggregate (strongly consistent): for polling or verification before acting.',
    request: { headers: purchaseHeaders, params: reservationLookupParams },
    responses: {
      200: successResponse('The reservation', shopSuccess(reservationData)),
      ...shopErrorResponses(...shopCallErrors, notTheUsers),
    },
  }),
} satisfies Record<string, RouteSpec>;
