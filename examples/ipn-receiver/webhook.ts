/**
 * A partner's IPN receiver (docs/ipn.md, "A receiver"): `POST /api/v1/payment-webhook` as an order backend would
 * write it. It verifies secureHash first (INVALID_HASH), deduplicates by notification (DUPLICATE), keeps per
 * transaction only the newest processedAt (an older one arriving late changes nothing), and always answers HTTP 200
 * with the seed's body. `npm start` runs it on PAYMENTS_DEMO_RECEIVER_PORT for the demo merchant, logging what arrives.
 */
import express, { type Express } from 'express';
import { verifyIpn, type IpnSignedFields } from './verify-ipn.js';

export interface ReceivedIpn {
  payload: Record<string, unknown>;
  answer: { status: string; message: string };
  receivedAt: number;
}

export interface ReceiverOptions {
  /** The merchant's secretKey (the receiver's own secret, never sent anywhere). */
  secretKey: string;
  /** Orders the backend knows; absent: every order is known. */
  knowsOrder?: (orderId: string) => boolean;
  onReceived?: (received: ReceivedIpn) => void;
}

export function ipnWebhookApp(options: ReceiverOptions): Express {
  const app = express();
  const seen = new Set<string>();
  /** Per transaction, the newest processedAt applied: what the order shows. */
  const latest = new Map<string, { processedAt: number; status: string }>();
  app.post('/api/v1/payment-webhook', express.json({ limit: '64kb' }), (req, res) => {
    const p = (req.body ?? {}) as IpnSignedFields & Record<string, unknown>;
    const answer = (status: string, message: string) => {
      options.onReceived?.({ payload: p, answer: { status, message }, receivedAt: Date.now() });
      res.status(200).json({
        status,
        message,
        orderId: p.orderId,
        transactionId: p.transactionId,
        processedAt: Date.now(),
      });
    };
    if (!verifyIpn(p, options.secretKey)) return answer('INVALID_HASH', 'secureHash does not match');
    if (options.knowsOrder && !options.knowsOrder(p.orderId)) return answer('ORDER_NOT_FOUND', 'unknown orderId');
    // One notification is one (transactionId, transactionType, status, processedAt): a repeat is a DUPLICATE.
    const key = `${p.transactionId}|${p.transactionType}|${p.status}|${p.processedAt}`;
    if (seen.has(key)) return answer('DUPLICATE', 'already processed');
    seen.add(key);
    const known = latest.get(p.transactionId);
    if (!known || known.processedAt < p.processedAt)
      latest.set(p.transactionId, { processedAt: p.processedAt, status: p.status });
    return answer(
      'SUCCESS',
      known && known.processedAt > p.processedAt ? 'older than what the order shows' : 'recorded',
    );
  });
  return app;
}
