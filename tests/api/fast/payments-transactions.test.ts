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
import { apiKey, keyLookup, merchant, now, secretKey, timestamp, transactionDetails } from './payments-scene.js';
import { buildFastApp } from '../../support/fast-app.js';

/** The hub's cancel and confirm over the in-memory store: given streams, a signed request, the events it appends. */
const given = apiSpecification({ app: buildFastApp, now });

const id = '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';

const details = transactionDetails(id, {
  provider: { id: 'pv', code: 'SANDBOX_WALLET', name: 'Sandbox wallet' },
  skipHolding: false,
});
const held: PaymentsEvent[] = [
  { type: 'TransactionInitiated', data: details },
  {
    type: 'TransactionProcessing',
    data: { transactionId: id, providerTransactionId: 'W-1', providerInvoiceId: null, processingAt: now },
  },
  {
    type: 'TransactionHeld',
    data: {
      transactionId: id,
      payment: { bankName: null, accountHolderName: null, cardNo: null },
      holdExpiresAt: '2026-03-08T10:00:00.000Z',
      heldAt: now,
    },
  },
];
const scene = (...events: PaymentsEvent[]) =>
  given(merchant, keyLookup, existingStream(`transaction-${id}`, [...held, ...events]));

const put = (path: string, hash = hmacSha256Hex(secretKey, `${id}|${timestamp}`)): ApiRequest => ({
  method: 'PUT',
  path: `/api/payments/v1/transactions/${path}`,
  headers: {
    ...gatewayHeaders(),
    'X-Payment-API-Key': apiKey,
    'X-Request-ID': `req-${path}`,
    'X-Timestamp': timestamp,
  },
  json: { transactionId: id, secureHash: hash },
});

const initRequest = (hash: string): ApiRequest => ({
  method: 'POST',
  path: '/api/payments/v1/transactions',
  headers: { ...gatewayHeaders(), 'X-Payment-API-Key': apiKey, 'X-Request-ID': 'req-init', 'X-Timestamp': timestamp },
  json: {
    orderId: 'o9',
    referenceId: 'r9',
    amount: 120000.5,
    currency: 'VND',
    description: 'order o9',
    paymentMethodCode: 'WALLET',
    providerId: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02',
    orderInfo: { orderCreatedAt: 1772359200000 },
    secureHash: hash,
  },
});

describe('Payment hub API, fast: init over the in-memory store', () => {
  it('appends the transaction PENDING then PROCESSING (the provider took it) and claims the orderId', () =>
    given(merchant, keyLookup)
      .when(initRequest(hmacSha256Hex(secretKey, 'o9|r9|120000|VND|1772359200000')))
      .then(
        expectResponse(200, { body: matching({ code: 0, message: 'Success' }) }),
        expectNewEvents(/^transaction-/, [
          {
            type: 'TransactionInitiated',
            data: matching({ orderId: 'o9', referenceId: 'r9', amount: 120000, skipHolding: false, cardType: '3D' }),
            metadata: { actor: { merchantId: 'm1', terminalId: 'T1' } },
          },
          { type: 'TransactionProcessing', data: matching({ redirectUrl: /\/sandbox\/payments\// }) },
        ]),
        expectNewEvents(/^paymentOrder-/, [
          { type: 'PaymentOrderClaimed', data: matching({ merchantCode: 'm1', orderId: 'o9', referenceId: 'r9' }) },
        ]),
      ));

  it('refuses a secureHash over the float amount (not its integer part) with 4102, appending nothing', () =>
    given(merchant, keyLookup)
      .when(initRequest(hmacSha256Hex(secretKey, 'o9|r9|120000.5|VND|1772359200000')))
      .then(
        expectResponse(401, { body: { code: 4102, message: 'secureHash does not match the request' } }),
        expectNoNewEvents(),
      ));
});

describe('Payment hub API, fast: cancel and confirm over the in-memory store', () => {
  it('confirms a held transaction: TransactionCompleted (via CONFIRM), acted by the terminal', () =>
    scene()
      .when(put('confirm'))
      .then(
        expectResponse(200, { body: { code: 0, message: 'Success' } }),
        expectNewEvents(`transaction-${id}`, [
          {
            type: 'TransactionCompleted',
            data: { transactionId: id, via: 'CONFIRM', payment: null, completedAt: now },
            metadata: { actor: { merchantId: 'm1', terminalId: 'T1' }, requestId: 'req-confirm' },
          },
        ]),
      ));

  it('cancels a held transaction: TransactionCancelled by the merchant', () =>
    scene()
      .when(put('cancel'))
      .then(
        expectResponse(200, { body: { code: 0, message: 'Success' } }),
        expectNewEvents(`transaction-${id}`, [
          {
            type: 'TransactionCancelled',
            data: {
              transactionId: id,
              by: 'MERCHANT',
              status: 'CANCELLED',
              reason: null,
              requestedBy: null,
              cancelledAt: now,
            },
          },
        ]),
      ));

  it('refuses a cancel of a completed transaction with 4014 and appends nothing', () =>
    scene({
      type: 'TransactionCompleted',
      data: { transactionId: id, via: 'CONFIRM', payment: null, completedAt: now },
    })
      .when(put('cancel'))
      .then(
        expectResponse(400, {
          body: {
            code: 4014,
            message: 'Transaction not available for cancel',
            data: { status: 'COMPLETED', detail: 'a COMPLETED transaction cannot be cancelled' },
          },
        }),
        expectNoNewEvents(),
      ));

  it('refuses a signature over another timestamp with 4102 and appends nothing', () =>
    scene()
      .when(put('confirm', hmacSha256Hex(secretKey, `${id}|${Number(timestamp) - 1}`)))
      .then(
        expectResponse(401, { body: { code: 4102, message: 'secureHash does not match the request' } }),
        expectNoNewEvents(),
      ));
});
