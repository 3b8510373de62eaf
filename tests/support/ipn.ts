/**
 * Helpers of the IPN tests (docs/ipn.md): real local HTTP receivers that answer, fail, hang, close the connection or
 * answer slowly, as a script per request says; a merchant onboarded with such a receiver as its postback URL; and a
 * transaction's events appended as the hub's deciders would (initiated, processing, then an outcome).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { PaymentsServices } from '../../application/payments/index.js';
import { newCommandContext } from '../../application/shared/command-context.js';
import type { EventStore, EventToAppend } from '../../application/shared/event-store.js';

export interface ReceivedRequest {
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  at: number;
}

/** What the receiver does with one request: answer (status, body, after a delay), hang, or cut the connection. */
export type Reply =
  | { answer: number; body?: string; delayMs?: number; headers?: Record<string, string> }
  | { hang: true }
  | { close: true };

export const success: Reply = { answer: 200, body: JSON.stringify({ status: 'SUCCESS', message: 'ok' }) };
export const partner = (status: string): Reply => ({ answer: 200, body: JSON.stringify({ status, message: status }) });

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** A node:http receiver on 127.0.0.1; `reply` gets each request (and its number, 1-based) and says what to do. */
export async function startReceiver(
  reply: (req: ReceivedRequest, n: number) => Reply = () => success,
  path = '/ipn',
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const one = { body: JSON.parse(raw || '{}') as Record<string, unknown>, headers: req.headers, at: Date.now() };
      received.push(one);
      const r = reply(one, received.length);
      if ('hang' in r) return;
      if ('close' in r) return req.socket.destroy();
      setTimeout(() => {
        res.writeHead(r.answer, { 'Content-Type': 'application/json', ...r.headers });
        res.end(r.body ?? '');
      }, r.delayMs ?? 0);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A merchant whose postback URL is `ipnUrl`; answers its secretKey. */
export async function onboardIpnMerchant(
  payments: PaymentsServices,
  merchantCode: string,
  ipnUrl: string,
  maxIpnRetries = 5,
): Promise<string> {
  const ctx = newCommandContext({ actor: { operator: 'ipn-test' } });
  const { secret } = await payments.onboarding.onboard(ctx, {
    merchantCode,
    name: `IPN ${merchantCode}`,
    ipnUrl,
    maxIpnRetries,
  });
  return secret.secretKey;
}

export type Ending = 'COMPLETED' | 'DECLINED' | 'HELD' | 'HELD_THEN_COMPLETED' | 'CANCELLED';

/** A transaction's events as the hub's deciders would record them: initiated and processing, then `ending`. */
export function transactionEvents(
  transactionId: string,
  merchantCode: string,
  orderId: string,
  ending: Ending = 'COMPLETED',
): EventToAppend[] {
  const t0 = Date.now();
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const payment = { bankName: 'Sandbox Bank', accountHolderName: 'NGUYEN VAN A', cardNo: '411111******1111' };
  const events: { type: string; data: unknown }[] = [
    {
      type: 'TransactionInitiated',
      data: {
        transactionId,
        merchantCode,
        merchantName: merchantCode,
        terminalId: 'T1',
        orderId,
        referenceId: `REF-${orderId}`,
        amount: 150000,
        currency: 'VND',
        description: `Order ${orderId}`,
        paymentMethod: { id: randomUUID(), code: 'CREDIT_CARD', name: 'Card', type: 'CARD' },
        provider: { id: randomUUID(), code: 'SANDBOX_CARD', name: 'Sandbox card' },
        cardType: '3D',
        skipHolding: ending === 'COMPLETED',
        userPaymentMethodId: null,
        sellerMerchantId: null,
        businessUnitId: null,
        branchId: null,
        returnUrl: null,
        providerData: null,
        orderInfo: { customerName: 'Nguyen Van A', customerEmail: 'a@example.vn', orderCreatedAt: 1772359200000 },
        payer: { kind: 'NONE' },
        miniAppId: null,
        expiresAt: at(4 * 3600_000),
        createdAt: at(0),
      },
    },
    {
      type: 'TransactionProcessing',
      data: {
        transactionId,
        providerTransactionId: `PTX-${orderId}`,
        providerInvoiceId: null,
        redirectUrl: null,
        processingAt: at(1),
      },
    },
  ];
  if (ending === 'COMPLETED')
    events.push({
      type: 'TransactionCompleted',
      data: { transactionId, via: 'AUTO_CAPTURE', payment, completedAt: at(2) },
    });
  if (ending === 'DECLINED')
    events.push({
      type: 'TransactionFailed',
      data: {
        transactionId,
        reason: 'DECLINED',
        errorCode: 'USER_CANCELLED',
        errorMessage: 'cancelled',
        failedAt: at(2),
      },
    });
  if (ending === 'HELD' || ending === 'HELD_THEN_COMPLETED' || ending === 'CANCELLED')
    events.push({
      type: 'TransactionHeld',
      data: { transactionId, payment, holdExpiresAt: at(7 * 86_400_000), heldAt: at(2) },
    });
  if (ending === 'HELD_THEN_COMPLETED')
    events.push({
      type: 'TransactionCompleted',
      data: { transactionId, via: 'CONFIRM', payment: null, completedAt: at(3) },
    });
  if (ending === 'CANCELLED')
    events.push({
      type: 'TransactionCancelled',
      data: {
        transactionId,
        by: 'HOLD_TIMEOUT',
        status: 'CANCELLED',
        reason: 'hold expired',
        requestedBy: null,
        cancelledAt: at(3),
      },
    });
  const metadata = { occurredAt: at(0), actor: { process: 'ipn-test' } };
  return events.map((e) => ({ id: randomUUID(), ...e, metadata }));
}

/** Appends a transaction's events (transactionEvents) to its stream. */
export async function appendTransaction(
  store: EventStore,
  merchantCode: string,
  ending: Ending = 'COMPLETED',
  orderId = `ORD-${randomUUID().slice(0, 8)}`,
): Promise<{ transactionId: string; orderId: string }> {
  const transactionId = randomUUID();
  await store.append(
    `transaction-${transactionId}`,
    transactionEvents(transactionId, merchantCode, orderId, ending),
    'no_stream',
  );
  return { transactionId, orderId };
}
