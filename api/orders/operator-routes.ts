/**
 * The order view's operator routes (/operator/v1): merchants and their webhook keys, declared once: operator-router.ts
 * mounts them and openapi.ts documents them. docs/orders-keys.md, "Merchant keys".
 */
import { z } from 'zod';
import { successResponse, type ErrorCase } from '../shared/openapi.js';
import {
  badOperatorParam,
  badPositiveIdParam,
  operatorBaseErrors,
  operatorBodyErrors,
  operatorErrorResponses,
  operatorJsonBody,
  operatorNotFound,
  operatorRoute,
  operatorSuccess,
  positiveIdParam,
} from '../shared/operator-openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import {
  issuedKeySchema,
  issueKeyBody,
  orderKeySchema,
  orderMerchantSchema,
  registerMerchantBody,
  rotateKeyBody,
} from './operator-schemas.js';

export const orderMerchantsTag = 'Operator: order view merchants and keys';

const merchantParams = z.object({ merchantId: z.string() });
const keyParams = z.object({ merchantId: z.string(), keyId: positiveIdParam });
const shownOnce: ErrorCase = [
  409,
  'OPS-CONFLICT',
  'a resend under the X-Idempotency-Key of an issue: its secrets are shown once',
];
const badMerchantId = badOperatorParam('`merchantId` is not 1 to 64 letters, digits or "_"');
const keyedConflict: ErrorCase = [409, 'OPS-CONFLICT', 'a different request under this X-Idempotency-Key'];

export const ordersOperatorRoutes = {
  registerMerchant: operatorRoute(orderMerchantsTag, {
    method: 'post',
    path: '/order-merchants',
    operationId: 'registerOrderMerchant',
    summary: 'Register a merchant of the order view (one per accounting partner code)',
    request: operatorJsonBody(registerMerchantBody),
    responses: {
      201: successResponse('Registered', operatorSuccess(orderMerchantSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        [409, 'OPS-CONFLICT', 'the merchant exists'],
        keyedConflict,
      ),
    },
  }),
  getMerchant: operatorRoute(orderMerchantsTag, {
    method: 'get',
    path: '/order-merchants/{merchantId}',
    operationId: 'getOrderMerchant',
    summary: 'A merchant and its keys (never a secret), from its stream',
    request: { params: merchantParams },
    responses: {
      200: successResponse('The merchant', operatorSuccess(orderMerchantSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, badMerchantId, operatorNotFound('merchant')),
    },
  }),
  issueKey: operatorRoute(orderMerchantsTag, {
    method: 'post',
    path: '/order-merchants/{merchantId}/keys',
    operationId: 'issueOrderKey',
    summary: 'Issue the apiKey and secretKey of an environment, shown once',
    request: { params: merchantParams, ...operatorJsonBody(issueKeyBody) },
    responses: {
      201: successResponse('The pair, shown only now', operatorSuccess(issuedKeySchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        badMerchantId,
        operatorNotFound('merchant'),
        [409, 'OPS-CONFLICT', 'an active key of that environment exists: rotate it'],
        shownOnce,
        keyedConflict,
      ),
    },
  }),
  rotateKey: operatorRoute(orderMerchantsTag, {
    method: 'post',
    path: '/order-merchants/{merchantId}/keys/{keyId}/rotate',
    operationId: 'rotateOrderKey',
    summary: 'Issue the successor of an active key; the old one works until the overlap ends',
    request: { params: keyParams, ...operatorJsonBody(rotateKeyBody) },
    responses: {
      201: successResponse('The new pair, shown only now', operatorSuccess(issuedKeySchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        badMerchantId,
        badPositiveIdParam('keyId'),
        operatorNotFound('merchant or key'),
        [409, 'OPS-CONFLICT', 'the key is not active'],
        shownOnce,
        keyedConflict,
      ),
    },
  }),
  revokeKey: operatorRoute(orderMerchantsTag, {
    method: 'post',
    path: '/order-merchants/{merchantId}/keys/{keyId}/revoke',
    operationId: 'revokeOrderKey',
    summary: 'Revoke a key at once (again: changes nothing)',
    request: { params: keyParams },
    responses: {
      200: successResponse('The key, revoked', operatorSuccess(orderKeySchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        badMerchantId,
        badPositiveIdParam('keyId'),
        operatorNotFound('merchant or key'),
        keyedConflict,
      ),
    },
  }),
} satisfies Record<string, RouteSpec>;
