/**
 * The payment sessions' routes under /api/payments/v1 (docs/payments-sessions.md), declared once: session-router.ts
 * mounts them inside the hub's router and openapi.ts documents them.
 */
import { z } from 'zod';
import { jsonContent, successResponse, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { callErrors, hubTag, responses, security, signedErrors } from './hub-routes.js';
import { hubSuccess, keyHeader, signedWriteHeaders } from './hub-schemas.js';
import { cancelSessionBody, createSessionBody, paymentSessionSchema } from './session-schemas.js';

const notFound: ErrorCase = [
  404,
  '4404',
  'payment session not found (unknown, or another terminal’s or merchant’s: existence is not revealed)',
];

export const sessionRoutes = {
  createSession: {
    method: 'post',
    path: '/payment-sessions',
    operationId: 'createPaymentSession',
    summary: 'Open a payment session (centralized flow; an addition: the seed shows no create endpoint)',
    description:
      'The order and the VOUCHER/VPOINT lines the backend settled; the hub adds the PAYMENT line (originalAmount minus the lines; 0: COMPLETED at once). Signed: `orderId|referenceId|originalAmount|currency|createdAt` (createdAt in Unix ms). Pay it with init payment and `paymentSessionId`.',
    tags: [hubTag],
    security,
    request: { headers: signedWriteHeaders, body: { required: true, content: jsonContent(createSessionBody) } },
    responses: {
      200: successResponse('Created', hubSuccess(paymentSessionSchema)),
      ...responses([
        ...callErrors,
        ...signedErrors,
        [409, '4091', 'orderId and referenceId already used by a payment session of this merchant'],
      ]),
    },
  },
  getSession: {
    method: 'get',
    path: '/payment-sessions',
    operationId: 'getPaymentSession',
    summary: 'A payment session by paymentSessionId, or by orderId and referenceId',
    description: "Read from the session's stream (strongly consistent). Only the terminal of the key sees it.",
    tags: [hubTag],
    security,
    request: {
      headers: keyHeader.extend({ 'X-Request-ID': z.string().optional() }),
      query: z.object({
        paymentSessionId: z.string().optional(),
        orderId: z.string().optional(),
        referenceId: z.string().optional(),
      }),
    },
    responses: {
      200: successResponse('Found', hubSuccess(paymentSessionSchema)),
      ...responses([
        ...callErrors,
        [400, '4001', 'neither a paymentSessionId (UUID) nor both orderId and referenceId'],
        notFound,
      ]),
    },
  },
  cancelSession: {
    method: 'put',
    path: '/payment-sessions/cancel',
    operationId: 'cancelPaymentSession',
    summary: 'Cancel a PENDING payment session (an addition)',
    description:
      'Signed: `paymentSessionId|timestamp`, or `orderId|referenceId|timestamp` without paymentSessionId. A PROCESSING session is ended by cancelling its transaction.',
    tags: [hubTag],
    security,
    request: { headers: signedWriteHeaders, body: { required: true, content: jsonContent(cancelSessionBody) } },
    responses: {
      200: successResponse('Cancelled', hubSuccess(paymentSessionSchema)),
      ...responses([
        ...callErrors,
        ...signedErrors,
        [400, '4018', 'Payment session not available for cancel (not PENDING)'],
        notFound,
      ]),
    },
  },
} satisfies Record<string, RouteSpec>;
