/**
 * Refunds of a transaction paid through a payment session (docs/payments-refunds.md, "Payment-session transactions"):
 * what the session settled beside the money (its VPOINT points and VOUCHER lines), the rules of a FULL and a PARTIAL
 * refund over them, and the breakdown a refund's notification carries. Pure: the refund ledger (refund-ledger.ts)
 * decides with these on its own state, so points are serialised by the ledger's version exactly as money is.
 */
import { paymentsError } from './errors.js';
import type { RefundLedgerEvent } from './events.js';
import type { IpnBreakdownItem } from './ipn.js';
import type { BreakdownDetails, BreakdownLine } from './payment-session-details.js';
import type { PaymentSession } from './payment-session.js';
import type { RefundLedgerCommand } from './refund-ledger.js';

/** A VOUCHER line of the session, as it was settled (returned whole by a FULL refund, never by a PARTIAL one). */
export interface SessionVoucherLine {
  readonly amount: number;
  readonly referenceId: string | null;
  readonly referenceType: BreakdownLine['referenceType'];
  readonly details: BreakdownDetails | null;
}

/** What the ledger needs of the session a transaction paid (its lines are fixed from the session's creation). */
export interface SessionRefundFacts {
  readonly paymentSessionId: string;
  readonly originalAmount: number;
  /** The points of its VPOINT lines (details.points), summed. */
  readonly points: number;
  /** Their value in minor units (the VPOINT lines' amounts), summed. */
  readonly vpointAmount: number;
  readonly vouchers: readonly SessionVoucherLine[];
}

/** What one refund returns beyond money (kept on its events: an auditor replaying the ledger sees it). */
export interface SessionRefundParts {
  readonly paymentSessionId: string;
  /** Points returned by this refund. */
  readonly vpoint: number;
  /** Their value in minor units (the VPOINT line of the refund's breakdown). */
  readonly vpointAmount: number;
  /** The VOUCHER lines returned (a FULL refund only, once). */
  readonly vouchers: readonly SessionVoucherLine[];
}

/** The session's refund facts, from its stream's state. */
export function sessionRefundFactsOf(s: PaymentSession): SessionRefundFacts {
  const vpoint = s.breakdown.filter((l) => l.type === 'VPOINT');
  return {
    paymentSessionId: s.paymentSessionId,
    originalAmount: s.originalAmount,
    points: vpoint.reduce((sum, l) => sum + pointsOf(l.details), 0),
    vpointAmount: vpoint.reduce((sum, l) => sum + l.amount, 0),
    vouchers: s.breakdown
      .filter((l) => l.type === 'VOUCHER')
      .map((l) => ({
        amount: l.amount,
        referenceId: l.referenceId,
        referenceType: l.referenceType,
        details: l.details,
      })),
  };
}

/** details.points is a string of digits (the session's create checks it); anything else counts none. */
function pointsOf(details: BreakdownDetails | null): number {
  const p = details?.points;
  return typeof p === 'string' && /^\d+$/.test(p) ? Number(p) : typeof p === 'number' ? p : 0;
}

/** What the accepted refunds (all but FAILED) took so far of the session's points and vouchers. */
export interface SessionRefunded {
  readonly vpoint: number;
  readonly vpointAmount: number;
  readonly vouchers: boolean;
}

/** What remains refundable of the session's parts, and the total collected that remains (money included). */
export function sessionRemaining(s: SessionRefundFacts, refunded: SessionRefunded, money: number) {
  const vpoint = Math.max(0, s.points - refunded.vpoint);
  const vpointAmount = Math.max(0, s.vpointAmount - refunded.vpointAmount);
  const vouchers = refunded.vouchers ? [] : s.vouchers;
  const voucherAmount = vouchers.reduce((sum, v) => sum + v.amount, 0);
  return { money, vpoint, vpointAmount, vouchers, total: money + vpointAmount + voucherAmount };
}

/**
 * The value of `points` of the session: in proportion to the VPOINT lines (rounded down), and the last points take
 * whatever value remains, so the refunds' VPOINT lines add up to the session's exactly.
 */
function valueOf(s: SessionRefundFacts, points: number, remaining: { vpoint: number; vpointAmount: number }): number {
  if (points === 0) return 0;
  if (points === remaining.vpoint) return remaining.vpointAmount;
  return Math.min(remaining.vpointAmount, Math.floor((s.vpointAmount * points) / s.points));
}

const notRefundable = (message: string, details: Record<string, unknown>) =>
  paymentsError('TRANSACTION_NOT_REFUNDABLE', message, details);

/** The request's fields the session rules read. */
export interface SessionRefundRequest {
  readonly refundType: 'FULL' | 'PARTIAL';
  readonly amount: number;
  readonly refundVpoint: number | null;
}

/** Input rules (4001), checked before the refundReferenceId: a PARTIAL names its points, and returns something. */
export function checkSessionRefundInput(r: SessionRefundRequest): void {
  if (r.refundType === 'PARTIAL' && r.refundVpoint === null)
    throw paymentsError(
      'INVALID_PAYMENT_REQUEST',
      'refundVpoint: required for a PARTIAL refund of a transaction paid through a payment session (0 for none)',
      { field: 'refundVpoint' },
    );
  if (r.refundType === 'PARTIAL' && r.amount === 0 && r.refundVpoint === 0)
    throw paymentsError('INVALID_PAYMENT_REQUEST', 'amount: a PARTIAL refund returns money or points (both are 0)', {
      field: 'amount',
    });
}

/**
 * The amount rules (4012) on what remains: PARTIAL returns `amount` of money and `refundVpoint` points, never a
 * voucher; FULL returns all that remains (money, points, vouchers once), `amount` stating either the remaining money
 * or the remaining total collected. Answers the money refunded and the parts.
 */
export function decideSessionRefund(
  s: SessionRefundFacts,
  refunded: SessionRefunded,
  money: number,
  r: SessionRefundRequest,
): { money: number; parts: SessionRefundParts } {
  const left = sessionRemaining(s, refunded, money);
  const figures = { remainingRefundableAmount: left.money, remainingRefundableVpoint: left.vpoint };
  if (left.money === 0 && left.vpoint === 0 && left.vouchers.length === 0)
    throw notRefundable('nothing is left to refund', figures);
  if (r.refundType === 'PARTIAL') {
    const vpoint = r.refundVpoint ?? 0;
    if (r.amount > left.money) throw notRefundable(`only ${left.money} of money is left to refund`, figures);
    if (vpoint > left.vpoint) throw notRefundable(`only ${left.vpoint} points are left to refund`, figures);
    return {
      money: r.amount,
      parts: { paymentSessionId: s.paymentSessionId, vpoint, vpointAmount: valueOf(s, vpoint, left), vouchers: [] },
    };
  }
  if (r.refundVpoint !== null && r.refundVpoint !== left.vpoint)
    throw notRefundable(`a FULL refund returns all ${left.vpoint} points left: refundVpoint must say so or be absent`, {
      ...figures,
    });
  if (r.amount !== left.money && r.amount !== left.total)
    throw notRefundable(
      `a FULL refund states the remaining money (${left.money}) or the remaining total collected (${left.total})`,
      { ...figures, remainingTotal: left.total },
    );
  return {
    money: left.money,
    parts: {
      paymentSessionId: s.paymentSessionId,
      vpoint: left.vpoint,
      vpointAmount: left.vpointAmount,
      vouchers: left.vouchers,
    },
  };
}

/**
 * The events of a payment-session transaction's refund request, decided on what the ledger's accepted refunds took
 * (the ledger checked the input and the refundReferenceId first). One that returns no money (points or vouchers only)
 * asks no provider: it is COMPLETED in the same append, and the partner's systems return the points and vouchers on
 * its IPN.
 */
export function sessionRefundEvents(
  command: Extract<RefundLedgerCommand, { type: 'RequestRefund' }>,
  refunded: SessionRefunded,
  remainingMoney: number,
): RefundLedgerEvent[] {
  const t = command.transaction;
  if (!t.session) throw new Error(`transaction ${t.transactionId}: its payment session's facts were not given`);
  const { money, parts } = decideSessionRefund(t.session, refunded, remainingMoney, command);
  const requested: RefundLedgerEvent = {
    type: 'RefundRequested',
    data: {
      transactionId: t.transactionId,
      refundId: command.refundId,
      refundReferenceId: command.refundReferenceId,
      merchantCode: t.merchantCode,
      terminalId: t.terminalId,
      amount: money,
      currency: t.currency,
      refundType: command.refundType,
      reason: command.reason,
      requestedBy: command.requestedBy,
      userId: command.userId,
      refundVpoint: command.refundVpoint,
      providerCode: t.providerCode,
      remainingRefundableAmount: remainingMoney - money,
      requestedAt: command.now,
      session: parts,
      remainingRefundableVpoint: t.session.points - refunded.vpoint - parts.vpoint,
    },
  };
  if (money > 0) return [requested];
  return [
    requested,
    {
      type: 'RefundCompleted',
      data: {
        transactionId: t.transactionId,
        refundId: command.refundId,
        refundReferenceId: command.refundReferenceId,
        amount: 0,
        currency: t.currency,
        providerRefundId: null,
        completedAt: command.now,
        session: parts,
      },
    },
  ];
}

/**
 * The breakdown of a session transaction's REFUND notification (docs/ipn.md): a PAYMENT line for the money (when
 * some), a VPOINT line with details.points (when points), the VOUCHER lines returned, each with the refund's outcome.
 */
export function refundBreakdown(
  payment: { transactionId: string; methodCode: string; providerCode: string },
  money: number,
  parts: SessionRefundParts,
  outcome: 'COMPLETED' | 'FAILED',
): IpnBreakdownItem[] {
  const status = outcome === 'COMPLETED' ? 'SUCCESS' : 'FAILED';
  const lines: IpnBreakdownItem[] = parts.vouchers.map((v) => ({
    type: 'VOUCHER',
    amount: v.amount,
    status,
    referenceId: v.referenceId,
    referenceType: v.referenceType,
    details: v.details
      ? (Object.fromEntries(Object.entries(v.details).map(([k, x]) => [k, Array.isArray(x) ? [...x] : x])) as Record<
          string,
          string | number | boolean | string[]
        >)
      : null,
  }));
  if (parts.vpoint > 0)
    lines.push({
      type: 'VPOINT',
      amount: parts.vpointAmount,
      status,
      referenceId: null,
      referenceType: null,
      details: { points: String(parts.vpoint) },
    });
  if (money > 0)
    lines.push({
      type: 'PAYMENT',
      amount: money,
      status,
      referenceId: payment.transactionId,
      referenceType: 'TRANSACTION',
      details: { method: payment.methodCode, provider: payment.providerCode },
    });
  return lines;
}
