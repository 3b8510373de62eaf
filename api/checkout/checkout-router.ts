/**
 * The checkout interface (spec part B) under /loyalty/v1/promotion: its seven routes (checkout-routes.ts), its 404
 * and its envelope. Each route: the checkout's headers (checkout-auth.ts), a JSON body parsed into the typed request,
 * one service call. docs/checkout.md.
 */
import { Router, type Request, type Response } from 'express';
import type { CheckoutCaller, CheckoutServices } from '../../application/checkout/index.js';
import type { Logger } from '../../application/shared/logger.js';
import type { MerchantApiKeys } from '../../application/shared/merchant-api-keys.js';
import { commandContextOf } from '../shared/command-context.js';
import { HttpError, unknownEndpoint } from '../shared/interface-errors.js';
import { interfaceBody } from '../shared/interface-body.js';
import { mount } from '../shared/route-spec.js';
import { checkoutAuth, type CheckoutCallerLocals } from './checkout-auth.js';
import { checkoutCodes, checkoutErrorHandler, checkoutErrors, checkoutOk } from './checkout-errors.js';
import { checkoutRoutes as routes } from './checkout-routes.js';
import {
  applicableBody,
  applicableJson,
  confirmBody,
  discountJson,
  getReservationBody,
  previewBody,
  promotionsJson,
  refundBody,
  releaseBody,
  reserveBody,
} from './checkout-schemas.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The wallet owner, the merchant and the request's command context; reserve's carries its idempotency key. */
function callerOf(req: Request, res: Response, idempotencyKey?: string): CheckoutCaller {
  const c = res.locals.checkoutCaller as CheckoutCallerLocals;
  const actor = { merchantId: c.merchantId, userId: c.userId, miniAppId: c.appId };
  const context = commandContextOf(req, res, {
    actor,
    // Keys are unique per merchant: two merchants' keys never meet.
    ...(idempotencyKey && { idempotency: { scope: `checkout:${c.merchantId}`, key: idempotencyKey.toLowerCase() } }),
  });
  return { merchantId: c.merchantId, userId: c.userId, context };
}

/**
 * A basket of 1,000 lines of 4 fields with up to 8 categories each (api/checkout/checkout-schemas.ts allows 50 orders
 * of 500 lines, more than 256 KiB holds; real baskets are tens of lines); docs/conventions.md, "Request bodies".
 */
const checkoutBodyBudget = { members: 5_000, elements: 10_000 };

/** Bodies of up to 256 KiB, any JSON at the top; a refusal is one sentence naming the field. */
const bodies = interfaceBody(checkoutErrors, {
  limit: '256kb',
  budget: checkoutBodyBudget,
  strict: false,
  issues: 'sentence',
});

export function checkoutRouter(deps: {
  services: CheckoutServices;
  merchantKeys: MerchantApiKeys;
  logger: Logger;
}): Router {
  const { checkout, applicable } = deps.services;
  const router = Router();
  const withBody = [checkoutAuth(deps.merchantKeys), ...bodies.parsers];

  mount(router, routes.applicable, withBody, async (req, res) => {
    const { orders } = bodies.read(applicableBody, req);
    const found = await applicable.applicable(callerOf(req, res), orders);
    return checkoutOk({ applicable_promotions: { discount_promotions: found.map(applicableJson) } });
  });

  mount(router, routes.preview, withBody, async (req, res) => {
    const { selected, orders } = bodies.read(previewBody, req);
    const { discount, code } = await checkout.preview(callerOf(req, res), selected, orders);
    return checkoutOk(discountJson(discount, () => code, false));
  });

  mount(router, routes.reserve, withBody, async (req, res) => {
    const key = req.header('x-idempotency-key');
    if (!key) throw new HttpError(400, checkoutCodes.invalid, 'X-Idempotency-Key header is required');
    if (!uuid.test(key)) throw new HttpError(400, checkoutCodes.invalid, 'X-Idempotency-Key must be a UUID');
    const body = bodies.read(reserveBody, req);
    const v = await checkout.reserve(callerOf(req, res, key), body);
    const byId = new Map(v.promotions.map((p) => [p.promotionId, p.code]));
    return checkoutOk({
      reservation_key: v.reservationKey,
      discount: discountJson(v.discount, (id) => byId.get(id)!, true),
    });
  });

  mount(router, routes.confirm, withBody, async (req, res) => {
    const b = bodies.read(confirmBody, req);
    const v = await checkout.confirm(callerOf(req, res), b.reservation_key.toLowerCase(), b.order_id);
    return checkoutOk({ promotions: promotionsJson(v) });
  });

  mount(router, routes.release, withBody, async (req, res) => {
    const b = bodies.read(releaseBody, req);
    const v = await checkout.release(callerOf(req, res), b.reservation_key.toLowerCase(), b.order_id, b.reason ?? null);
    return checkoutOk({ promotions: promotionsJson(v) });
  });

  mount(router, routes.getReservation, withBody, async (req, res) => {
    const b = bodies.read(getReservationBody, req);
    const v = await checkout.get(callerOf(req, res), b.reservation_key.toLowerCase(), b.order_id);
    return checkoutOk({
      reservation_key: v.reservationKey,
      order_id: v.orderId,
      status: v.status,
      promotions: promotionsJson(v),
    });
  });

  mount(router, routes.refund, withBody, async (req, res) => {
    const b = bodies.read(refundBody, req);
    const v = await checkout.refund(callerOf(req, res), b.reservation_key.toLowerCase(), b.order_id, b.reason ?? null);
    return checkoutOk({ promotions: promotionsJson(v) });
  });

  router.use(unknownEndpoint(checkoutErrors));
  router.use(checkoutErrorHandler(deps.logger));
  return router;
}
