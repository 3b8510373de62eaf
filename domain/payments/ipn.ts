/**
 * The notification to the partner (IPN) of the seed, as the hub's events decide it (docs/ipn.md, "Payload"): which
 * event notifies what (transactionType, status, processedAt), the payload's fields, and the IPN verification string
 * the secureHash is made over. Pure: the outbox projector builds a payload once per event, the dispatcher signs it.
 */
import type { RefundLedgerEvent, TransactionEvent, TransactionSnapshotRecorded } from './events.js';
import { refundBreakdown } from './session-refunds.js';
import { integerPart } from './signing-strings.js';
import type { OrderInfo, TransactionDetails, TransactionPaymentDetails } from './transaction-details.js';

/** CHARGEBACK is reserved by the seed; PAYMENT, CANCEL and REFUND (docs/payments-refunds.md) are sent. */
export const ipnTransactionTypes = ['PAYMENT', 'REFUND', 'CANCEL', 'CHARGEBACK'] as const;
export type IpnTransactionType = (typeof ipnTransactionTypes)[number];

export const ipnStatuses = ['PENDING', 'PROCESSING', 'HOLDING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type IpnStatus = (typeof ipnStatuses)[number];

/** A fee line (the hub charges none yet: `fees` is empty until a fee model exists). */
export interface IpnFee {
  type: string;
  name: string;
  amount: number;
  currency: string;
  rate: string | null;
  calculation: 'PERCENTAGE' | 'FIXED' | 'TIERED' | 'DYNAMIC';
  chargedBy: 'GATEWAY' | 'INTERNAL' | 'BANK' | 'GOVERNMENT';
}

/** A breakdown line in the current layout (referenceId/referenceType on the line, not in details). */
export interface IpnBreakdownItem {
  type: string;
  amount: number;
  status: 'PENDING' | 'SUCCESS' | 'FAILED' | 'CANCELLED';
  referenceId: string | null;
  referenceType: 'TRANSACTION' | 'RESERVATION' | 'REDEMPTION' | null;
  details: Record<string, string | number | boolean | string[]> | null;
}

/** Every field of the seed's IPN payload but secureHash (made at each send with the merchant's current secretKey). */
export interface IpnContent {
  orderId: string;
  transactionId: string;
  providerTransactionId: string | null;
  providerInvoiceId: string | null;
  referenceId: string | null;
  transactionType: IpnTransactionType;
  amount: number;
  currency: string;
  status: IpnStatus;
  processedAt: number;
  paymentMethod: string;
  paymentProvider: string | null;
  bankName: string | null;
  accountHolderName: string | null;
  cardNo: string | null;
  fees: IpnFee[];
  orderInfo: {
    customerName: string | null;
    customerEmail: string | null;
    customerPhone: string | null;
    orderCreatedAt: number | null;
    notes: string | null;
  };
  errorCode: string | null;
  errorMessage: string | null;
  /** Present only with allocation lines: a session's final IPN, a REFUND of a session's transaction. */
  breakdown?: IpnBreakdownItem[];
  /** REFUND only (an addition to the seed): which refund of the transaction the notification is about. */
  refundId?: string;
  refundReferenceId?: string;
}

export type IpnPayload = IpnContent & { secureHash: string };

/** What the outbox projector keeps of a transaction to write its notifications (from its earlier events). */
export interface IpnTransactionFacts {
  transactionId: string;
  merchantCode: string;
  orderId: string;
  referenceId: string;
  amount: number;
  currency: string;
  methodCode: string;
  providerCode: string;
  orderInfo: OrderInfo | null;
  providerTransactionId: string | null;
  providerInvoiceId: string | null;
  payment: TransactionPaymentDetails | null;
  /** The payment session the transaction pays (docs/payments-sessions.md). Added with sessions: optional. */
  paymentSessionId?: string | null;
}

/** The IPN verification string of the seed: orderId|transactionId|transactionType|amount|status|processedAt. */
export function ipnVerificationString(
  p: Pick<IpnContent, 'orderId' | 'transactionId' | 'transactionType' | 'amount' | 'status' | 'processedAt'>,
): string {
  return [
    p.orderId,
    p.transactionId,
    p.transactionType,
    integerPart(p.amount),
    p.status,
    integerPart(p.processedAt),
  ].join('|');
}

/** The facts an initiated transaction starts with. */
export function ipnFactsOf(d: TransactionDetails): IpnTransactionFacts {
  return {
    transactionId: d.transactionId,
    merchantCode: d.merchantCode,
    orderId: d.orderId,
    referenceId: d.referenceId,
    amount: d.amount,
    currency: d.currency,
    methodCode: d.paymentMethod.code,
    providerCode: d.provider.code,
    orderInfo: d.orderInfo,
    providerTransactionId: null,
    providerInvoiceId: null,
    payment: null,
    paymentSessionId: d.paymentSessionId ?? null,
  };
}

/** The facts a transaction created by a snapshot starts with (it notifies nothing itself: docs/payments-refunds.md). */
export function ipnFactsOfSnapshot(d: TransactionSnapshotRecorded['data']): IpnTransactionFacts {
  return { ...ipnFactsOf(d), providerTransactionId: d.providerTransactionId };
}

/** The events the IPN outbox hears: a transaction's, and its refund ledger's. */
export type IpnSourceEvent = TransactionEvent | RefundLedgerEvent;

/** The facts after `event` (the provider's ids, the instrument). */
export function evolveIpnFacts(facts: IpnTransactionFacts, event: IpnSourceEvent): IpnTransactionFacts {
  switch (event.type) {
    case 'TransactionProcessing':
      return {
        ...facts,
        providerTransactionId: event.data.providerTransactionId,
        providerInvoiceId: event.data.providerInvoiceId,
      };
    case 'TransactionHeld':
      return { ...facts, payment: event.data.payment };
    case 'TransactionCompleted':
      return { ...facts, payment: event.data.payment ?? facts.payment };
    default:
      return facts;
  }
}

/** The seed's method names in the IPN: the hub's WALLET method is the IPN's E_WALLET; the others keep their code. */
const ipnMethodName = (code: string) => (code === 'WALLET' ? 'E_WALLET' : code);

interface Outcome {
  transactionType: IpnTransactionType;
  status: IpnStatus;
  at: string;
  errorCode: string | null;
  errorMessage: string | null;
}

/**
 * What an event notifies, or null (PENDING and PROCESSING are not notified; a provider settlement neither; snapshots
 * neither: the partner reported those results itself).
 */
function outcomeOf(event: IpnSourceEvent): Outcome | null {
  switch (event.type) {
    case 'RefundCompleted':
      return {
        transactionType: 'REFUND',
        status: 'COMPLETED',
        at: event.data.completedAt,
        errorCode: null,
        errorMessage: null,
      };
    case 'RefundFailed':
      return {
        transactionType: 'REFUND',
        status: 'FAILED',
        at: event.data.failedAt,
        errorCode: event.data.errorCode,
        errorMessage: event.data.errorMessage,
      };
    case 'TransactionHeld':
      return {
        transactionType: 'PAYMENT',
        status: 'HOLDING',
        at: event.data.heldAt,
        errorCode: null,
        errorMessage: null,
      };
    case 'TransactionCompleted':
      return {
        transactionType: 'PAYMENT',
        status: 'COMPLETED',
        at: event.data.completedAt,
        errorCode: null,
        errorMessage: null,
      };
    case 'TransactionFailed':
      // A decline or the payer's cancel on the provider's page: at once. Abandonment: the event itself comes when the
      // abandonment timer fires (PAYMENTS_ABANDON_AFTER_SECONDS after init, 4 hours), so it too is sent at once.
      return {
        transactionType: 'PAYMENT',
        status: 'FAILED',
        at: event.data.failedAt,
        errorCode: event.data.errorCode,
        errorMessage: event.data.errorMessage,
      };
    case 'TransactionCancelled':
      // The IPN knows no TIMEOUT status: a hold the sweep ends is CANCELLED with errorCode HOLD_TIMEOUT.
      return {
        transactionType: 'CANCEL',
        status: 'CANCELLED',
        at: event.data.cancelledAt,
        errorCode: event.data.by === 'HOLD_TIMEOUT' ? 'HOLD_TIMEOUT' : null,
        errorMessage: event.data.by === 'HOLD_TIMEOUT' ? 'the hold expired; the hub cancelled it' : event.data.reason,
      };
    default:
      return null;
  }
}

/** The event types that notify the partner. */
export const ipnEventTypes = new Set([
  'TransactionHeld',
  'TransactionCompleted',
  'TransactionFailed',
  'TransactionCancelled',
  'RefundCompleted',
  'RefundFailed',
]);

/** The notification `event` sends about the transaction of `facts` (as of that event), or null. */
export function ipnContentFor(facts: IpnTransactionFacts, event: IpnSourceEvent): IpnContent | null {
  const outcome = outcomeOf(event);
  if (!outcome) return null;
  if (!notifiesOnItsOwn(facts, outcome)) return null;
  const after = evolveIpnFacts(facts, event);
  const info = after.orderInfo;
  // A refund's notification carries the refund's amount (in the transaction's currency) and names the refund.
  const refund =
    event.type === 'RefundCompleted' || event.type === 'RefundFailed'
      ? {
          amount: event.data.amount,
          currency: event.data.currency,
          refundId: event.data.refundId,
          refundReferenceId: event.data.refundReferenceId,
        }
      : null;
  return {
    orderId: after.orderId,
    transactionId: after.transactionId,
    providerTransactionId: after.providerTransactionId,
    providerInvoiceId: after.providerInvoiceId,
    referenceId: after.referenceId,
    transactionType: outcome.transactionType,
    amount: after.amount,
    currency: after.currency,
    status: outcome.status,
    processedAt: Date.parse(outcome.at),
    paymentMethod: ipnMethodName(after.methodCode),
    paymentProvider: after.providerCode,
    bankName: after.payment?.bankName ?? null,
    accountHolderName: after.payment?.accountHolderName ?? null,
    cardNo: after.payment?.cardNo ?? null,
    fees: [],
    orderInfo: {
      customerName: info?.customerName ?? null,
      customerEmail: info?.customerEmail ?? null,
      customerPhone: info?.customerPhone ?? null,
      orderCreatedAt: info?.orderCreatedAt ?? null,
      notes: info?.notes ?? null,
    },
    errorCode: outcome.errorCode,
    errorMessage: outcome.errorMessage,
    ...refund,
    ...sessionRefundBreakdown(after, event),
  };
}

/**
 * A payment-session transaction's REFUND carries the breakdown of what the refund returned (docs/ipn.md, "REFUND"):
 * the money (PAYMENT), the points (VPOINT) and the vouchers (VOUCHER) the partner's systems are to give back.
 */
function sessionRefundBreakdown(facts: IpnTransactionFacts, event: IpnSourceEvent): { breakdown?: IpnBreakdownItem[] } {
  if ((event.type !== 'RefundCompleted' && event.type !== 'RefundFailed') || !event.data.session) return {};
  const outcome = event.type === 'RefundCompleted' ? 'COMPLETED' : 'FAILED';
  return {
    breakdown: refundBreakdown(
      { transactionId: facts.transactionId, methodCode: facts.methodCode, providerCode: facts.providerCode },
      event.data.amount,
      event.data.session,
      outcome,
    ),
  };
}

/**
 * One final IPN per payment session (the seed's IPN rule 4; docs/payments-sessions.md): a session's transaction
 * sends only its HOLDING notification (not final: the backend must confirm); its COMPLETED, FAILED and CANCEL results
 * reach the partner as the session's final notification (payment-session-ipn.ts), with the breakdown.
 */
function notifiesOnItsOwn(facts: IpnTransactionFacts, outcome: Outcome): boolean {
  // A refund comes after the session's final IPN: it is notified on its own (docs/payments-refunds.md).
  return !facts.paymentSessionId || outcome.status === 'HOLDING' || outcome.transactionType === 'REFUND';
}
