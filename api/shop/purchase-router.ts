import express, { Router, type Request } from 'express';
import type { z } from 'zod';
import type { PurchaseService, ReservationView, ShopCaller } from '../../application/shop/purchase-service.js';
import type { ShopCredentials } from '../../application/shop/credentials.js';
import { describeZodError } from '../shared/validation.js';
import { shopAuth, type ShopCallerLocals } from './auth.js';
import { ShopHttpError, sendShopSuccess } from './envelope.js';
import {
  idempotencyKeyHeader,
  releaseBody,
  reservationKeyBody,
  reservationLookupParams,
  reserveBody,
} from './schemas.js';

type Schema<T> = z.ZodType<T, z.ZodTypeDef, unknown>;

function parse<T>(schema: Schema<T>, value: unknown, where: 'body' | 'path'): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ShopHttpError(400, 'SHOP-REQ-001', describeZodError(parsed.error, where));
  return parsed.data;
}

function parseBody<T>(schema: Schema<T>, req: Request): T {
  if (!req.is('application/json'))
    throw new ShopHttpError(415, 'SHOP-REQ-415', 'Content-Type must be application/json');
  return parse(schema, req.body, 'body');
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
      // The header's own messages name it (a header has no field path).
      const header = idempotencyKeyHeader.safeParse(req.header('x-idempotency-key') || undefined);
      if (!header.success) throw new ShopHttpError(400, 'SHOP-REQ-001', header.error.issues[0]!.message);
      const key = header.data;
      const body = parseBody(reserveBody, req);
      const v = await deps.purchases.reserve(callerOf(res.locals), key.toLowerCase(), body);
      sendShopSuccess(res, {
        reservationKey: v.reservationKey,
        orderId: v.orderId,
        reservedAt: v.reservedAt,
        expiresAt: v.expiresAt,
        items: items(v),
      });
    } catch (e) {
      next(e);
    }
  });

  router.post('/vouchers/commit', auth, json, async (req, res, next) => {
    try {
      const { reservationKey } = parseBody(reservationKeyBody, req);
      const v = await deps.purchases.commit(callerOf(res.locals), reservationKey.toLowerCase());
      sendShopSuccess(res, {
        reservationKey: v.reservationKey,
        orderId: v.orderId,
        committedAt: v.committedAt,
        items: items(v),
      });
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
      const { key } = parse(reservationLookupParams, req.params, 'path');
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
