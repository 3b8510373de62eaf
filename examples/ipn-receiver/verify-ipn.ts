/**
 * A partner's IPN verifier (docs/ipn.md, "Verifying a notification"): copy this file into the order backend. It
 * depends on node:crypto only. The hub signs `orderId|transactionId|transactionType|amount|status|processedAt`
 * (amount and processedAt as their integer part) with HMAC-SHA-256 under the merchant's secretKey, lowercase hex.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface IpnSignedFields {
  orderId: string;
  transactionId: string;
  transactionType: string;
  amount: number;
  status: string;
  processedAt: number;
  secureHash?: unknown;
}

/** The IPN verification string of a payload. */
export function ipnSigningString(p: IpnSignedFields): string {
  const integer = (n: number) => Math.trunc(n).toFixed(0);
  return [p.orderId, p.transactionId, p.transactionType, integer(p.amount), p.status, integer(p.processedAt)].join('|');
}

/** The secureHash the hub puts on a payload: 64 lowercase hex characters. */
export function computeIpnHash(p: IpnSignedFields, secretKey: string): string {
  return createHmac('sha256', secretKey).update(ipnSigningString(p), 'utf8').digest('hex');
}

/** Whether the payload's secureHash is the hub's, compared in constant time (anything malformed: false). */
export function verifyIpn(p: IpnSignedFields, secretKey: string): boolean {
  const presented = p.secureHash;
  if (typeof presented !== 'string' || !/^[0-9a-fA-F]{64}$/.test(presented)) return false;
  if (typeof p.orderId !== 'string' || typeof p.transactionId !== 'string') return false;
  if (typeof p.amount !== 'number' || typeof p.processedAt !== 'number') return false;
  const expected = Buffer.from(computeIpnHash(p, secretKey), 'hex');
  return timingSafeEqual(Buffer.from(presented, 'hex'), expected);
}
