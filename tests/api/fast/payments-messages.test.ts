/**
 * The hub's messages as a client reads them (issue 30, item 12; docs/payments.md, "Codes"): for every code the seed's
 * error table gives a text for, `message` is that text, the same each time, and what was wrong this time is in
 * `data` (`detail`, the `field`, the figures). One row per code, each refusal triggered through HTTP over the
 * in-memory store. The expected texts are the seed's table (spec 001, "Errors"), copied here, not read from the code.
 */
import { gatewayHeaders } from '../../support/gateway.js';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import type { EventStore } from '../../../application/shared/event-store.js';
import type { PaymentsEvent } from '../../../domain/payments/events.js';
import {
  apiSpecification,
  existingStream,
  expectNoNewEvents,
  expectResponse,
  type ApiRequest,
  type ApiScene,
} from '../../support/api-spec.js';
import { buildFastApp } from '../../support/fast-app.js';
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

const given = apiSpecification({ app: buildFastApp, now });
const id = '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';

const details = (terminalId = 'T1') => transactionDetails(id, { terminalId });
const completed = (terminalId = 'T1'): PaymentsEvent[] => [
  { type: 'TransactionInitiated', data: details(terminalId) },
  {
    type: 'TransactionProcessing',
    data: { transactionId: id, providerTransactionId: 'W-1', providerInvoiceId: null, processingAt: now },
  },
  { type: 'TransactionCompleted', data: { transactionId: id, via: 'AUTO_CAPTURE', payment: null, completedAt: now } },
];
/** A PENDING refund of 90,000 under refundReferenceId `ref-a`: 10,000 remains. */
const refundedMost: PaymentsEvent = {
  type: 'RefundRequested',
  data: {
    transactionId: id,
    refundId: 'a',
    refundReferenceId: 'ref-a',
    merchantCode: 'm1',
    terminalId: 'T1',
    amount: 90_000,
    currency: 'VND',
    refundType: 'PARTIAL',
    reason: null,
    requestedBy: null,
    userId: 'u-7',
    refundVpoint: null,
    providerCode: 'SANDBOX_WALLET',
    remainingRefundableAmount: 10_000,
    requestedAt: now,
  },
};
const withTransaction = (events: PaymentsEvent[], ledger: PaymentsEvent[] = []) =>
  given(
    merchant,
    keyLookup,
    existingStream(`transaction-${id}`, events),
    ...(ledger.length ? [existingStream(`paymentRefunds-${id}`, ledger)] : []),
  );

const headers = (requestId: string, extra: Record<string, string | undefined> = {}) => ({
  ...gatewayHeaders(),
  'X-Payment-API-Key': apiKey,
  'X-Request-ID': requestId,
  'X-Timestamp': timestamp,
  ...extra,
});

const init = (orderId: string, referenceId: string, extra: Record<string, string | undefined> = {}): ApiRequest => ({
  method: 'POST',
  path: '/api/payments/v1/transactions',
  headers: headers(`req-init-${orderId}-${referenceId}`, extra),
  json: {
    orderId,
    referenceId,
    amount: 120_000,
    currency: 'VND',
    description: `order ${orderId}`,
    paymentMethodCode: 'WALLET',
    providerId: walletProviderId,
    orderInfo: { orderCreatedAt: 1772359200000 },
    secureHash: hmacSha256Hex(secretKey, `${orderId}|${referenceId}|120000|VND|1772359200000`),
  },
});

const put = (path: 'cancel' | 'confirm', transactionId = id): ApiRequest => ({
  method: 'PUT',
  path: `/api/payments/v1/transactions/${path}`,
  headers: headers(`req-${path}`),
  json: { transactionId, secureHash: hmacSha256Hex(secretKey, `${transactionId}|${timestamp}`) },
});

const refund = (amount: number, refundReferenceId: string): ApiRequest => ({
  method: 'POST',
  path: '/api/payments/v1/transactions/refund',
  headers: headers(`req-${refundReferenceId}`, { 'X-User-ID': 'u-7' }),
  json: {
    transactionId: id,
    amount,
    refundReferenceId,
    refundType: 'PARTIAL',
    secureHash: hmacSha256Hex(secretKey, `${id}|${amount}|${refundReferenceId}|PARTIAL|${timestamp}`),
  },
});

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

const get = (path: string, extra: Record<string, string | undefined> = {}): ApiRequest => ({
  method: 'GET',
  path: `/api/payments/v1${path}`,
  headers: { ...headers('req-get'), ...extra },
});

/** A store whose reads fail as PostgreSQL's do when it is away: what the hub answers then. */
const awayStore = (store: EventStore): EventStore =>
  new Proxy(store, {
    get: () => () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
  });

interface Row {
  code: number;
  status: number;
  /** The seed's message for the code (spec 001, "Errors"). */
  message: string;
  scene: () => ApiScene;
  /** Sent in turn; the last one is refused. */
  requests: ApiRequest[];
  /** The specifics; absent: the answer is exactly {code, message}. */
  data?: Record<string, unknown>;
}

const rows: Row[] = [
  {
    code: 4001,
    status: 400,
    message: 'Invalid request',
    scene: () => given(merchant, keyLookup),
    requests: [{ ...init('o9', 'r9'), json: { ...(init('o9', 'r9').json as object), amount: 'a lot' } }],
    data: { field: 'amount', detail: 'amount: must be a number' },
  },
  {
    code: 4661,
    status: 400,
    message: 'Invalid get transaction detail request',
    scene: () => given(merchant, keyLookup),
    requests: [get('/transactions?orderId=o1')],
    data: { detail: 'send transactionId (a UUID), or orderId and referenceId' },
  },
  {
    code: 4012,
    status: 400,
    message: 'Transaction not available for refund',
    scene: () => withTransaction(completed(), [refundedMost]),
    requests: [refund(10_001, 'R2')],
    data: { remainingRefundableAmount: 10_000, detail: 'only 10000 is left to refund' },
  },
  {
    code: 4014,
    status: 400,
    message: 'Transaction not available for cancel',
    scene: () => withTransaction(completed()),
    requests: [put('cancel')],
    data: { status: 'COMPLETED', detail: 'a COMPLETED transaction cannot be cancelled' },
  },
  {
    code: 4015,
    status: 400,
    message: 'Transaction not available for confirm',
    scene: () => withTransaction(completed()),
    requests: [put('confirm')],
    data: { status: 'COMPLETED', detail: 'a COMPLETED transaction cannot be confirmed' },
  },
  {
    code: 4016,
    status: 400,
    message: 'Invalid status',
    scene: () => given(merchant, keyLookup),
    requests: [snapshot('HOLDING')],
    data: { field: 'status', detail: 'status must be COMPLETED or FAILED, not HOLDING' },
  },
  {
    code: 4017,
    status: 400,
    message: 'Missing error information',
    scene: () => given(merchant, keyLookup),
    requests: [snapshot('FAILED', { errorCode: 'E' })],
    data: { field: 'errorMessage', detail: 'a FAILED snapshot needs errorCode and errorMessage' },
  },
  {
    code: 4100,
    status: 401,
    message: 'Invalid API key',
    scene: () => given(merchant, keyLookup),
    requests: [get(`/transactions?transactionId=${id}`, { 'X-Payment-API-Key': 'phk_nobody-knows-this-key' })],
  },
  {
    code: 4101,
    status: 401,
    // The seed's "X-API-Key header is required", naming the header the hub reads.
    message: 'X-Payment-API-Key header is required',
    scene: () => given(merchant, keyLookup),
    requests: [get(`/transactions?transactionId=${id}`, { 'X-Payment-API-Key': undefined })],
  },
  {
    code: 4200,
    status: 403,
    message: 'Resource does not belong to this user',
    scene: () => withTransaction(completed('T2')),
    requests: [put('cancel')],
    data: { detail: 'the transaction does not belong to the terminal of this key' },
  },
  {
    code: 4301,
    status: 404,
    message: 'Transaction not found',
    scene: () => given(merchant, keyLookup),
    requests: [put('confirm', '9d4d1c3e-0000-4c1d-9f0e-6a1b2c3d4e5f')],
  },
  {
    code: 4302,
    status: 404,
    message: 'User not found',
    scene: () => given(merchant, keyLookup),
    requests: [init('o9', 'r9', { 'X-MiniApp-User-ID': 'nobody-7' })],
    data: { field: 'X-MiniApp-User-ID', detail: 'no user nobody-7' },
  },
  {
    code: 4404,
    status: 404,
    message: 'payment session not found',
    scene: () => given(merchant, keyLookup),
    requests: [get(`/payment-sessions?paymentSessionId=${id}`)],
  },
  {
    code: 4091,
    status: 409,
    message: 'Duplicate referenceId',
    scene: () => given(merchant, keyLookup),
    requests: [init('o9', 'r9'), init('o9', 'r10')],
    data: { field: 'orderId', orderId: 'o9', detail: 'orderId o9 was used by another transaction' },
  },
  {
    code: 4092,
    status: 409,
    message: 'Duplicate refundReferenceId',
    scene: () => withTransaction(completed(), [refundedMost]),
    requests: [refund(1_000, 'ref-a')],
    data: { field: 'refundReferenceId', refundReferenceId: 'ref-a', detail: 'refundReferenceId ref-a was used' },
  },
  {
    code: 429,
    status: 429,
    message: 'Too Many Requests',
    scene: () =>
      apiSpecification({
        app: (deps) => buildFastApp({ ...deps, env: { GATEWAY_RATE_LIMIT_POINTS: '1' } }),
        now,
      })(merchant, keyLookup, existingStream(`transaction-${id}`, completed())),
    requests: [get(`/transactions?transactionId=${id}`), get(`/transactions?transactionId=${id}`)],
    data: { detail: /^rate limit of 1 requests per \d+ s reached for GET \/transactions; retry after \d+ s$/ },
  },
  {
    code: 5000,
    status: 503,
    message: 'Internal server error',
    scene: () =>
      apiSpecification({ app: (deps) => buildFastApp({ ...deps, store: awayStore(deps.store) }), now })(
        merchant,
        keyLookup,
      ),
    requests: [get(`/transactions?transactionId=${id}`)],
    data: { detail: /cannot reach its data right now/ },
  },
];

describe("Payment hub API, fast: each of the seed's codes answers the seed's message, the specifics in data", () => {
  for (const row of rows)
    it(`${row.code} "${row.message}"${row.data ? `, data ${Object.keys(row.data).join(', ')}` : ''}`, async () => {
      const scene = row.scene();
      for (const request of row.requests.slice(0, -1)) await scene.when(request).then(expectResponse(200));
      await scene.when(row.requests.at(-1)!).then(
        expectResponse(row.status, {
          body: {
            code: row.code,
            message: row.message,
            ...(row.data && { data: row.data }),
          },
        }),
        expectNoNewEvents(),
      );
    });
});
