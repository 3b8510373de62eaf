/**
 * The portal's and analysts' order queries in the operator API (routes in portal-routes.ts): projections, answered
 * in the operator envelope. docs/orders-read-models.md, "Read models".
 */
import { Router, type Request } from 'express';
import type { OrderQueries } from '../../application/orders/index.js';
import { characters } from '../../application/shared/characters.js';
import type { Logger } from '../../application/shared/logger.js';
import { HttpError, interfaceErrorHandler } from '../shared/interface-errors.js';
import { ok, operatorErrors, operatorStatus } from '../shared/operator-api.js';
import { mount } from '../shared/route-spec.js';
import { rawJson } from '../shared/route.js';
import { detailBytes, pageJson, portalSummaryJson } from './order-json.js';
import { portalRoutes } from './portal-routes.js';
import { queryOf } from './query-params.js';
import { dailyStatsQuery, portalListQuery } from './query-schemas.js';

const errors = operatorErrors<'ORDER_NOT_FOUND' | 'INVALID_ORDER_QUERY'>('orders portal', {
  ORDER_NOT_FOUND: operatorStatus.notFound,
  INVALID_ORDER_QUERY: operatorStatus.invalid,
});

const idParam = (req: Request, name: string): string => {
  const value = req.params[name] ?? '';
  if (value.length > 64 && characters(value) > 64)
    throw new HttpError(400, 'OPS-REQ-001', `${name} must be at most 64 characters`);
  return value;
};

export function orderPortalRouter(deps: { queries: OrderQueries; logger: Logger }): Router {
  const { queries } = deps;
  const router = Router();
  mount(router, portalRoutes.orders, [], async (req) => {
    const q = queryOf(portalListQuery, req, operatorStatus.invalid);
    const page = await queries.portalOrders(
      {
        merchantId: q.merchant_id,
        businessUnitId: q.business_unit_id,
        branchId: q.branch_id,
        sellerMerchantId: q.seller_merchant_id,
        orderType: q.order_type,
        status: q.status,
        paymentStatus: q.payment_status,
        customerId: q.customer_id,
        from: q.from,
        to: q.to,
      },
      { page: q.page, size: q.size, ...(q.after && { after: q.after }) },
    );
    return ok(pageJson(page, q.page, q.size, portalSummaryJson));
  });
  mount(router, portalRoutes.dailyStats, [], async (req) => {
    const q = queryOf(dailyStatsQuery, req, operatorStatus.invalid);
    const days = await queries.dailyStats({
      from: q.from,
      to: q.to,
      merchantId: q.merchant_id,
      orderType: q.order_type,
      status: q.status,
    });
    return ok({
      days: days.map((d) => ({
        day: d.day,
        merchant_id: d.merchantId,
        order_type: d.orderType,
        status: d.status,
        currency: d.currency,
        order_count: d.orderCount,
        gmv: d.gmv,
      })),
    });
  });
  mount(router, portalRoutes.order, [], async (req) => {
    const order = await queries.portalOrder(idParam(req, 'merchantId'), idParam(req, 'orderId'));
    return rawJson(detailBytes(order, (data) => ({ code: 'SUCCESS', message: 'Success', data }), portalSummaryJson));
  });
  router.use(interfaceErrorHandler(errors, deps.logger));
  return router;
}
