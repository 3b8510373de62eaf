/**
 * The raw strings a merchant backend signs for payment sessions (docs/payments-sessions.md, "Endpoints"): creation is
 * the seed's "Order creation by mini-app backend" row, cancel follows the transaction cancel's rule. Pure.
 */
import { integerPart } from './signing-strings.js';

/** Create: orderId|referenceId|originalAmount|currency|createdAt (amount and createdAt, Unix ms, as integer parts). */
export function sessionCreateSigningString(f: {
  orderId: string;
  referenceId: string;
  originalAmount: number;
  currency: string;
  createdAt: number;
}): string {
  return [f.orderId, f.referenceId, integerPart(f.originalAmount), f.currency, integerPart(f.createdAt)].join('|');
}

/** Cancel: paymentSessionId|timestamp, or orderId|referenceId|timestamp when no paymentSessionId was sent. */
export function sessionCancelSigningString(
  ref: { readonly paymentSessionId: string } | { readonly orderId: string; readonly referenceId: string },
  timestamp: string,
): string {
  return 'paymentSessionId' in ref
    ? [ref.paymentSessionId, timestamp].join('|')
    : [ref.orderId, ref.referenceId, timestamp].join('|');
}
