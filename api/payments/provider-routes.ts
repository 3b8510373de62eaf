/**
 * The routes providers and payers reach without gateway credentials (docs/payments-sandbox.md): providers' signed
 * callbacks under /payment-providers/v1, and the sandbox providers' hosted pages under /sandbox/payments. Declared
 * once: their routers mount them and openapi.ts documents them.
 */
import { z } from 'zod';
import { inCharacters } from '../shared/input-schemas.js';
import { errorResponses, jsonContent, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';

export const providerCallbacksBasePath = '/payment-providers/v1';
export const sandboxPagesBasePath = '/sandbox/payments';
export const providersTag = 'Payment providers';

export const callbackFailure = z.object({ code: z.string(), message: z.string() }).openapi('ProviderCallbackError');

export const providerCallbackBody = z
  .object({
    callbackId: inCharacters(z.string().min(1).max(128)),
    transactionId: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a UUID'),
    providerTransactionId: inCharacters(z.string().min(1).max(128)),
    result: z.enum(['AUTHORIZED', 'DECLINED', 'CANCELLED']),
    errorCode: inCharacters(z.string().max(64)).nullable(),
    errorMessage: inCharacters(z.string().max(500)).nullable(),
    payment: z
      .object({
        bankName: inCharacters(z.string().max(128)).nullable(),
        accountHolderName: inCharacters(z.string().max(128)).nullable(),
        cardNo: z
          .string()
          .regex(/^[0-9]{6}\*+[0-9]{4}$/, 'must be masked (first 6, last 4 digits)')
          .nullable(),
      })
      .nullable(),
    tokenization: z
      .object({
        // Opaque tokens of the provider, not text: their lengths stay UTF-16 units (the same for ASCII).
        providerToken: z.string().min(1).max(256),
        fingerprint: z.string().min(1).max(128),
        cardNo: z.string().regex(/^[0-9]{6}\*+[0-9]{4}$/, 'must be masked (first 6, last 4 digits)'),
        cardBrand: inCharacters(z.string().min(1).max(32)),
        expiry: z
          .string()
          .regex(/^(0[1-9]|1[0-2])\/[0-9]{2}$/, 'must be MM/YY')
          .nullable(),
      })
      .nullish()
      .openapi({ description: 'AUTHORIZED only: the token of a card the payer chose to save' }),
    sentAt: z.string(),
  })
  .openapi('ProviderCallback');

const callbackErrors: ErrorCase[] = [
  [400, 'INVALID', 'the body is not a callback (the message names the field)'],
  [401, 'INVALID_SIGNATURE', '`X-Provider-Signature` is not the HMAC of the body under the provider key'],
  [404, 'NOT_FOUND', 'no transaction of this provider has this providerTransactionId'],
  [409, 'NOT_PROCESSABLE', 'the transaction moved on (another outcome won)'],
  [500, 'INTERNAL', 'an unexpected failure'],
];

export const providerCallbackRoutes = {
  callback: {
    method: 'post',
    path: '/{providerCode}/callbacks',
    operationId: 'providerCallback',
    summary: "A provider's result for a transaction, signed with the provider's key",
    description:
      '`X-Provider-Signature`: HMAC-SHA-256 (hex) of the raw body under the provider key. AUTHORIZED holds or captures, DECLINED fails, CANCELLED (the payer cancelled on the page) fails. A callback sent twice (same callbackId) changes nothing.',
    tags: [providersTag],
    request: {
      params: z.object({ providerCode: z.string() }),
      headers: z.object({ 'X-Provider-Signature': z.string() }),
      body: { required: true, content: jsonContent(providerCallbackBody) },
    },
    responses: {
      200: { description: 'Applied', content: jsonContent(z.object({ code: z.literal('OK'), status: z.string() })) },
      ...errorResponses(callbackErrors, () => callbackFailure),
    },
  },
} satisfies Record<string, RouteSpec>;

/** A provider's refund result (docs/payments-refunds.md, "At the provider"), signed like a payment callback. */
export const providerRefundCallbackBody = z
  .object({
    callbackId: inCharacters(z.string().min(1).max(128)),
    refundId: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a UUID'),
    transactionId: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a UUID'),
    providerRefundId: inCharacters(z.string().min(1).max(128)),
    result: z.enum(['REFUNDED', 'FAILED']),
    errorCode: inCharacters(z.string().max(64)).nullable(),
    errorMessage: inCharacters(z.string().max(500)).nullable(),
    sentAt: z.string(),
  })
  .openapi('ProviderRefundCallback');

export const providerRefundCallbackRoutes = {
  refundCallback: {
    method: 'post',
    path: '/{providerCode}/refund-callbacks',
    operationId: 'providerRefundCallback',
    summary: "A provider's result for a refund, signed with the provider's key",
    description:
      '`X-Provider-Signature`: HMAC-SHA-256 (hex) of the raw body under the provider key. REFUNDED completes the refund, FAILED fails it (its amount is refundable again); both are notified to the partner by IPN. The same result twice changes nothing.',
    tags: [providersTag],
    request: {
      params: z.object({ providerCode: z.string() }),
      headers: z.object({ 'X-Provider-Signature': z.string() }),
      body: { required: true, content: jsonContent(providerRefundCallbackBody) },
    },
    responses: {
      200: { description: 'Applied', content: jsonContent(z.object({ code: z.literal('OK'), status: z.string() })) },
      ...errorResponses(
        [
          [400, 'INVALID', 'the body is not a refund callback (the message names the field)'],
          [401, 'INVALID_SIGNATURE', '`X-Provider-Signature` is not the HMAC of the body under the provider key'],
          [404, 'NOT_FOUND', 'no refund of this provider has this refundId'],
          [409, 'NOT_PROCESSABLE', 'the refund has the other result already'],
          [500, 'INTERNAL', 'an unexpected failure'],
        ],
        () => callbackFailure,
      ),
    },
  },
} satisfies Record<string, RouteSpec>;

const html = { 'text/html': { schema: z.string() } };

export const sandboxPageRoutes = {
  page: {
    method: 'get',
    path: '/{transactionId}',
    operationId: 'sandboxPaymentPage',
    summary: "A sandbox provider's hosted payment page (paymentInfo.redirectUrl)",
    tags: [providersTag],
    request: { params: z.object({ transactionId: z.string() }), query: z.object({ token: z.string() }) },
    responses: {
      200: { description: 'The page', content: html },
      404: { description: 'No such payment, or a wrong token', content: html },
    },
  },
  act: {
    method: 'post',
    path: '/{transactionId}',
    operationId: 'sandboxPaymentAction',
    summary:
      'What the payer did on the page: pay with a card (and save it), pay with a saved card, the 3-D Secure OTP, approve, decline, cancel, simulate',
    tags: [providersTag],
    request: {
      params: z.object({ transactionId: z.string() }),
      body: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: z.object({
              token: z.string(),
              action: z.enum([
                'card',
                'saved-card',
                'otp',
                'approve',
                'decline',
                'cancel',
                'transfer-received',
                'scan-and-pay',
              ]),
              cardNumber: z.string().optional(),
              expiry: z.string().optional(),
              saveCard: z.enum(['yes']).optional(),
              otp: z.string().optional(),
            }),
          },
        },
      },
    },
    responses: {
      200: { description: 'The next step (3-D Secure) or the result', content: html },
      303: { description: "Back to the transaction's returnURL" },
      400: { description: 'An action the page does not offer', content: html },
      404: { description: 'No such payment, or a wrong token', content: html },
    },
  },
} satisfies Record<string, RouteSpec>;
