/**
 * The one final notification of a payment session (the seed's IPN rule 4; docs/payments-sessions.md, "The final
 * IPN"): which session event ends it and what the payload says. Pure: the session outbox projector builds the content
 * once per ending event, from the session's state after it; the dispatcher signs it like any IPN.
 */
import type { PaymentSessionEvent } from './events.js';
import type { IpnContent, IpnStatus, IpnTransactionType } from './ipn.js';
import { sessionOrderInfo, type PaymentSession } from './payment-session.js';

/** The session events that end a session, so notify. */
export const sessionIpnEventTypes = new Set([
  'PaymentSessionCompleted',
  'PaymentSessionCancelled',
  'PaymentSessionExpired',
]);

/** The hub's WALLET method is the IPN's E_WALLET (as ipn.ts names it). */
const ipnMethodName = (code: string) => (code === 'WALLET' ? 'E_WALLET' : code);

function outcomeOf(event: PaymentSessionEvent): {
  transactionType: IpnTransactionType;
  status: IpnStatus;
  at: string;
  errorCode: string | null;
  errorMessage: string | null;
} | null {
  switch (event.type) {
    case 'PaymentSessionCompleted':
      return {
        transactionType: 'PAYMENT',
        status: 'COMPLETED',
        at: event.data.completedAt,
        errorCode: null,
        errorMessage: null,
      };
    case 'PaymentSessionCancelled':
      // The backend's own cancel is its CANCEL result; a failed payment is the session's PAYMENT FAILED.
      return event.data.by === 'MERCHANT'
        ? {
            transactionType: 'CANCEL',
            status: 'CANCELLED',
            at: event.data.cancelledAt,
            errorCode: null,
            errorMessage: event.data.reason,
          }
        : {
            transactionType: 'PAYMENT',
            status: 'FAILED',
            at: event.data.cancelledAt,
            errorCode: event.data.errorCode,
            errorMessage: event.data.errorMessage,
          };
    case 'PaymentSessionExpired':
      return {
        transactionType: 'PAYMENT',
        status: 'FAILED',
        at: event.data.expiredAt,
        errorCode: 'SESSION_EXPIRED',
        errorMessage: 'no payment before the session expired',
      };
    default:
      return null;
  }
}

/**
 * The primary method (the seed's rule): the transaction's method when money was paid; otherwise VPOINT when points
 * were used, else PROMOTION (a free order).
 */
function primaryOf(s: PaymentSession): { paymentMethod: string; paymentProvider: string | null } {
  if (s.payment) return { paymentMethod: ipnMethodName(s.payment.methodCode), paymentProvider: s.payment.providerCode };
  const paymentLine = s.breakdown.find((l) => l.type === 'PAYMENT' && l.details);
  if (paymentLine?.details)
    return {
      paymentMethod: ipnMethodName(String(paymentLine.details.method)),
      paymentProvider: String(paymentLine.details.provider),
    };
  return {
    paymentMethod: s.breakdown.some((l) => l.type === 'VPOINT') ? 'VPOINT' : 'PROMOTION',
    paymentProvider: null,
  };
}

/** The final notification `event` sends about `session` (its state after the event), or null. */
export function sessionIpnContentFor(session: PaymentSession, event: PaymentSessionEvent): IpnContent | null {
  const outcome = outcomeOf(event);
  if (!outcome) return null;
  const info = sessionOrderInfo(session);
  return {
    orderId: session.orderId,
    // Without a transaction (paid by vouchers and points, or ended before a payment) the session names itself.
    transactionId: session.transactionId ?? session.paymentSessionId,
    providerTransactionId: session.payment?.providerTransactionId ?? null,
    providerInvoiceId: session.payment?.providerInvoiceId ?? null,
    referenceId: session.referenceId,
    transactionType: outcome.transactionType,
    amount: session.amount,
    currency: session.currency,
    status: outcome.status,
    processedAt: Date.parse(outcome.at),
    ...primaryOf(session),
    bankName: session.payment?.bankName ?? null,
    accountHolderName: session.payment?.accountHolderName ?? null,
    cardNo: session.payment?.cardNo ?? null,
    fees: [],
    orderInfo: {
      customerName: info.customerName ?? null,
      customerEmail: info.customerEmail ?? null,
      customerPhone: info.customerPhone ?? null,
      orderCreatedAt: info.orderCreatedAt ?? null,
      notes: info.notes ?? null,
    },
    errorCode: outcome.errorCode,
    errorMessage: outcome.errorMessage,
    breakdown: session.breakdown.map((l) => ({
      type: l.type,
      amount: l.amount,
      status: l.status,
      referenceId: l.referenceId,
      referenceType: l.referenceType,
      details: l.details
        ? (Object.fromEntries(Object.entries(l.details).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v])) as Record<
            string,
            string | number | boolean | string[]
          >)
        : null,
    })),
  };
}
