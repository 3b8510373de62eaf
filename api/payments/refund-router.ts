/**
 * The hub's refund and snapshot endpoints (docs/payments-refunds.md), mounted inside the hub's router (hub-router.ts)
 * with its key check, body parsing, signed headers and X-Request-ID idempotency: the form (4001), the window (4103),
 * the secureHash over the operation's string (4102), then the operation.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import {
  refundSigningString,
  refundSnapshotSigningString,
  transactionSnapshotSigningString,
  type PaymentCaller,
  type PaymentsServices,
  type RefundType,
  type TransactionReference,
} from '../../application/payments/index.js';
import type { CommandContext } from '../../application/shared/command-context.js';
import { mount } from '../shared/route-spec.js';
import { hubOk } from './hub-errors.js';
import { refundHubRoutes } from './refund-routes.js';
import { refundBody, refundSnapshotBody, transactionSnapshotBody } from './refund-schemas.js';

/** What the hub's router lends its refund routes. */
export interface HubRouteKit {
  services: PaymentsServices;
  withBody: RequestHandler[];
  parseBody<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, req: Request): T;
  signedHeaders(req: Request): { requestId: string; timestamp: string };
  commandOf(req: Request, res: Response, requestId: string): CommandContext;
  optionalHeader(req: Request, name: string): string | undefined;
  requiredHeader(req: Request, name: string): string;
  callerOf(res: Response): PaymentCaller;
}

const upper = (t: string) => t.toUpperCase() as RefundType;

export function mountRefundRoutes(router: Router, kit: HubRouteKit): void {
  const { services, withBody } = kit;

  mount(router, refundHubRoutes.refund, withBody, async (req, res) => {
    const body = kit.parseBody(refundBody, req);
    const { requestId, timestamp } = kit.signedHeaders(req);
    const userId = kit.requiredHeader(req, 'X-User-ID');
    // transactionId wins: signed as sent (any case), looked up in lower case.
    const signedRef: TransactionReference =
      body.transactionId !== undefined
        ? { transactionId: body.transactionId }
        : { orderId: body.orderId!, referenceId: body.referenceId! };
    await services.signatures.verify(
      kit.callerOf(res),
      refundSigningString(signedRef, body, timestamp),
      body.secureHash,
    );
    const ref = 'transactionId' in signedRef ? { transactionId: signedRef.transactionId.toLowerCase() } : signedRef;
    const accepted = await services.refunds.request(kit.commandOf(req, res, requestId), kit.callerOf(res), ref, {
      amount: body.amount,
      currency: body.currency ?? null,
      refundType: upper(body.refundType),
      refundReferenceId: body.refundReferenceId,
      reason: body.reason ?? null,
      requestedBy: body.requestedBy ?? null,
      userId,
      refundVpoint: body.refundVpoint ?? null,
    });
    return hubOk(accepted);
  });

  mount(router, refundHubRoutes.transactionSnapshot, withBody, async (req, res) => {
    const body = kit.parseBody(transactionSnapshotBody, req);
    const { requestId, timestamp } = kit.signedHeaders(req);
    const miniAppUserId = kit.optionalHeader(req, 'X-MiniApp-User-ID');
    const miniAppId = kit.optionalHeader(req, 'X-MiniApp-Id');
    const authAudience = kit.optionalHeader(req, 'X-Auth-Audience');
    await services.signatures.verify(
      kit.callerOf(res),
      transactionSnapshotSigningString({ ...body, orderCreatedAt: body.orderInfo?.orderCreatedAt }, timestamp),
      body.secureHash,
    );
    const { secureHash: _hash, returnURL, userPaymentMethodId: _saved, ...fields } = body;
    await services.snapshots.record(kit.commandOf(req, res, requestId), kit.callerOf(res), {
      ...fields,
      paymentMethodCode: fields.paymentMethodCode!,
      providerId: fields.providerId!,
      amount: Math.trunc(body.amount),
      returnUrl: returnURL,
      miniAppUserId,
      miniAppId,
      authAudience,
    });
    return hubOk();
  });

  mount(router, refundHubRoutes.refundSnapshot, withBody, async (req, res) => {
    const body = kit.parseBody(refundSnapshotBody, req);
    const { requestId, timestamp } = kit.signedHeaders(req);
    await services.signatures.verify(kit.callerOf(res), refundSnapshotSigningString(body, timestamp), body.secureHash);
    const recorded = await services.refunds.snapshot(kit.commandOf(req, res, requestId), kit.callerOf(res), {
      transactionId: body.transactionId.toLowerCase(),
      amount: body.amount,
      currency: body.currency,
      refundReferenceId: body.refundReferenceId,
      refundType: upper(body.refundType),
      status: body.status,
      processedAt: body.processedAt,
      errorCode: body.errorCode ?? null,
      errorMessage: body.errorMessage ?? null,
    });
    return hubOk(recorded);
  });
}
