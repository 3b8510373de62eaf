/**
 * The refund ledger of one transaction (stream paymentRefunds-<transactionId>; docs/payments-refunds.md): every refund
 * of it, requested or reported by snapshot, and what can still be refunded. Each decision is made on the ledger's
 * state and appended with its expected version, so two racing refunds are serialised and the second is decided on
 * the first's outcome: the accepted refunds (PENDING, PROCESSING, COMPLETED) never sum to more than the captured
 * amount. The transaction's own facts come in the command: a COMPLETED transaction never changes status again, so
 * reading it before deciding here is safe.
 */
import type { Decider } from '../shared/decider.js';
import { paymentsError } from './errors.js';
import type { RefundLedgerEvent } from './events.js';
import {
  checkSessionRefundInput,
  sessionRefundEvents,
  type SessionRefunded,
  type SessionRefundFacts,
  type SessionRefundParts,
} from './session-refunds.js';
import { snapshotOutcome } from './transaction-snapshot.js';
import type { TransactionStatus } from './transaction.js';

/** Refund record states (the seed: "not shown"): PENDING → PROCESSING → COMPLETED | FAILED; a snapshot is born ended. */
export const refundStatuses = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type RefundStatus = (typeof refundStatuses)[number];
export type RefundType = 'FULL' | 'PARTIAL';

export interface Refund {
  readonly refundId: string;
  readonly refundReferenceId: string;
  readonly amount: number;
  readonly currency: string;
  readonly refundType: RefundType;
  readonly status: RefundStatus;
  readonly origin: 'REQUEST' | 'SNAPSHOT';
  readonly providerRefundId: string | null;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** A payment-session transaction's refund: the points and vouchers it returns beside `amount` (money). */
  readonly session: SessionRefundParts | null;
}

export type RefundLedgerState =
  | { readonly status: 'NONE' }
  | { readonly status: 'OPEN'; readonly transactionId: string; readonly refunds: readonly Refund[] };

/** What the ledger needs to know of the transaction it refunds (read from transaction-<uuid> before deciding). */
export interface RefundableTransaction {
  readonly transactionId: string;
  readonly merchantCode: string;
  readonly terminalId: string;
  readonly status: TransactionStatus;
  readonly amount: number;
  readonly currency: string;
  readonly providerCode: string;
  /** The payment session the transaction was paid through; null: none (refundVpoint is then refused). */
  readonly paymentSessionId: string | null;
  /** That session's points and vouchers (given whenever paymentSessionId is; session-refunds.ts). */
  readonly session?: SessionRefundFacts | null;
}

export interface RefundCaller {
  readonly merchantCode: string;
  readonly terminalId: string;
}

export type RefundLedgerCommand =
  | {
      type: 'RequestRefund';
      transaction: RefundableTransaction;
      caller: RefundCaller;
      refundId: string;
      refundReferenceId: string;
      amount: number;
      /** Only cross-checked against the original's: the refund always uses the original's currency. */
      currency: string | null;
      refundType: RefundType;
      reason: string | null;
      requestedBy: string | null;
      userId: string;
      refundVpoint: number | null;
      now: string;
    }
  | {
      type: 'RecordRefundSnapshot';
      transaction: RefundableTransaction;
      caller: RefundCaller;
      refundId: string;
      refundReferenceId: string;
      amount: number;
      currency: string;
      refundType: RefundType;
      /** As sent: COMPLETED or FAILED (else 4016). */
      status: string;
      processedAt: string;
      errorCode: string | null;
      errorMessage: string | null;
      now: string;
    }
  /** The refund reactor handed the refund to the provider, which took it. */
  | { type: 'MarkRefundProcessing'; refundId: string; providerRefundId: string; now: string }
  /** The provider's final result (its signed callback). */
  | {
      type: 'RecordRefundResult';
      refundId: string;
      result: 'COMPLETED' | 'FAILED';
      providerRefundId: string | null;
      errorCode: string | null;
      errorMessage: string | null;
      now: string;
    };

/** Refunds whose amount is taken from the refundable amount: all but FAILED ones. */
const counts = (r: Refund) => r.status !== 'FAILED';

export function refundedAmount(state: RefundLedgerState): number {
  return state.status === 'NONE' ? 0 : state.refunds.filter(counts).reduce((sum, r) => sum + r.amount, 0);
}

/** What can still be refunded of `transaction`: its amount less every accepted refund (PENDING, PROCESSING, COMPLETED). */
export function remainingRefundable(transaction: Pick<RefundableTransaction, 'amount'>, state: RefundLedgerState) {
  return Math.max(0, transaction.amount - refundedAmount(state));
}

/** What the accepted refunds took of a session's points and vouchers. */
export function sessionRefunded(state: RefundLedgerState): SessionRefunded {
  const parts = state.status === 'NONE' ? [] : state.refunds.filter(counts).flatMap((r) => r.session ?? []);
  return {
    vpoint: parts.reduce((sum, p) => sum + p.vpoint, 0),
    vpointAmount: parts.reduce((sum, p) => sum + p.vpointAmount, 0),
    vouchers: parts.some((p) => p.vouchers.length > 0),
  };
}

export function refundOf(state: RefundLedgerState, refundId: string): Refund | undefined {
  return state.status === 'NONE' ? undefined : state.refunds.find((r) => r.refundId === refundId);
}

function owned(t: RefundableTransaction, caller: RefundCaller): void {
  if (t.merchantCode !== caller.merchantCode || t.terminalId !== caller.terminalId)
    throw paymentsError('TRANSACTION_NOT_OWNED', 'the transaction does not belong to the terminal of this key');
}

function notRefundable(message: string, details: Record<string, unknown> = {}) {
  return paymentsError('TRANSACTION_NOT_REFUNDABLE', message, details);
}

function uniqueReference(state: RefundLedgerState, refundReferenceId: string): void {
  if (state.status !== 'NONE' && state.refunds.some((r) => r.refundReferenceId === refundReferenceId))
    throw paymentsError('DUPLICATE_REFUND_REFERENCE', `refundReferenceId ${refundReferenceId} was used`, {
      field: 'refundReferenceId',
      refundReferenceId,
    });
}

function sameCurrency(t: RefundableTransaction, currency: string | null): void {
  if (currency !== null && currency !== t.currency)
    throw paymentsError('INVALID_PAYMENT_REQUEST', `currency: the transaction is in ${t.currency}`, {
      field: 'currency',
    });
}

/**
 * The amount rule: COMPLETED only; FULL is the whole remaining amount (after earlier partial refunds), and `amount`
 * must say exactly that; PARTIAL at most the remaining amount.
 */
function checkAmount(t: RefundableTransaction, state: RefundLedgerState, type: RefundType, amount: number): number {
  if (t.status !== 'COMPLETED')
    throw notRefundable(`a ${t.status} transaction cannot be refunded (only COMPLETED)`, { status: t.status });
  const remaining = remainingRefundable(t, state);
  if (remaining === 0) throw notRefundable('nothing is left to refund', { remainingRefundableAmount: 0 });
  if (type === 'FULL' && amount !== remaining)
    throw notRefundable(`a FULL refund is the whole remaining amount: ${remaining}`, {
      remainingRefundableAmount: remaining,
    });
  if (amount > remaining)
    throw notRefundable(`only ${remaining} is left to refund`, { remainingRefundableAmount: remaining });
  return remaining - amount;
}

function decide(command: RefundLedgerCommand, state: RefundLedgerState): RefundLedgerEvent[] {
  switch (command.type) {
    case 'RequestRefund': {
      const t = command.transaction;
      owned(t, command.caller);
      if (t.status !== 'COMPLETED')
        throw notRefundable(`a ${t.status} transaction cannot be refunded (only COMPLETED)`, { status: t.status });
      sameCurrency(t, command.currency);
      if (t.paymentSessionId !== null) {
        // The session's rules (session-refunds.ts): input first, then the reference, then the amounts.
        checkSessionRefundInput(command);
        uniqueReference(state, command.refundReferenceId);
        return sessionRefundEvents(command, sessionRefunded(state), remainingRefundable(t, state));
      }
      if (command.refundVpoint !== null)
        throw paymentsError(
          'INVALID_PAYMENT_REQUEST',
          'refundVpoint: only a transaction paid through a payment session has points to refund',
          { field: 'refundVpoint' },
        );
      if (command.amount < 1)
        throw paymentsError('INVALID_PAYMENT_REQUEST', 'amount: must be at least 1 (minor units)', { field: 'amount' });
      uniqueReference(state, command.refundReferenceId);
      const remainingRefundableAmount = checkAmount(t, state, command.refundType, command.amount);
      return [
        {
          type: 'RefundRequested',
          data: {
            transactionId: t.transactionId,
            refundId: command.refundId,
            refundReferenceId: command.refundReferenceId,
            merchantCode: t.merchantCode,
            terminalId: t.terminalId,
            amount: command.amount,
            currency: t.currency,
            refundType: command.refundType,
            reason: command.reason,
            requestedBy: command.requestedBy,
            userId: command.userId,
            refundVpoint: command.refundVpoint,
            providerCode: t.providerCode,
            remainingRefundableAmount,
            requestedAt: command.now,
          },
        },
      ];
    }

    case 'RecordRefundSnapshot': {
      const t = command.transaction;
      owned(t, command.caller);
      uniqueReference(state, command.refundReferenceId);
      const outcome = snapshotOutcome(command.status, command.errorCode, command.errorMessage);
      sameCurrency(t, command.currency);
      // A COMPLETED refund counts against the refundable amount like a request; a FAILED one takes nothing.
      const remainingRefundableAmount =
        outcome.status === 'COMPLETED'
          ? checkAmount(t, state, command.refundType, command.amount)
          : remainingRefundable(t, state);
      return [
        {
          type: 'RefundSnapshotRecorded',
          data: {
            transactionId: t.transactionId,
            refundId: command.refundId,
            refundReferenceId: command.refundReferenceId,
            merchantCode: t.merchantCode,
            terminalId: t.terminalId,
            amount: command.amount,
            currency: t.currency,
            refundType: command.refundType,
            ...outcome,
            processedAt: command.processedAt,
            remainingRefundableAmount,
            recordedAt: command.now,
          },
        },
      ];
    }

    case 'MarkRefundProcessing': {
      const r = refundOf(state, command.refundId);
      if (!r || state.status === 'NONE') throw paymentsError('TRANSACTION_NOT_FOUND', `no refund ${command.refundId}`);
      // A repeat (the reactor redelivered), or the provider's callback came first: nothing to record.
      if (r.status !== 'PENDING') return [];
      return [
        {
          type: 'RefundProcessing',
          data: {
            transactionId: state.transactionId,
            refundId: r.refundId,
            providerRefundId: command.providerRefundId,
            processingAt: command.now,
          },
        },
      ];
    }

    case 'RecordRefundResult': {
      const r = refundOf(state, command.refundId);
      if (!r || state.status === 'NONE') throw paymentsError('TRANSACTION_NOT_FOUND', `no refund ${command.refundId}`);
      if (r.status === command.result) return []; // the same callback again
      if (r.status === 'COMPLETED' || r.status === 'FAILED')
        throw paymentsError('TRANSACTION_NOT_PROCESSABLE', `the refund is ${r.status} already`, { status: r.status });
      const base = {
        transactionId: state.transactionId,
        refundId: r.refundId,
        refundReferenceId: r.refundReferenceId,
        amount: r.amount,
        currency: r.currency,
      };
      const session = r.session ? { session: r.session } : {};
      if (command.result === 'COMPLETED')
        return [
          {
            type: 'RefundCompleted',
            data: {
              ...base,
              providerRefundId: command.providerRefundId ?? r.providerRefundId,
              completedAt: command.now,
              ...session,
            },
          },
        ];
      return [
        {
          type: 'RefundFailed',
          data: {
            ...base,
            errorCode: command.errorCode ?? 'REFUND_FAILED',
            errorMessage: command.errorMessage ?? 'the provider refused the refund',
            failedAt: command.now,
            ...session,
          },
        },
      ];
    }
  }
}

function update(state: RefundLedgerState, refundId: string, change: (r: Refund) => Refund): RefundLedgerState {
  if (state.status === 'NONE') return state;
  return { ...state, refunds: state.refunds.map((r) => (r.refundId === refundId ? change(r) : r)) };
}

function evolve(state: RefundLedgerState, event: RefundLedgerEvent): RefundLedgerState {
  const open = (transactionId: string) =>
    state.status === 'NONE' ? { status: 'OPEN' as const, transactionId, refunds: [] } : state;
  switch (event.type) {
    case 'RefundRequested': {
      const d = event.data;
      const ledger = open(d.transactionId);
      const refund: Refund = {
        refundId: d.refundId,
        refundReferenceId: d.refundReferenceId,
        amount: d.amount,
        currency: d.currency,
        refundType: d.refundType,
        status: 'PENDING',
        origin: 'REQUEST',
        providerRefundId: null,
        errorCode: null,
        errorMessage: null,
        createdAt: d.requestedAt,
        updatedAt: d.requestedAt,
        session: d.session ?? null,
      };
      return { ...ledger, refunds: [...ledger.refunds, refund] };
    }
    case 'RefundSnapshotRecorded': {
      const d = event.data;
      const ledger = open(d.transactionId);
      const refund: Refund = {
        refundId: d.refundId,
        refundReferenceId: d.refundReferenceId,
        amount: d.amount,
        currency: d.currency,
        refundType: d.refundType,
        status: d.status,
        origin: 'SNAPSHOT',
        providerRefundId: null,
        errorCode: d.errorCode,
        errorMessage: d.errorMessage,
        createdAt: d.recordedAt,
        updatedAt: d.recordedAt,
        session: null,
      };
      return { ...ledger, refunds: [...ledger.refunds, refund] };
    }
    case 'RefundProcessing':
      return update(state, event.data.refundId, (r) => ({
        ...r,
        status: 'PROCESSING',
        providerRefundId: event.data.providerRefundId,
        updatedAt: event.data.processingAt,
      }));
    case 'RefundCompleted':
      return update(state, event.data.refundId, (r) => ({
        ...r,
        status: 'COMPLETED',
        providerRefundId: event.data.providerRefundId ?? r.providerRefundId,
        updatedAt: event.data.completedAt,
      }));
    case 'RefundFailed':
      return update(state, event.data.refundId, (r) => ({
        ...r,
        status: 'FAILED',
        errorCode: event.data.errorCode,
        errorMessage: event.data.errorMessage,
        updatedAt: event.data.failedAt,
      }));
  }
}

export const refundLedgerDecider: Decider<RefundLedgerCommand, RefundLedgerState, RefundLedgerEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
