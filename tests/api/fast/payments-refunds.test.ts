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
import {
  apiKey,
  keyLookup,
  merchant,
  now,
  secretKey,
  timestamp,
  transactionDetails,
  walletProviderId,
} from './payments-scene.js';
import { buildFastApp } from '../../support/fast-app.js';

/**
 * The hub's refunds and snapshots over the in-memory store (docs/payments-refunds.md): given streams, a signed
 * request, the events it appends (or none).
 */
const given = apiSpecification({ app: buildFastApp, now });

const id = '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';

const details = transactionDetails(id);
const processing: PaymentsEvent[] = [
  { type: 'TransactionInitiated', data: details },
  {
    type: 'TransactionProcessing',
    data: { transactionId: id, providerTransactionId: 'W-1', providerInvoiceId: null, processingAt: now },
  },
];
const completed: PaymentsEvent[] = [
  ...processing,
  { type: 'TransactionCompleted', data: { transactionId: id, via: 'AUTO_CAPTURE', payment: null, completedAt: now } },
];
const scene = (transaction: PaymentsEvent[], ledger: PaymentsEvent[] = []) =>
  given(
    merchant,
    keyLookup,
    existingStream(`transaction-${id}`, transaction),
    ...(ledger.length ? [existingStream(`paymentRefunds-${id}`, ledger)] : []),
  );

const headers = (requestId: string) => ({
  ...gatewayHeaders(),
  'X-Payment-API-Key': apiKey,
  'X-Request-ID': requestId,
  'X-Timestamp': timestamp,
});

const refund = (amount: number, refundReferenceId: string, refundType = 'PARTIAL'): ApiRequest => ({
  method: 'POST',
  path: '/api/payments/v1/transactions/refund',
  headers: { ...headers(`req-${refundReferenceId}`), 'X-User-ID': 'u-7' },
  json: {
    transactionId: id,
    amount,
    refundReferenceId,
    refundType,
    secureHash: hmacSha256Hex(secretKey, `${id}|${amount}|${refundReferenceId}|${refundType}|${timestamp}`),
  },
});

const requested = (refundId: string, amount: number, remaining: number): PaymentsEvent => ({
  type: 'RefundRequested',
  data: {
    transactionId: id,
    refundId,
    refundReferenceId: `ref-${refundId}`,
    merchantCode: 'm1',
    terminalId: 'T1',
    amount,
    currency: 'VND',
    refundType: 'PARTIAL',
    reason: null,
    requestedBy: null,
    userId: 'u-7',
    refundVpoint: null,
    providerCode: 'SANDBOX_WALLET',
    remainingRefundableAmount: remaining,
    requestedAt: now,
  },
});

describe('Payment hub API, fast: refunds over the in-memory store', () => {
  it('appends RefundRequested on the ledger, acted by the terminal, and answers the refund and what remains', () =>
    scene(completed)
      .when(refund(30_000, 'R1'))
      .then(
        expectResponse(200, {
          body: matching({
            code: 0,
            data: matching({ refundId: /^[0-9a-f-]{36}$/, remainingRefundableAmount: 70_000, status: 'PENDING' }),
          }),
        }),
        expectNewEvents(`paymentRefunds-${id}`, [
          {
            type: 'RefundRequested',
            data: matching({
              transactionId: id,
              refundReferenceId: 'R1',
              amount: 30_000,
              refundType: 'PARTIAL',
              userId: 'u-7',
              providerCode: 'SANDBOX_WALLET',
              remainingRefundableAmount: 70_000,
              requestedAt: now,
            }),
            metadata: { actor: { merchantId: 'm1', terminalId: 'T1' }, requestId: 'req-R1' },
          },
        ]),
      ));

  it('refuses a refund of a transaction not COMPLETED with 4012, appending nothing', () =>
    scene(processing)
      .when(refund(1_000, 'R1'))
      .then(expectResponse(400, { body: matching({ code: 4012 }) }), expectNoNewEvents()));

  it('counts PENDING refunds: more than remains is 4012, a used refundReferenceId 4092, appending nothing', async () => {
    const s = scene(completed, [requested('a', 90_000, 10_000)]);
    await s
      .when(refund(10_001, 'R2'))
      .then(expectResponse(400, { body: matching({ code: 4012 }) }), expectNoNewEvents());
    await s
      .when(refund(1_000, 'ref-a'))
      .then(expectResponse(409, { body: matching({ code: 4092 }) }), expectNoNewEvents());
  });

  it('records a refund snapshot COMPLETED as given', () =>
    scene(completed)
      .when({
        method: 'POST',
        path: '/api/payments/v1/refunds/snapshot',
        headers: headers('req-snap'),
        json: {
          transactionId: id,
          amount: 20_000,
          currency: 'VND',
          refundReferenceId: 'S1',
          refundType: 'full',
          status: 'COMPLETED',
          processedAt: 1772359200000,
          secureHash: hmacSha256Hex(secretKey, `${id}|20000|VND|S1|full|COMPLETED|1772359200000|${timestamp}`),
        },
      })
      .then(expectResponse(400, { body: matching({ code: 4012 }) }), expectNoNewEvents()));
});

describe('Payment hub API, fast: transaction snapshot over the in-memory store', () => {
  const snapshot = (status: string, extra: Record<string, unknown> = {}): ApiRequest => ({
    method: 'POST',
    path: '/api/payments/v1/transactions/snapshot',
    headers: headers(`req-snapshot-${status}`),
    json: {
      orderId: 'o9',
      referenceId: 'r9',
      amount: 50_000,
      currency: 'VND',
      description: 'paid elsewhere',
      paymentMethodCode: 'WALLET',
      providerId: walletProviderId,
      status,
      processedAt: 1772359100000,
      ...extra,
      secureHash: hmacSha256Hex(secretKey, `o9|r9|50000|VND||${status}|1772359100000|${timestamp}`),
    },
  });

  it('appends the transaction in its end state and claims the orderId, no provider involved', () =>
    given(merchant, keyLookup)
      .when(snapshot('COMPLETED', { providerTransactionId: 'EXT-9' }))
      .then(
        expectResponse(200, { body: { code: 0, message: 'Success' } }),
        expectNewEvents(/^transaction-/, [
          {
            type: 'TransactionSnapshotRecorded',
            data: matching({
              orderId: 'o9',
              amount: 50_000,
              status: 'COMPLETED',
              providerTransactionId: 'EXT-9',
              processedAt: '2026-03-01T09:58:20.000Z',
              errorCode: null,
              createdAt: now,
            }),
            metadata: { actor: { merchantId: 'm1', terminalId: 'T1' } },
          },
        ]),
        expectNewEvents(/^paymentOrder-/, [
          { type: 'PaymentOrderClaimed', data: matching({ merchantCode: 'm1', orderId: 'o9', referenceId: 'r9' }) },
        ]),
      ));

  it('refuses 4016 and 4017, appending nothing', async () => {
    await given(merchant, keyLookup)
      .when(snapshot('HOLDING'))
      .then(expectResponse(400, { body: matching({ code: 4016 }) }), expectNoNewEvents());
    await given(merchant, keyLookup)
      .when(snapshot('FAILED', { errorCode: 'E' }))
      .then(expectResponse(400, { body: matching({ code: 4017 }) }), expectNoNewEvents());
  });
});

describe('Payment hub API, fast: refunds of a payment-session transaction', () => {
  const sessionId = '5d7a1c2e-1111-4c1d-9f0e-6a1b2c3d4e5f';
  const voucher = {
    type: 'VOUCHER' as const,
    amount: 30_000,
    status: 'PENDING' as const,
    referenceId: 'RSV-1',
    referenceType: 'RESERVATION' as const,
    details: { voucherCode: 'V-1', promotionId: 'P-1' },
  };
  const session = existingStream(`paymentSession-${sessionId}`, [
    {
      type: 'PaymentSessionCreated',
      data: {
        paymentSessionId: sessionId,
        merchantCode: 'm1',
        terminalId: 'T1',
        orderId: 'o1',
        referenceId: 'r1',
        originalAmount: 150_000,
        amount: 100_000,
        currency: 'VND',
        orderCreatedAt: 1772359200000,
        orderInfo: null,
        breakdown: [
          voucher,
          {
            type: 'VPOINT',
            amount: 20_000,
            status: 'PENDING',
            referenceId: null,
            referenceType: null,
            details: { points: '40000' },
          },
          {
            type: 'PAYMENT',
            amount: 100_000,
            status: 'PENDING',
            referenceId: null,
            referenceType: null,
            details: null,
          },
        ],
        expiresAt: '2026-03-01T10:15:00.000Z',
        createdAt: now,
      },
    },
  ]);
  const sessionTransaction = completed.map((e) =>
    e.type === 'TransactionInitiated' ? { ...e, data: { ...details, paymentSessionId: sessionId } } : e,
  );
  const sessionScene = () =>
    given(merchant, keyLookup, session, existingStream(`transaction-${id}`, sessionTransaction));
  const sessionRefund = (amount: number, ref: string, refundType: string, refundVpoint?: number): ApiRequest => {
    const vpoint = refundVpoint === undefined ? '' : `|${refundVpoint}`;
    return {
      method: 'POST',
      path: '/api/payments/v1/transactions/refund',
      headers: { ...headers(`req-${ref}`), 'X-User-ID': 'u-7' },
      json: {
        transactionId: id,
        amount,
        refundReferenceId: ref,
        refundType,
        ...(refundVpoint !== undefined && { refundVpoint }),
        secureHash: hmacSha256Hex(secretKey, `${id}|${amount}|${ref}|${refundType}${vpoint}|${timestamp}`),
      },
    };
  };

  it('a PARTIAL of points only is COMPLETED in one append (no provider), answering the points left', () =>
    sessionScene()
      .when(sessionRefund(0, 'P1', 'PARTIAL', 10_000))
      .then(
        expectResponse(200, {
          body: matching({
            data: matching({
              status: 'COMPLETED',
              remainingRefundableAmount: 100_000,
              remainingRefundableVpoint: 30_000,
            }),
          }),
        }),
        expectNewEvents(`paymentRefunds-${id}`, [
          {
            type: 'RefundRequested',
            data: matching({
              amount: 0,
              refundVpoint: 10_000,
              session: { paymentSessionId: sessionId, vpoint: 10_000, vpointAmount: 5_000, vouchers: [] },
            }),
          },
          { type: 'RefundCompleted', data: matching({ amount: 0, providerRefundId: null }) },
        ]),
      ));

  it('a FULL stating originalAmount takes the money, all points and the voucher line', () =>
    sessionScene()
      .when(sessionRefund(150_000, 'F1', 'FULL'))
      .then(
        expectResponse(200, {
          body: matching({ data: matching({ status: 'PENDING', remainingRefundableVpoint: 0 }) }),
        }),
        expectNewEvents(`paymentRefunds-${id}`, [
          {
            type: 'RefundRequested',
            data: matching({
              amount: 100_000,
              refundType: 'FULL',
              session: {
                paymentSessionId: sessionId,
                vpoint: 40_000,
                vpointAmount: 20_000,
                vouchers: [
                  { amount: 30_000, referenceId: 'RSV-1', referenceType: 'RESERVATION', details: voucher.details },
                ],
              },
            }),
          },
        ]),
      ));

  it('a PARTIAL without refundVpoint is 4001, a FULL stating another figure 4012, appending nothing', async () => {
    await sessionScene()
      .when(sessionRefund(1_000, 'X1', 'PARTIAL'))
      .then(expectResponse(400, { body: matching({ code: 4001 }) }), expectNoNewEvents());
    await sessionScene()
      .when(sessionRefund(120_000, 'X2', 'FULL'))
      .then(expectResponse(400, { body: matching({ code: 4012 }) }), expectNoNewEvents());
  });
});
