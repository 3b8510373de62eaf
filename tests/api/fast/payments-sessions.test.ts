import { gatewayHeaders } from '../../support/gateway.js';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import type { PaymentsEvent } from '../../../domain/payments/events.js';
import {
  apiSpecification,
  existingStream,
  expectNewEvents,
  expectNoNewEvents,
  expectResponse,
  type ApiRequest,
} from '../../support/api-spec.js';
import { matching } from '../../support/match.js';
import { apiKey, keyLookup, merchant, now, secretKey, timestamp } from './payments-scene.js';
import { buildFastApp } from '../../support/fast-app.js';

/**
 * Payment sessions over the in-memory store (docs/payments-sessions.md): given streams, a signed request, the events
 * it appends (the session, its pair's guard, the transaction and the session's PROCESSING in one append).
 */
const given = apiSpecification({ app: buildFastApp, now });

const sessionId = '5a1e0c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';
const headers = (requestId: string) => ({
  ...gatewayHeaders(),
  'X-Payment-API-Key': apiKey,
  'X-Request-ID': requestId,
  'X-Timestamp': timestamp,
});
const voucher = { type: 'VOUCHER' as const, amount: 30_000, details: { voucherCode: 'V-1', promotionId: 'P-1' } };
const createRequest = (originalAmount: number): ApiRequest => ({
  method: 'POST',
  path: '/api/payments/v1/payment-sessions',
  headers: headers('req-create'),
  json: {
    orderId: 'o1',
    referenceId: 'r1',
    originalAmount,
    currency: 'VND',
    createdAt: 1772359200000,
    breakdown: [voucher],
    secureHash: hmacSha256Hex(secretKey, `o1|r1|${originalAmount}|VND|1772359200000`),
  },
});
const session: PaymentsEvent = {
  type: 'PaymentSessionCreated',
  data: {
    paymentSessionId: sessionId,
    merchantCode: 'm1',
    terminalId: 'T1',
    orderId: 'o1',
    referenceId: 'r1',
    originalAmount: 130_000,
    amount: 100_000,
    currency: 'VND',
    orderCreatedAt: 1772359200000,
    orderInfo: null,
    breakdown: [
      {
        type: 'VOUCHER',
        amount: 30_000,
        details: voucher.details,
        referenceId: null,
        referenceType: null,
        status: 'PENDING',
      },
      { type: 'PAYMENT', amount: 100_000, status: 'PENDING', referenceId: null, referenceType: null, details: null },
    ],
    expiresAt: '2026-03-01T10:15:00.000Z',
    createdAt: now,
  },
};

describe('Payment sessions API, fast: over the in-memory store', () => {
  it('create appends the session (PENDING) and claims its orderId+referenceId pair, acted by the terminal', () =>
    given(merchant, keyLookup)
      .when(createRequest(130_000))
      .then(
        expectResponse(200, { body: matching({ code: 0, data: matching({ status: 'PENDING', amount: 100_000 }) }) }),
        expectNewEvents(/^paymentSession-/, [
          {
            type: 'PaymentSessionCreated',
            data: matching({
              orderId: 'o1',
              originalAmount: 130_000,
              amount: 100_000,
              expiresAt: '2026-03-01T10:15:00.000Z',
            }),
            metadata: { actor: { merchantId: 'm1', terminalId: 'T1' }, requestId: 'req-create' },
          },
        ]),
        expectNewEvents(/^paymentSessionOrder-/, [
          {
            type: 'PaymentSessionOrderClaimed',
            data: matching({ merchantCode: 'm1', orderId: 'o1', referenceId: 'r1' }),
          },
        ]),
      ));

  it('refuses lines worth more than the order (4001 naming breakdown), appending nothing', () =>
    given(merchant, keyLookup)
      .when(createRequest(29_999))
      .then(
        expectResponse(400, {
          body: {
            code: 4001,
            message: 'Invalid request',
            data: { field: 'breakdown', detail: 'breakdown: the lines (30000) exceed originalAmount (29999)' },
          },
        }),
        expectNoNewEvents(),
      ));

  it('init with paymentSessionId: the transaction and the session’s PROCESSING in one append', () =>
    given(merchant, keyLookup, existingStream(`paymentSession-${sessionId}`, [session]))
      .when({
        method: 'POST',
        path: '/api/payments/v1/transactions',
        headers: headers('req-init'),
        json: {
          orderId: 'o1',
          referenceId: 'r1',
          amount: 100_000,
          currency: 'VND',
          description: 'order o1',
          paymentMethodCode: 'WALLET',
          providerId: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02',
          paymentSessionId: sessionId,
          secureHash: hmacSha256Hex(secretKey, 'o1|r1|100000|VND|'),
        },
      })
      .then(
        expectResponse(200, { body: matching({ code: 0 }) }),
        expectNewEvents(/^transaction-/, [
          { type: 'TransactionInitiated', data: matching({ orderId: 'o1', paymentSessionId: sessionId }) },
          { type: 'TransactionProcessing', data: matching({ providerInvoiceId: null }) },
        ]),
        expectNewEvents(`paymentSession-${sessionId}`, [
          {
            type: 'PaymentSessionProcessing',
            data: matching({
              paymentSessionId: sessionId,
              method: 'WALLET',
              provider: 'SANDBOX_WALLET',
              processingAt: now,
            }),
          },
        ]),
      ));

  it('cancel of a PENDING session appends PaymentSessionCancelled (by the merchant)', () =>
    given(merchant, keyLookup, existingStream(`paymentSession-${sessionId}`, [session]))
      .when({
        method: 'PUT',
        path: '/api/payments/v1/payment-sessions/cancel',
        headers: headers('req-cancel'),
        json: { paymentSessionId: sessionId, secureHash: hmacSha256Hex(secretKey, `${sessionId}|${timestamp}`) },
      })
      .then(
        expectResponse(200, { body: matching({ code: 0, data: matching({ status: 'CANCELLED' }) }) }),
        expectNewEvents(`paymentSession-${sessionId}`, [
          {
            type: 'PaymentSessionCancelled',
            data: {
              paymentSessionId: sessionId,
              by: 'MERCHANT',
              transactionId: null,
              reason: null,
              requestedBy: null,
              errorCode: null,
              errorMessage: null,
              cancelledAt: now,
            },
          },
        ]),
      ));
});
