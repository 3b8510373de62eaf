/**
 * The internal portal's and analysts' queries of the order view in the operator API (docs/orders-read-models.md, "Read models"),
 * declared once for portal-router.ts and the OpenAPI document. They read projections: eventually consistent.
 */
import { z } from 'zod';
import { successResponse } from '../shared/openapi.js';
import {
  badOperatorParam,
  operatorBaseErrors,
  operatorErrorResponses,
  operatorNotFound,
  operatorRoute,
  operatorSuccess,
} from '../shared/operator-openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import {
  dailyStatsQuery,
  dailyStatsSchema,
  portalListQuery,
  portalOrderDetailSchema,
  portalOrderPageSchema,
} from './query-schemas.js';

export const portalTag = 'Operator: order view portal';

const badQuery = badOperatorParam('a query parameter is wrong (`data.field`)');

export const portalRoutes = {
  orders: operatorRoute(portalTag, {
    method: 'get',
    path: '/orders',
    operationId: 'portalOrders',
    summary:
      'Orders by merchant, business unit, branch, seller, type, status, payment status and date range, with counts',
    request: { query: portalListQuery },
    responses: {
      200: successResponse('A page of orders and the counts by status', operatorSuccess(portalOrderPageSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, badQuery),
    },
  }),
  dailyStats: operatorRoute(portalTag, {
    method: 'get',
    path: '/orders/daily-stats',
    operationId: 'orderDailyStats',
    summary: 'Orders and GMV per UTC day, merchant, order type and current status (kept by the projector)',
    request: { query: dailyStatsQuery },
    responses: {
      200: successResponse('The days', operatorSuccess(dailyStatsSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, badQuery),
    },
  }),
  order: operatorRoute(portalTag, {
    method: 'get',
    path: '/orders/{merchantId}/{orderId}',
    operationId: 'portalOrder',
    summary: 'One order with its items, fees, promotions, transactions, amounts and history',
    request: { params: z.object({ merchantId: z.string(), orderId: z.string() }) },
    responses: {
      200: successResponse('The order', operatorSuccess(portalOrderDetailSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        badOperatorParam('`merchantId` or `orderId` longer than 64 characters'),
        operatorNotFound('order'),
      ),
    },
  }),
} satisfies Record<string, RouteSpec>;
