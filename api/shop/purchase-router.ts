/** Endpoints 7 to 10 of the shop interface, the purchase flow (routes in purchase-routes.ts, docs/shop-purchase.md). */
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import type { PurchaseService, ReservationView, ShopCaller, ShopCredentials } from '../../application/shop/index.js';
import { actorContextOf } from '../shared/command-context.js';
import { HttpError } from '../shared/interface-errors.js';
import { interfaceBody } from '../shared/interface-body.js';
import { mount } from '../shared/route-spec.js';
import { describeZodError, isJsonRequest, uuidPattern } from '../shared/validation.js';
import { shopAuth, type ShopCallerLocals } from './auth.js';
import { shopErrors } from './error-mapping.js';
import { shopOk } from './envelope.js';
import { purchaseRoutes } from './purchase-routes.js';
import {
  idempotencyKeyHeader,
  plainReserveBody,
  releaseBody,
  reservationKeyBody,
  reservationLookupParams,
  reserveBody,
} from './schemas.js';

type Schema<T> = z.ZodType<T, z.ZodTypeDef, unknown>;

function parsePath<T>(schema: Schema<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, 'SHOP-REQ-001', describeZodError(parsed.error, 'path'));
  return parsed.data;
}

/** The authenticated merchant and user, and the request's command context (built once, here). */
function callerOf(res: Response): ShopCaller {
  const c = res.locals.caller as ShopCallerLocals;
  const actor = { merchantId: c.merchantId, userId: c.userId! };
  return { ...actor, context: actorContextOf(res, actor) };
}

const items = (v: ReservationView) => v.items;

/** X-Idempotency-Key, lower-cased. A lower-case UUID (what clients send) needs no schema; the rest gets its answer. */
function idempotencyKeyOf(req: Request): string {
  const raw = req.header('x-idempotency-key');
  if (raw !== undefined && uuidPattern.test(raw)) return raw;
  // The header's own messages name it (a header has no field path).
  const header = idempotencyKeyHeader.safeParse(raw || undefined);
  if (!header.success) throw new HttpError(400, 'SHOP-REQ-001', header.error.issues[0]!.message);
  return header.data.toLowerCase();
}

/** At most 100 items of 2 fields and a few fields around them (api/shop/schemas.ts): 1,000 of each is ten times that. */
const purchaseBodyBudget = { members: 1_000, elements: 1_000 };

/** Bodies of up to 64 KiB, any JSON at the top; a refusal is one sentence naming the field. */
const bodies = interfaceBody(shopErrors, {
  limit: '64kb',
  budget: purchaseBodyBudget,
  strict: false,
  issues: 'sentence',
});

export function purchaseRouter(deps: { purchases: PurchaseService; credentials: ShopCredentials }): Router {
  const router = Router();
  const auth = shopAuth(deps.credentials, { requireUser: true });
  const withBody = [auth, ...bodies.parsers];

  mount(router, purchaseRoutes.reserve, withBody, async (req, res) => {
    const key = idempotencyKeyOf(req);
    // The usual body without zod (plainReserveBody: the same answer); anything else through the schema.
    const body = (isJsonRequest(req) && plainReserveBody(req.body)) || bodies.read(reserveBody, req);
    const v = await deps.purchases.reserve(callerOf(res), key, body);
    return shopOk({
      reservationKey: v.reservationKey,
      orderId: v.orderId,
      reservedAt: v.reservedAt,
      expiresAt: v.expiresAt,
      items: items(v),
    });
  });

  mount(router, purchaseRoutes.commit, withBody, async (req, res) => {
    const { reservationKey } = bodies.read(reservationKeyBody, req);
    const v = await deps.purchases.commit(callerOf(res), reservationKey.toLowerCase());
    return shopOk({
      reservationKey: v.reservationKey,
      orderId: v.orderId,
      committedAt: v.committedAt!,
      items: items(v),
    });
  });

  mount(router, purchaseRoutes.release, withBody, async (req, res) => {
    const { reservationKey, reason } = bodies.read(releaseBody, req);
    const v = await deps.purchases.release(callerOf(res), reservationKey.toLowerCase(), reason ?? null);
    return shopOk({ reservationKey: v.reservationKey, orderId: v.orderId, releasedAt: v.releasedAt! });
  });

  mount(router, purchaseRoutes.lookup, [auth], async (req, res) => {
    const { key } = parsePath(reservationLookupParams, req.params);
    const v = await deps.purchases.get(callerOf(res), key.toLowerCase());
    return shopOk({
      reservationKey: v.reservationKey,
      orderId: v.orderId,
      status: v.status,
      reservedAt: v.reservedAt,
      expiresAt: v.expiresAt,
      ...(v.committedAt !== undefined ? { committedAt: v.committedAt } : {}),
      ...(v.releasedAt !== undefined ? { releasedAt: v.releasedAt } : {}),
      items: items(v),
    });
  });

  return router;
}
