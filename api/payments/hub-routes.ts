/**
 * The payment hub's routes (/api/payments/v1), declared once: hub-router.ts mounts them and openapi.ts documents them
 * (api/shared/route-spec.ts). Codes: docs/payments.md, "Codes".
 */
import { z } from 'zod';
import { errorResponses, jsonContent, successResponse, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { hubMessages } from './hub-messages.js';
import {
  cancelBody,
  confirmBody,
  hubFailure,
  hubSuccess,
  initHeaders,
  initPaymentBody,
  initPaymentData,
  keyHeader,
  paymentMethodSchema,
  removeSavedMethodBody,
  removeSavedMethodHeaders,
  savedMethodSchema,
  savedMethodsHeaders,
  signedWriteHeaders,
  transactionItemSchema,
} from './hub-schemas.js';

export const paymentsBasePath = '/api/payments/v1';
export const hubTag = 'Payment hub';
export const security = [{ clientId: [], clientSecret: [], paymentApiKey: [] }];

export const responses = (cases: ErrorCase[]) => errorResponses(cases, () => hubFailure, hubMessages);

/** What any hub call can get from the gateway, the key check and the handler. */
export const callErrors: ErrorCase[] = [
  [401, '4101', '`X-Payment-API-Key` absent'],
  [401, '4100', '`X-Payment-API-Key` unknown, revoked or expired'],
  [401, '4105', '`client_id`/`client_secret` missing or wrong (the gateway)'],
  [403, '4201', 'the gateway refused the party (environment, interface not granted, IP allowlist)'],
  [429, '429', 'the rate limit of this endpoint; `Retry-After` says when to retry'],
  [500, '5000', 'an unexpected failure (503 with `Retry-After` while the database is away)'],
];
/** What a signed write can get. */
export const signedErrors: ErrorCase[] = [
  [400, '4001', 'a missing or malformed header or field (`data.field` names it); the body is not JSON'],
  [401, '4102', '`secureHash` does not match the signing string (docs/payments-signing.md)'],
  [401, '4103', '`X-Timestamp` outside the allowed window of the hub clock'],
  [409, '4093', '`X-Request-ID` already used by this terminal for another request'],
];
const ownership: ErrorCase[] = [
  [403, '4200', 'the transaction belongs to another terminal or merchant'],
  [404, '4301', 'no such transaction (or the orderId and referenceId do not match one)'],
];

export const hubRoutes = {
  init: {
    method: 'post',
    path: '/transactions',
    operationId: 'initPayment',
    summary: 'Init payment from a merchant backend',
    description:
      'Creates a PENDING transaction on the terminal of the key. Signed: `orderId|referenceId|amount|currency|orderInfo.orderCreatedAt` then the optional `branchId`, `businessUnitId`, `sellerMerchantId`, `paymentType`, `skipHolding` when present (docs/payments-signing.md).',
    tags: [hubTag],
    security,
    request: { headers: initHeaders, body: { required: true, content: jsonContent(initPaymentBody) } },
    responses: {
      200: successResponse('Initiated', hubSuccess(initPaymentData)),
      ...responses([
        ...callErrors,
        ...signedErrors,
        [404, '4302', '`X-MiniApp-User-ID` names no user of the identity directory'],
        [409, '4091', 'orderId or referenceId already used by a transaction of this merchant'],
      ]),
    },
  },
  lookup: {
    method: 'get',
    path: '/transactions',
    operationId: 'getTransactions',
    summary: 'Transactions by transactionId, or by orderId and referenceId',
    description:
      'Reads the transaction as its stream says (strongly consistent). Only the terminal of the key sees it.',
    tags: [hubTag],
    security,
    request: {
      headers: keyHeader,
      query: z.object({
        transactionId: z.string().optional(),
        orderId: z.string().optional(),
        referenceId: z.string().optional(),
      }),
    },
    responses: {
      200: successResponse('Found', hubSuccess(z.object({ items: z.array(transactionItemSchema) }))),
      ...responses([
        ...callErrors,
        [400, '4661', 'neither a transactionId (UUID) nor both orderId and referenceId'],
        ...ownership,
      ]),
    },
  },
  cancel: {
    method: 'put',
    path: '/transactions/cancel',
    operationId: 'cancelTransaction',
    summary: 'Cancel a transaction not yet captured',
    description: 'Signed: `transactionId|timestamp`, or `orderId|referenceId|timestamp` when no transactionId is sent.',
    tags: [hubTag],
    security,
    request: { headers: signedWriteHeaders, body: { required: true, content: jsonContent(cancelBody) } },
    responses: {
      200: successResponse('Cancelled', hubSuccess()),
      ...responses([
        ...callErrors,
        ...signedErrors,
        [400, '4014', 'Transaction not available for cancel (captured, failed or cancelled)'],
        ...ownership,
      ]),
    },
  },
  confirm: {
    method: 'put',
    path: '/transactions/confirm',
    operationId: 'confirmTransaction',
    summary: 'Capture held money',
    description: 'Signed as cancel. Only a HOLDING transaction can be confirmed.',
    tags: [hubTag],
    security,
    request: { headers: signedWriteHeaders, body: { required: true, content: jsonContent(confirmBody) } },
    responses: {
      200: successResponse('Captured', hubSuccess()),
      ...responses([
        ...callErrors,
        ...signedErrors,
        [400, '4015', 'Transaction not available for confirm (not HOLDING)'],
        ...ownership,
      ]),
    },
  },
  paymentMethods: {
    method: 'get',
    path: '/payment-methods',
    operationId: 'listPaymentMethods',
    summary: "The key's terminal's payment methods for an amount and currency",
    description:
      'Enabled methods whose chosen provider (smallest priority among those whose limits take the amount) accepts it, ordered by sortOrder, named by `Accept-Language` (`vi` or `en`, by weight then order; default `vi`). The answer is `{items}` at the top level, without the envelope (the seed). Read from the terminal configuration as kept for at most 5 s.',
    tags: [hubTag],
    security,
    request: {
      headers: keyHeader.extend({
        'Accept-Language': z.string().optional(),
        'X-MiniApp-User-ID': z.string().optional().openapi({
          description: "an addition: each method then lists the user's saved cards for it (`savedMethods`)",
        }),
      }),
      query: z.object({ amount: z.string(), currency: z.string() }),
    },
    responses: {
      200: successResponse('The methods', z.object({ items: z.array(paymentMethodSchema) })),
      ...responses([
        ...callErrors,
        [400, '4001', 'amount or currency missing or malformed'],
        [404, '4302', '`X-MiniApp-User-ID` names no user of the identity directory'],
      ]),
    },
  },
  savedMethods: {
    method: 'get',
    path: '/user-payment-methods',
    operationId: 'listSavedPaymentMethods',
    summary: "A host-app user's saved payment methods at the key's merchant (an addition to the seed)",
    description:
      'The cards the user chose to save while paying (card only masked), oldest first; `userPaymentMethodId` pays with one in init payment. Strongly consistent.',
    tags: [hubTag],
    security,
    request: { headers: savedMethodsHeaders },
    responses: {
      200: successResponse('The saved methods', hubSuccess(z.object({ items: z.array(savedMethodSchema) }))),
      ...responses([
        ...callErrors,
        [400, '4001', '`X-MiniApp-User-ID` missing or malformed'],
        [404, '4302', '`X-MiniApp-User-ID` names no user of the identity directory'],
      ]),
    },
  },
  removeSavedMethod: {
    method: 'put',
    path: '/user-payment-methods/remove',
    operationId: 'removeSavedPaymentMethod',
    summary: "Removes a user's saved payment method (an addition to the seed)",
    description:
      'Signed: `userPaymentMethodId|X-MiniApp-User-ID|timestamp` (docs/payments-signing.md). A removed method can no longer pay.',
    tags: [hubTag],
    security,
    request: {
      headers: removeSavedMethodHeaders,
      body: { required: true, content: jsonContent(removeSavedMethodBody) },
    },
    responses: {
      200: successResponse('Removed', hubSuccess()),
      ...responses([
        ...callErrors,
        ...signedErrors,
        [404, '4302', '`X-MiniApp-User-ID` names no user of the identity directory'],
        [404, '4303', 'the user has no such saved payment method here (unknown, removed, or another user’s)'],
      ]),
    },
  },
} satisfies Record<string, RouteSpec>;
