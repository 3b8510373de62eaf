import { createHash } from 'node:crypto';
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
  merchantWithSecret,
  now,
  timestamp,
  transactionDetails,
  walletProviderId,
} from './payments-scene.js';
import { buildFastApp } from '../../support/fast-app.js';

/**
 * The hub's signed ids as a client reads the seed (issue 30; docs/payments-signing.md, "Ids"): Vietnamese ids on init,
 * cancel and confirm by the pair, refunds and snapshots, signed over UTF-8 (the published vectors' hashes, computed
 * with openssl, not with this code); lengths in characters; an empty optional signed field counts as absent; a
 * referenceId is usable once per merchant (409 4091, "pair or reference already used").
 */
const given = apiSpecification({ app: buildFastApp, now });
/** The published vectors' secret key: the hashes below are docs/payments-signing.md's, computed with openssl. */
const secretKey = 'sk_test_4f3c2b1a0987654321fedcba';
const merchant = merchantWithSecret(secretKey);

const orderId = 'ĐH-Xe-điện-0001';
const referenceId = 'TC-Hà-Nội-0001';
const id = '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';

const headers = (requestId: string, ts = timestamp) => ({
  ...gatewayHeaders(),
  'X-Payment-API-Key': apiKey,
  'X-Request-ID': requestId,
  'X-Timestamp': ts,
});

const init = (body: Record<string, unknown>, secureHash: string, requestId = 'req-init'): ApiRequest => ({
  method: 'POST',
  path: '/api/payments/v1/transactions',
  headers: headers(requestId),
  json: {
    amount: 150000,
    currency: 'VND',
    description: 'Xe điện VinFast',
    paymentMethodCode: 'WALLET',
    providerId: walletProviderId,
    orderInfo: { orderCreatedAt: 1767225600000 },
    ...body,
    secureHash,
  },
});
/** An init signed here over `orderId|referenceId|150000|VND|1767225600000` (the vectors prove the HMAC itself). */
const signedInit = (
  o: string,
  r: string,
  extra: Record<string, unknown> = {},
  requestId = `req-${Buffer.from(o).toString('hex').slice(0, 100)}`,
) =>
  init(
    { orderId: o, referenceId: r, ...extra },
    hmacSha256Hex(secretKey, `${o}|${r}|150000|VND|1767225600000`),
    requestId,
  );

const refused4001 = (field: string) =>
  expectResponse(400, {
    body: {
      code: 4001,
      message: 'Invalid request',
      data: { field, detail: new RegExp(`^${field.replace('.', '\\.')}\\b`) },
    },
  });

const details = transactionDetails(id, {
  orderId,
  referenceId,
  amount: 150_000,
  description: 'Xe điện VinFast',
  skipHolding: false,
  branchId: 'Hà-Nội',
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
const completed: PaymentsEvent[] = [
  ...held,
  { type: 'TransactionCompleted', data: { transactionId: id, via: 'CONFIRM', payment: null, completedAt: now } },
];
/** The orderId's guard, as init wrote it: how the pair finds its transaction. */
const orderGuard = existingStream(
  `paymentOrder-${createHash('sha256').update(`m1\n${orderId}`, 'utf8').digest('hex')}`,
  [
    {
      type: 'PaymentOrderClaimed',
      data: { merchantCode: 'm1', orderId, referenceId, transactionId: id, claimedAt: now },
    },
  ],
);
const withTransaction = (events: PaymentsEvent[]) =>
  given(merchant, keyLookup, orderGuard, existingStream(`transaction-${id}`, events));

const byPair = (path: 'cancel' | 'confirm', body: Record<string, unknown>, secureHash: string): ApiRequest => ({
  method: 'PUT',
  path: `/api/payments/v1/transactions/${path}`,
  headers: headers(`req-${path}`),
  json: { ...body, secureHash },
});

const snapshot = (body: Record<string, unknown>, secureHash: string, ts = '1772359300'): ApiRequest => ({
  method: 'POST',
  path: '/api/payments/v1/transactions/snapshot',
  headers: headers('req-snapshot', ts),
  json: {
    amount: 150000,
    currency: 'VND',
    description: 'paid at the counter',
    paymentMethodCode: 'WALLET',
    providerId: walletProviderId,
    orderInfo: { orderCreatedAt: 1767225600000 },
    status: 'COMPLETED',
    processedAt: 1772359160123,
    ...body,
    secureHash,
  },
});

describe('Payment hub API, fast: ids in Vietnamese (any printable Unicode), signed over UTF-8', () => {
  it('init takes Vietnamese ids, branchId Hà-Nội and businessUnitId "Xe điện" (the published vector), stored as sent', () =>
    given(merchant, keyLookup)
      .when(
        init(
          { orderId, referenceId, branchId: 'Hà-Nội', businessUnitId: 'Xe điện' },
          '7553ad32f62441bb7fabd279f07abef05a39b7eef53f1f2396808ca82e9abfe7',
        ),
      )
      .then(
        expectResponse(200, {
          body: matching({ code: 0, data: matching({ transaction: matching({ orderId, referenceId }) }) }),
        }),
        expectNewEvents(/^transaction-/, [
          {
            type: 'TransactionInitiated',
            data: matching({ orderId, referenceId, branchId: 'Hà-Nội', businessUnitId: 'Xe điện' }),
          },
          { type: 'TransactionProcessing', data: matching({ transactionId: /^[0-9a-f-]{36}$/ }) },
        ]),
        expectNewEvents(/^paymentOrder-/, [{ type: 'PaymentOrderClaimed', data: matching({ orderId, referenceId }) }]),
      ));

  it('init takes an emoji in the orderId (the published vector)', () =>
    given(merchant, keyLookup)
      .when(
        init(
          { orderId: 'ĐH-🛵-0002', referenceId: 'TC-0002', amount: 99000 },
          'bf5036de7d5e14c64b9bc169a44f8b48fb850b4c4fce3ad685f814903d876b84',
        ),
      )
      .then(expectResponse(200, { body: matching({ code: 0 }) })));

  it('counts lengths in characters: 64 emoji (128 UTF-16 units) pass, 65 are refused 4001, appending nothing', async () => {
    await given(merchant, keyLookup)
      .when(signedInit('🛵'.repeat(64), 'TC-64'))
      .then(expectResponse(200, { body: matching({ code: 0 }) }));
    await given(merchant, keyLookup)
      .when(signedInit('Đ'.repeat(65), 'TC-65'))
      .then(refused4001('orderId'), expectNoNewEvents());
  });

  for (const [what, value] of [
    ['a |', 'ĐH|1'],
    ['a TAB', 'ĐH\t1'],
    ['a C1 control (NEL)', 'ĐH\u00851'],
    ['a line separator', 'ĐH\u20281'],
    ['a space at the start', ' ĐH-1'],
    ['a space at the end', 'ĐH-1 '],
    ['only spaces', '   '],
  ] as const) {
    it(`refuses an orderId with ${what}: 4001 naming it, nothing appended`, () =>
      given(merchant, keyLookup).when(signedInit(value, 'TC-1')).then(refused4001('orderId'), expectNoNewEvents()));

    it(`refuses a branchId with ${what}: 4001 naming it, nothing appended`, () =>
      given(merchant, keyLookup)
        .when(signedInit('ĐH-1', 'TC-1', { branchId: value }))
        .then(refused4001('branchId'), expectNoNewEvents()));
  }

  it('cancels by the Vietnamese pair (the published vector)', () =>
    withTransaction(held)
      .when(
        byPair('cancel', { orderId, referenceId }, 'b2c2fe3a6540727512ec7b8b1c0fb9f807cf092e376ba93f1acf58dfa09c8fe1'),
      )
      .then(
        expectResponse(200, { body: { code: 0, message: 'Success' } }),
        expectNewEvents(`transaction-${id}`, [{ type: 'TransactionCancelled', data: matching({ by: 'MERCHANT' }) }]),
      ));

  it('confirms by the Vietnamese pair (the published vector)', () =>
    withTransaction(held)
      .when(
        byPair('confirm', { orderId, referenceId }, 'b2c2fe3a6540727512ec7b8b1c0fb9f807cf092e376ba93f1acf58dfa09c8fe1'),
      )
      .then(
        expectResponse(200, { body: { code: 0, message: 'Success' } }),
        expectNewEvents(`transaction-${id}`, [{ type: 'TransactionCompleted', data: matching({ via: 'CONFIRM' }) }]),
      ));

  it('refunds by the Vietnamese pair with refundReferenceId HT-Hoàn-tiền-01 (the published vector)', () =>
    withTransaction(completed)
      .when({
        method: 'POST',
        path: '/api/payments/v1/transactions/refund',
        headers: { ...headers('req-refund'), 'X-User-ID': 'u-7' },
        json: {
          orderId,
          referenceId,
          amount: 40000,
          refundReferenceId: 'HT-Hoàn-tiền-01',
          refundType: 'PARTIAL',
          secureHash: 'faf9287d297076843f858c1e66b7c08293c84f5753101d1690fadeae8867e0cd',
        },
      })
      .then(
        expectResponse(200, { body: matching({ code: 0 }) }),
        expectNewEvents(`paymentRefunds-${id}`, [
          { type: 'RefundRequested', data: matching({ refundReferenceId: 'HT-Hoàn-tiền-01', amount: 40000 }) },
        ]),
      ));

  it('records a refund snapshot with refundReferenceId HT-Hoàn-tiền-02 (the published vector)', () => {
    const paid50k: PaymentsEvent[] = completed.map((e) =>
      e.type === 'TransactionInitiated' ? { ...e, data: { ...e.data, amount: 50_000 } } : e,
    );
    return withTransaction(paid50k)
      .when({
        method: 'POST',
        path: '/api/payments/v1/refunds/snapshot',
        headers: headers('req-refund-snapshot', '1772359300'),
        json: {
          transactionId: id,
          amount: 50000,
          currency: 'VND',
          refundReferenceId: 'HT-Hoàn-tiền-02',
          refundType: 'full',
          status: 'COMPLETED',
          processedAt: 1772359260123,
          secureHash: '1bb68b7b9e64d8f9b8c4243bb9f91c83de18fbeed79038170f5d4f658e58f442',
        },
      })
      .then(
        expectResponse(200, { body: matching({ code: 0 }) }),
        expectNewEvents(`paymentRefunds-${id}`, [
          { type: 'RefundSnapshotRecorded', data: matching({ refundReferenceId: 'HT-Hoàn-tiền-02', amount: 50000 }) },
        ]),
      );
  });

  it('records a snapshot with Vietnamese ids and branchId Hà-Nội (the published vector)', () =>
    given(merchant, keyLookup)
      .when(
        snapshot(
          {
            orderId: 'ĐH-Xe-điện-0003',
            referenceId: 'TC-Hà-Nội-0003',
            branchId: 'Hà-Nội',
            processedAt: 1772359260123,
          },
          '8a7e347a1bebdae845aa590c7643e08eeeab4ccaf196e0cbd5e0e5b293ef5752',
        ),
      )
      .then(
        expectResponse(200, { body: { code: 0, message: 'Success' } }),
        expectNewEvents(/^transaction-/, [
          {
            type: 'TransactionSnapshotRecorded',
            data: matching({ orderId: 'ĐH-Xe-điện-0003', referenceId: 'TC-Hà-Nội-0003', branchId: 'Hà-Nội' }),
          },
        ]),
      ));
});

describe('Payment hub API, fast: an empty optional signed field counts as absent', () => {
  const empties = { branchId: '', businessUnitId: '', sellerMerchantId: '', paymentType: '' };

  it('init with branchId, businessUnitId, sellerMerchantId and paymentType "" signs and stores them as absent', () =>
    given(merchant, keyLookup)
      .when(signedInit('ĐH-E1', 'TC-E1', empties))
      .then(
        expectResponse(200, { body: matching({ code: 0 }) }),
        expectNewEvents(/^transaction-/, [
          {
            type: 'TransactionInitiated',
            data: matching({ branchId: null, businessUnitId: null, sellerMerchantId: null, cardType: '3D' }),
          },
          { type: 'TransactionProcessing', data: matching({ transactionId: /^[0-9a-f-]{36}$/ }) },
        ]),
      ));

  it('an empty element is not signed: a hash over `…|` (branchId "" appended) is refused 4102', () =>
    given(merchant, keyLookup)
      .when(
        init(
          { orderId: 'ĐH-E2', referenceId: 'TC-E2', branchId: '' },
          hmacSha256Hex(secretKey, 'ĐH-E2|TC-E2|150000|VND|1767225600000|'),
        ),
      )
      .then(expectResponse(401, { body: matching({ code: 4102 }) }), expectNoNewEvents()));

  it('a snapshot with branchId "" signs and stores it as absent', () =>
    given(merchant, keyLookup)
      .when(
        snapshot(
          { orderId: 'ĐH-E3', referenceId: 'TC-E3', branchId: '', businessUnitId: '' },
          hmacSha256Hex(secretKey, 'ĐH-E3|TC-E3|150000|VND|1767225600000|COMPLETED|1772359160123|1772359300'),
        ),
      )
      .then(
        expectResponse(200, { body: { code: 0, message: 'Success' } }),
        expectNewEvents(/^transaction-/, [
          { type: 'TransactionSnapshotRecorded', data: matching({ branchId: null, businessUnitId: null }) },
        ]),
      ));

  it('a cancel with transactionId "" and the pair is signed and found by the pair', () =>
    withTransaction(held)
      .when(
        byPair(
          'cancel',
          { transactionId: '', orderId, referenceId },
          'b2c2fe3a6540727512ec7b8b1c0fb9f807cf092e376ba93f1acf58dfa09c8fe1',
        ),
      )
      .then(
        expectResponse(200, { body: { code: 0, message: 'Success' } }),
        expectNewEvents(`transaction-${id}`, [{ type: 'TransactionCancelled', data: matching({ by: 'MERCHANT' }) }]),
      ));
});

describe('Payment hub API, fast: a referenceId is usable once per merchant (409 4091)', () => {
  it('init claims the referenceId with the orderId; another orderId with it is refused 4091, appending nothing', async () => {
    const scene = given(merchant, keyLookup);
    await scene.when(signedInit('ĐH-R1', 'TC-CHUNG')).then(
      expectResponse(200, { body: matching({ code: 0 }) }),
      expectNewEvents(/^paymentReference-/, [
        {
          type: 'PaymentReferenceClaimed',
          data: matching({ merchantCode: 'm1', referenceId: 'TC-CHUNG', orderId: 'ĐH-R1' }),
        },
      ]),
    );
    await scene
      .when(signedInit('ĐH-R2', 'TC-CHUNG'))
      .then(expectResponse(409, { body: matching({ code: 4091 }) }), expectNoNewEvents());
  });

  it('a snapshot with a referenceId an init used is refused 4091, appending nothing', async () => {
    const scene = given(merchant, keyLookup);
    await scene.when(signedInit('ĐH-R3', 'TC-R3')).then(expectResponse(200, { body: matching({ code: 0 }) }));
    await scene
      .when(
        snapshot(
          { orderId: 'ĐH-R4', referenceId: 'TC-R3' },
          hmacSha256Hex(secretKey, 'ĐH-R4|TC-R3|150000|VND|1767225600000|COMPLETED|1772359160123|1772359300'),
        ),
      )
      .then(expectResponse(409, { body: matching({ code: 4091 }) }), expectNoNewEvents());
  });
});
