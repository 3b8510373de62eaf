/**
 * The IPN routes of the payment hub's operator API (/operator/v1/payment-merchants/{merchantCode}/ipn-…), declared
 * once: operator-router.ts mounts them and openapi.ts documents them. docs/ipn.md, "Operations".
 */
import { z } from 'zod';
import { ipnDeliveryStatuses } from '../../application/payments/index.js';
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
import { matching } from '../shared/input-schemas.js';
import { uuidPattern } from '../shared/validation.js';
import { listLimit } from './operator-schemas.js';

export const paymentIpnTag = 'Operator: payment IPN';

/** GET …/ipn-notifications: filters. */
export const ipnNotificationQuery = z
  .object({
    status: z.enum(ipnDeliveryStatuses).optional(),
    transactionId: matching(uuidPattern, 'a transaction id (UUID)').optional(),
    limit: listLimit,
  })
  .strict();

/** GET …/ipn-attempts: filters. */
export const ipnAttemptQuery = z
  .object({
    transactionId: matching(uuidPattern, 'a transaction id (UUID)').optional(),
    notificationId: matching(uuidPattern, 'a notification id (UUID)').optional(),
    limit: listLimit,
  })
  .strict();

const m = { merchantCode: z.string() };
const route = (spec: Parameters<typeof operatorRoute>[1]) => operatorRoute(paymentIpnTag, spec);
const badCode = badOperatorParam('a path code is not 1 to 64 letters, digits, "_" or "-"');
const list = (what: string) => operatorSuccess(z.object({ items: z.array(z.record(z.unknown()).openapi(what)) }));

export const paymentIpnRoutes = {
  listNotifications: route({
    method: 'get',
    path: '/payment-merchants/{merchantCode}/ipn-notifications',
    operationId: 'listPaymentIpnNotifications',
    summary: "The merchant's IPN notifications, newest first, with their delivery state",
    description:
      'Filters: `status` (PENDING, DELIVERED, REJECTED, EXHAUSTED), `transactionId`; `limit` 1 to 500 (default 50).',
    request: {
      params: z.object(m),
      query: z.object({
        status: z.string().optional(),
        transactionId: z.string().optional(),
        limit: z.string().optional(),
      }),
    },
    responses: {
      200: successResponse('The notifications', list('PaymentIpnNotification')),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        badCode,
        badOperatorParam('a filter is malformed'),
        operatorNotFound('payment merchant'),
      ),
    },
  }),
  listAttempts: route({
    method: 'get',
    path: '/payment-merchants/{merchantCode}/ipn-attempts',
    operationId: 'listPaymentIpnAttempts',
    summary:
      "The merchant's IPN attempts, newest first: time, URL, HTTP status, latency, the answer's first bytes, error",
    description: 'Filters: `transactionId`, `notificationId`; `limit` 1 to 500 (default 50).',
    request: {
      params: z.object(m),
      query: z.object({
        transactionId: z.string().optional(),
        notificationId: z.string().optional(),
        limit: z.string().optional(),
      }),
    },
    responses: {
      200: successResponse('The attempts', list('PaymentIpnAttempt')),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        badCode,
        badOperatorParam('a filter is malformed'),
        operatorNotFound('payment merchant'),
      ),
    },
  }),
  resend: route({
    method: 'post',
    path: '/payment-merchants/{merchantCode}/ipn-notifications/{notificationId}/resend',
    operationId: 'resendPaymentIpnNotification',
    summary: 'Send one notification again: a new round of retries (a pending one is made due now)',
    request: { params: z.object({ ...m, notificationId: z.string() }) },
    responses: {
      200: successResponse('Due now', operatorSuccess(z.record(z.unknown()).openapi('PaymentIpnNotification'))),
      ...operatorErrorResponses(...operatorBaseErrors, badCode, operatorNotFound('payment merchant or notification')),
    },
  }),
  resendExhausted: route({
    method: 'post',
    path: '/payment-merchants/{merchantCode}/ipn-notifications/resend-exhausted',
    operationId: 'resendExhaustedPaymentIpnNotifications',
    summary: 'Send every EXHAUSTED notification of the merchant again (after its postback URL was fixed, say)',
    request: { params: z.object(m) },
    responses: {
      200: successResponse('How many are due now', operatorSuccess(z.object({ resent: z.number().int() }))),
      ...operatorErrorResponses(...operatorBaseErrors, badCode, operatorNotFound('payment merchant')),
    },
  }),
} satisfies Record<string, RouteSpec>;
