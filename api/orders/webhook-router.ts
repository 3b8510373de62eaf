/**
 * The order view's webhooks (docs/orders-signing.md, docs/orders-fields.md) under /order/cov/webhook/v1/orders: behind the gateway (client_id,
 * client_secret), each checks X-API-Key, X-Request-Id, the body's field rules and its secure_hash, in that order,
 * then reads the extension maps' raw text and records the event on the order's aggregate (which claims the
 * secure_hash for this webhook alone). Every refusal is the interface's envelope.
 */
import { type Request, type Response, type Router } from 'express';
import type { OrdersServices, WebhookKeyRefusal, WebhookKind } from '../../application/orders/index.js';
import { secureHashMatches } from '../../application/orders/index.js';
import { commandContextOf } from '../shared/command-context.js';
import { HttpError, type InterfaceErrors } from '../shared/interface-errors.js';
import { interfaceBody } from '../shared/interface-body.js';
import { mount, type RouteSpec } from '../shared/route-spec.js';
import { ordersOk } from './envelope.js';
import { ordersCodes } from './errors.js';
import { rawValues } from './raw-json.js';
import { extensionPaths, webhookBodies, webhookOf } from './webhook-schemas.js';
import { webhookRoutes } from './webhook-routes.js';
// What the secure_hash covers, read from the parsed body before the raw text is walked.
import { signedWebhookOf } from './webhook-schemas.js';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const keyRefusals: { readonly [R in WebhookKeyRefusal]: readonly [code: string, message: string] } = {
  API_KEY_MISSING: [ordersCodes.apiKeyMissing, 'X-API-Key is required'],
  API_KEY_MALFORMED: [ordersCodes.apiKeyMalformed, 'X-API-Key must be ak_live_ or ak_test_ and 32 letters or digits'],
  API_KEY_INVALID: [ordersCodes.apiKeyInvalid, 'X-API-Key is not a valid key (unknown, revoked or retired)'],
  API_KEY_WRONG_ENVIRONMENT: [ordersCodes.apiKeyWrongEnvironment, 'X-API-Key belongs to another environment'],
};

const outcomeEvents: Record<WebhookKind, string> = {
  CREATED: 'order.created',
  UPDATED: 'order.updated',
  CANCELLED: 'order.cancelled',
};

/**
 * What one webhook may hold (docs/conventions.md, "Request bodies"; docs/orders-fields.md): an order of 500 lines of
 * their 6 required and 3 optional fields with its fees, promotions and transactions; the seed's, the tests' and the
 * bench's orders are a few lines (under 100 members). JSON.parse and the walks after it pay most for members in
 * objects of distinct shapes, superlinearly: 5,000 cost a few milliseconds, 20,000 ~50-100 ms on a loaded machine.
 */
export const webhookBodyBudget = { members: 5_000, elements: 5_000 };

export function mountWebhooks(
  router: Router,
  services: OrdersServices,
  errors: Pick<InterfaceErrors<string>, 'malformed'>,
): void {
  // JSON bodies only, refused otherwise before anything else; read whole, their text kept for the extension maps.
  const bodies = interfaceBody(errors, {
    limit: services.webhookMaxBytes,
    budget: webhookBodyBudget,
    keepText: true,
    notJsonFirst: true,
    notObject: 'body must be a JSON object',
  });
  const receive = (kind: WebhookKind, spec: RouteSpec) =>
    mount(router, spec, bodies.parsers, async (req: Request, res: Response) => {
      const key = await services.webhookKeys.check(req.header('x-api-key'));
      if (!key.ok) throw new HttpError(401, ...keyRefusals[key.reason]);
      const requestId = req.header('x-request-id');
      if (!requestId || !uuidV4.test(requestId))
        throw new HttpError(400, ordersCodes.requestIdInvalid, 'X-Request-Id must be a UUID v4');
      const body = bodies.read(webhookBodies[kind], req);
      // The signature before anything walks the body again: it needs the parsed fields alone.
      if (!secureHashMatches(key.secretKey, signedWebhookOf(kind, body), body.secure_hash))
        throw new HttpError(
          401,
          ordersCodes.secureHashMismatch,
          'secure_hash does not match: HMAC-SHA256 with the secretKey over the fields of docs/orders-signing.md, "Signing"',
          { field: 'secure_hash' },
        );
      // The raw text is walked only when the body has an extension map (most updates have none).
      let raw: Map<string, string> | undefined;
      const webhook = webhookOf(kind, body, (path) =>
        (raw ??= rawValues(bodies.text(req), extensionPaths)).get(JSON.stringify(path))!,
      );

      const context = commandContextOf(req, res, {
        actor: { merchantId: key.merchantId },
        idempotency: { scope: `orders:${key.merchantId}`, key: requestId.toLowerCase() },
      });
      const answer = await services.webhooks.receive(context, key.merchantId, webhook);
      return ordersOk({
        order_id: answer.orderId,
        event: outcomeEvents[answer.event],
        outcome: answer.outcome,
        applied_fields: answer.appliedFields,
        stale_fields: answer.staleFields,
        early_applied: answer.earlyApplied,
        early_discarded: answer.earlyDiscarded,
        warnings: answer.warnings,
      });
    });
  receive('CREATED', webhookRoutes.created);
  receive('UPDATED', webhookRoutes.updated);
  receive('CANCELLED', webhookRoutes.cancelled);
}
