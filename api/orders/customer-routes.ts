/**
 * The customer app's queries of the order view (docs/orders-read-models.md, "Read models"), under /order/cov/app/v1 behind the
 * gateway, for the user of a bearer access token: declared once for the router and the OpenAPI document.
 */
import { z } from 'zod';
import { errorResponses, successResponse, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { orderQueryErrorTable, ordersCodes } from './errors.js';
import { customerListQuery, orderDetailSchema, orderPageSchema } from './query-schemas.js';
import { gatewayErrors, ordersFailure, ordersSuccess } from './webhook-routes.js';

export const customerTag = 'Order view: my orders';

const tokenErrors: ErrorCase[] = [
  [401, ordersCodes.tokenMissing, '`Authorization: Bearer <access token>` missing or not of that form'],
  [401, ordersCodes.tokenInvalid, 'the access token is not valid'],
  [401, ordersCodes.tokenExpired, 'the access token has expired'],
  [401, ordersCodes.tokenRevoked, 'the access token has been revoked'],
  [403, ordersCodes.scopeMissing, 'the token does not carry `profile` (an `auth`-only token cannot read the orders)'],
  [403, ordersCodes.consentWithdrawn, "the user withdrew consent to `profile` for the token's mini-app"],
];

const route = (spec: Omit<RouteSpec, 'tags' | 'security' | 'method'>, ...cases: ErrorCase[]): RouteSpec => ({
  tags: [customerTag],
  security: [{ bearerAccessToken: [], clientId: [], clientSecret: [] }],
  method: 'get',
  ...spec,
  responses: {
    ...spec.responses,
    ...errorResponses([...gatewayErrors, ...tokenErrors, ...cases], (_status, codes) => ordersFailure(codes)),
  },
});

export const customerRoutes = {
  myOrders: route(
    {
      path: '/app/v1/orders',
      operationId: 'myOrders',
      summary: "The token's user's orders, newest first (eventually consistent with the webhooks)",
      request: { query: customerListQuery },
      responses: { 200: successResponse('A page of orders', ordersSuccess(orderPageSchema)) },
    },
    [400, ordersCodes.invalidRequest, 'a query parameter is wrong (`data.field`)'],
  ),
  myOrder: route(
    {
      path: '/app/v1/orders/{merchantId}/{orderId}',
      operationId: 'myOrder',
      summary: "One of the user's orders with items, fees, promotions, transactions, amounts and status history",
      request: { params: z.object({ merchantId: z.string(), orderId: z.string() }) },
      responses: { 200: successResponse('The order', ordersSuccess(orderDetailSchema)) },
    },
    [
      orderQueryErrorTable.ORDER_NOT_FOUND[0],
      orderQueryErrorTable.ORDER_NOT_FOUND[1],
      "no such order of the token's user",
    ],
  ),
} satisfies Record<string, RouteSpec>;
