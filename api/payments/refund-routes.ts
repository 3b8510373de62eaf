/**
 * The payment hub's refund and snapshot routes (/api/payments/v1; docs/payments-refunds.md), declared once:
 * refund-router.ts mounts them inside the hub's router, openapi.ts documents them and the gateway front lists them.
 */
import { z } from 'zod';
import { errorResponses, jsonContent, successResponse, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { hubMessages } from './hub-messages.js';
import { hubTag } from './hub-routes.js';
import { hubFailure, hubSuccess, signedWriteHeaders } from './hub-schemas.js';
import { refundBody, refundData, refundSnapshotBody, transactionSnapshotBody } from './refund-schemas.js';

const security = [{ clientId: [], clientSecret: [], paymentApiKey: [] }];
const responses = (cases: ErrorCase[]) => errorResponses(cases, () => hubFailure, hubMessages);

const signedCallErrors: ErrorCase[] = [
  [400, '4001', 'a missing or malformed header or field (`data.field` names it); the body is not JSON'],
  [401, '4101', '`X-Payment-API-Key` absent'],
  [401, '4100', '`X-Payment-API-Key` unknown, revoked or expired'],
  [401, '4102', '`secureHash` does not match the signing string (docs/payments-signing.md)'],
  [401, '4103', '`X-Timestamp` outside the allowed window of the hub clock'],
  [401, '4105', '`client_id`/`client_secret` missing or wrong (the gateway)'],
  [403, '4201', 'the gateway refused the party (environment, interface not granted, IP allowlist)'],
  [409, '4093', '`X-Request-ID` already used by this terminal for another request'],
  [429, '429', 'the rate limit of this endpoint; `Retry-After` says when to retry'],
  [500, '5000', 'an unexpected failure (503 with `Retry-After` while the database is away)'],
];
const snapshotErrors: ErrorCase[] = [
  [400, '4016', '`status` is not COMPLETED or FAILED'],
  [400, '4017', 'FAILED without errorCode and errorMessage'],
];

export const refundHubRoutes = {
  refund: {
    method: 'post',
    path: '/transactions/refund',
    operationId: 'refundTransaction',
    summary: 'Refund a COMPLETED transaction, fully or partly',
    description:
      'Signed: `transactionId|amount|refundReferenceId|refundType[|refundVpoint]|timestamp`, or `orderId|referenceId|amount|refundReferenceId|refundType[|refundVpoint]|timestamp` when no transactionId is sent. Accepted PENDING: the provider is asked afterwards and the result is notified by IPN (`transactionType` REFUND). FULL refunds the whole remaining amount, which `amount` must state. docs/payments-refunds.md.',
    tags: [hubTag],
    security,
    request: {
      headers: signedWriteHeaders.extend({
        'X-User-ID': z.string().openapi({ description: 'the user performing the refund (kept with it)' }),
      }),
      body: { required: true, content: jsonContent(refundBody) },
    },
    responses: {
      200: successResponse('Accepted', hubSuccess(refundData)),
      ...responses([
        ...signedCallErrors,
        [
          400,
          '4012',
          'not COMPLETED, nothing left to refund, more than remains, or FULL not stating the remaining amount',
        ],
        [403, '4200', 'the transaction belongs to another terminal or merchant'],
        [404, '4301', 'no such transaction (or the orderId and referenceId do not match one)'],
        [409, '4092', 'the transaction has a refund with this refundReferenceId'],
      ]),
    },
  },
  transactionSnapshot: {
    method: 'post',
    path: '/transactions/snapshot',
    operationId: 'snapshotTransaction',
    summary: 'Record a payment result from an external system',
    description:
      'Signed: `orderId|referenceId|amount|currency|orderCreatedAt[|branchId][|businessUnitId]|status|processedAt|timestamp`. Creates the transaction COMPLETED or FAILED as given; no provider is called and no IPN is sent (the partner reported it).',
    tags: [hubTag],
    security,
    request: {
      headers: signedWriteHeaders.extend({
        'X-MiniApp-User-ID': z
          .string()
          .optional()
          .openapi({ description: 'host-app user, enriched from identity (404 4302)' }),
        'X-Auth-Audience': z.string().optional(),
      }),
      body: { required: true, content: jsonContent(transactionSnapshotBody) },
    },
    responses: {
      200: successResponse('Recorded', hubSuccess()),
      ...responses([
        ...signedCallErrors,
        ...snapshotErrors,
        [404, '4302', '`X-MiniApp-User-ID` names no user of the identity directory'],
        [409, '4091', 'orderId or referenceId already used by a transaction of this merchant (nothing recorded)'],
      ]),
    },
  },
  refundSnapshot: {
    method: 'post',
    path: '/refunds/snapshot',
    operationId: 'snapshotRefund',
    summary: 'Record a refund result from an external system',
    description:
      'Signed: `transactionId|amount|currency|refundReferenceId|refundType|status|processedAt|timestamp`. Recorded COMPLETED or FAILED as given; a COMPLETED one counts against the refundable amount (more than remains: 4012). No provider is called and no IPN is sent.',
    tags: [hubTag],
    security,
    request: { headers: signedWriteHeaders, body: { required: true, content: jsonContent(refundSnapshotBody) } },
    responses: {
      200: successResponse('Recorded', hubSuccess(refundData)),
      ...responses([
        ...signedCallErrors,
        ...snapshotErrors,
        [400, '4012', 'a COMPLETED refund of a transaction not COMPLETED, or of more than remains'],
        [403, '4200', 'the transaction belongs to another terminal or merchant'],
        [404, '4301', 'no such transaction'],
        [409, '4092', 'the transaction has a refund with this refundReferenceId'],
      ]),
    },
  },
} satisfies Record<string, RouteSpec>;
