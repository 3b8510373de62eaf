/**
 * The payment hub's onboarding routes in the operator API (/operator/v1/payment-merchants), declared once:
 * operator-router.ts mounts them and openapi.ts documents them. docs/payments.md, "Onboarding".
 */
import { z } from 'zod';
import { successResponse } from '../shared/openapi.js';
import {
  badOperatorParam,
  operatorBaseErrors,
  operatorBodyErrors,
  operatorErrorResponses,
  operatorJsonBody,
  operatorNotFound,
  operatorRoute,
  operatorSuccess,
} from '../shared/operator-openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import {
  addTerminalBody,
  changeIpnBody,
  issuePaymentApiKeyBody,
  merchantSchema,
  onboardMerchantBody,
  paymentMethodBody,
  rotateSecretBody,
} from './operator-schemas.js';

export const paymentMerchantsTag = 'Operator: payment merchants';

const m = { merchantCode: z.string() };
const mt = { ...m, terminalId: z.string() };
const badCode = badOperatorParam('a path code is not 1 to 64 letters, digits, "_" or "-"');
const conflict: [number, string, string] = [409, 'OPS-CONFLICT', 'it exists already, or a used X-Idempotency-Key'];
const write = (spec: Parameters<typeof operatorRoute>[1]) => operatorRoute(paymentMerchantsTag, spec);
const errors = (...extra: [number, string, string][]) =>
  operatorErrorResponses(...operatorBaseErrors, ...operatorBodyErrors, badCode, ...extra);

export const paymentsOperatorRoutes = {
  onboard: write({
    method: 'post',
    path: '/payment-merchants',
    operationId: 'onboardPaymentMerchant',
    summary: 'Onboard a merchant (mini-app): IPN settings; answers its secretKey once',
    request: operatorJsonBody(onboardMerchantBody),
    responses: { 201: successResponse('Onboarded', operatorSuccess(merchantSchema)), ...errors(conflict) },
  }),
  get: write({
    method: 'get',
    path: '/payment-merchants/{merchantCode}',
    operationId: 'getPaymentMerchant',
    summary: 'A merchant with its terminals, key metadata, payment methods and secretKey ids',
    request: { params: z.object(m) },
    responses: {
      200: successResponse('The merchant', operatorSuccess(merchantSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, badCode, operatorNotFound('payment merchant')),
    },
  }),
  changeIpn: write({
    method: 'patch',
    path: '/payment-merchants/{merchantCode}',
    operationId: 'changePaymentMerchantIpn',
    summary: "Change the merchant's IPN URL or maximum retries",
    request: { params: z.object(m), ...operatorJsonBody(changeIpnBody) },
    responses: {
      200: successResponse('Changed', operatorSuccess(merchantSchema)),
      ...errors(operatorNotFound('payment merchant')),
    },
  }),
  rotateSecret: write({
    method: 'post',
    path: '/payment-merchants/{merchantCode}/secret-key/rotate',
    operationId: 'rotatePaymentMerchantSecretKey',
    summary: 'Issue a new secretKey (answered once); the previous one verifies until the overlap ends',
    request: { params: z.object(m), ...operatorJsonBody(rotateSecretBody) },
    responses: {
      201: successResponse('Rotated', operatorSuccess(z.record(z.unknown()))),
      ...errors(operatorNotFound('payment merchant'), conflict),
    },
  }),
  addTerminal: write({
    method: 'post',
    path: '/payment-merchants/{merchantCode}/terminals',
    operationId: 'addPaymentTerminal',
    summary: 'Add a terminal (receiving account)',
    request: { params: z.object(m), ...operatorJsonBody(addTerminalBody) },
    responses: {
      201: successResponse('Added', operatorSuccess(merchantSchema)),
      ...errors(operatorNotFound('payment merchant'), conflict),
    },
  }),
  issueApiKey: write({
    method: 'post',
    path: '/payment-merchants/{merchantCode}/terminals/{terminalId}/api-keys',
    operationId: 'issuePaymentApiKey',
    summary: 'Issue a paymentApiKey for the terminal (answered once, stored as its sha256)',
    request: { params: z.object(mt), ...operatorJsonBody(issuePaymentApiKeyBody) },
    responses: {
      201: successResponse('Issued', operatorSuccess(z.record(z.unknown()))),
      ...errors(operatorNotFound('payment merchant or terminal'), conflict),
    },
  }),
  revokeApiKey: write({
    method: 'post',
    path: '/payment-merchants/{merchantCode}/terminals/{terminalId}/api-keys/{apiKeyId}/revoke',
    operationId: 'revokePaymentApiKey',
    summary: 'Revoke a paymentApiKey (at once in this process, within 5 s in others)',
    request: { params: z.object({ ...mt, apiKeyId: z.string() }) },
    responses: {
      200: successResponse('Revoked', operatorSuccess(merchantSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, badCode, operatorNotFound('payment merchant, terminal or key')),
    },
  }),
  configureMethod: write({
    method: 'put',
    path: '/payment-merchants/{merchantCode}/terminals/{terminalId}/payment-methods/{methodCode}',
    operationId: 'configurePaymentMethod',
    summary: 'Add or replace a payment method of the terminal, with its providers and limits',
    request: { params: z.object({ ...mt, methodCode: z.string() }), ...operatorJsonBody(paymentMethodBody) },
    responses: {
      200: successResponse('Configured', operatorSuccess(merchantSchema)),
      ...errors(operatorNotFound('payment merchant or terminal')),
    },
  }),
  listTransactions: write({
    method: 'get',
    path: '/payment-merchants/{merchantCode}/transactions',
    operationId: 'listPaymentTransactions',
    summary: "The merchant's transactions, newest first (a read model: eventually consistent)",
    description:
      'Filters: `status`, `terminalId`; `limit` 1 to 500 (default 50). Read from the payments_transactions projection: a transaction shows within the projector lag (/metrics). Merchant backends read a transaction from its aggregate instead (GET /api/payments/v1/transactions).',
    request: {
      params: z.object(m),
      query: z.object({
        status: z.string().optional(),
        terminalId: z.string().optional(),
        limit: z.string().optional(),
      }),
    },
    responses: {
      200: successResponse('The transactions', operatorSuccess(z.object({ items: z.array(z.record(z.unknown())) }))),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        badCode,
        badOperatorParam('a filter is malformed'),
        operatorNotFound('payment merchant'),
      ),
    },
  }),
} satisfies Record<string, RouteSpec>;
