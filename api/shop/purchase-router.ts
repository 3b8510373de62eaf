import express, { Router, type Request } from 'express';
import { z } from 'zod';
import type { PurchaseService, ReservationView, ShopCaller } from '../../application/shop/purchase-service.js';
import type { ShopCredentials } from '../../application/shop/credentials.js';
import { describeZodError } from '../shared/validation.js';
import { isUuid, shopAuth, type ShopCallerLocals } from './auth.js';
import { ShopHttpError, sendShopSuccess } from './envelope.js';

const integer = (name: string) =>
  z
    .number({ invalid_type_error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .safe();

const reserveBody = z.object({
  orderId: z
    .string({ invalid_type_error: 'orderId must be a string' })
    .trim()
    .min(1, 'orderId must not be empty')
    .max(128, 'orderId is at most 128 characters'),
  amount: integer('amount').min(0, 'amount must be >= 0'),
  currency: z.enum(['VND', 'VPOINT'], { errorMap: () => ({ message: 'currency must be VND or VPOINT' }) }).default('VND'),
  items: z
    .array(
      z.object({
        voucherPoolId: integer('voucherPoolId').min(1, 'voucherPoolId must be >= 1'),
        unitPrice: integer('unitPrice').min(0, 'unitPrice must be >= 0'),
        quantity: integer('quantity').min(1, 'quantity must be >= 1').max(10_000, 'quantity is at most 10000'),
      }),
      { invalid_type_error: 'items must be an array' },
    )
    .min(1, 'items must hold at least one item')
    .max(100, 'items holds at most 100 items'),
});

const reservationKeyBody = z.object({
  reservationKey: z.string({ invalid_type_error: 'reservationKey must be a string' }).uuid('reservationKey must be a UUID'),
});
const releaseBody = reservationKeyBody.extend({
  reason: z.string({ invalid_type_error: 'reason must be a string' }).max(256, 'reason is at most 256 characters').nullish(),
});

function parseBody<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, req: Request): T {
  if (!req.is('application/json')) throw new ShopHttpError(415, 'SHOP-REQ-415', 'Content-Type must be application/json');
  const parsed = schema.safeParse(req.body);
  if (!parsed.success) throw new ShopHttpError(400, 'SHOP-REQ-001', describeZodError(parsed.error, 'body'));
  return parsed.data;
}

function callerOf(locals: Record<string, unknown>): ShopCaller {
  const c = locals.caller as ShopCallerLocals;
  return { merchantId: c.merchantId, userId: c.userId!, requestId: c.requestId };
}

const items = (v: ReservationView) => v.items;

/** Endpoints 7 to 10 of the shop interface: the purchase flow. */
export function purchaseRouter(deps: { purchases: PurchaseService; credentials: ShopCredentials }): Router {
  const router = Router();
  const json = express.json({ limit: '64kb', strict: false });
  const auth = shopAuth(deps.credentials, { requireUser: true });

  router.post('/vouchers/reserve', auth, json, async (req, res, next) => {
    try {
      const key = req.header('x-idempotency-key');
      if (!key) throw new ShopHttpError(400, 'SHOP-REQ-001', 'X-Idempotency-Key header is required');
      if (!isUuid(key)) throw new ShopHttpError(400, 'SHOP-REQ-001', 'X-Idempotency-Key must be a UUID');
      const body = parseBody(reserveBody, req);
      const v = await deps.purchases.reserve(callerOf(res.locals), key.toLowerCase(), body);
      sendShopSuccess(res, { reservationKey: v.reservationKey, orderId: v.orderId, reservedAt: v.reservedAt, expiresAt: v.expiresAt, items: items(v) });
    } catch (e) {
      next(e);
    }
  });

  router.post('/vouchers/commit', auth, json, async (req, res, next) => {
    try {
      const { reservationKey } = parseBody(reservationKeyBody, req);
      const v = await deps.purchases.commit(callerOf(res.locals), reservationKey.toLowerCase());
      sendShopSuccess(res, { reservationKey: v.reservationKey, orderId: v.orderId, committedAt: v.committedAt, items: items(v) });
    } catch (e) {
      next(e);
    }
  });

  router.post('/vouchers/release', auth, json, async (req, res, next) => {
    try {
      const { reservationKey, reason } = parseBody(releaseBody, req);
      const v = await deps.purchases.release(callerOf(res.locals), reservationKey.toLowerCase(), reason ?? null);
      sendShopSuccess(res, { reservationKey: v.reservationKey, orderId: v.orderId, releasedAt: v.releasedAt });
    } catch (e) {
      next(e);
    }
  });

  router.get('/vouchers/reservation/:key', auth, async (req, res, next) => {
    try {
      const key = req.params.key!;
      if (!isUuid(key)) throw new ShopHttpError(400, 'SHOP-REQ-001', 'reservation key must be a UUID');
      const v = await deps.purchases.get(callerOf(res.locals), key.toLowerCase());
      sendShopSuccess(res, {
        reservationKey: v.reservationKey,
        orderId: v.orderId,
        status: v.status,
        reservedAt: v.reservedAt,
        expiresAt: v.expiresAt,
        committedAt: v.committedAt,
        releasedAt: v.releasedAt,
        items: items(v),
      });
    } catch (e) {
      next(e);
    }
  });

  return router;
}
