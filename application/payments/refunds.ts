/**
 * Refunds of the payment hub (docs/payments-refunds.md): a merchant backend's refund request and refund snapshot, and
 * the provider's answers, each decided on the transaction's refund ledger (paymentRefunds-<transactionId>) through the
 * write engine, so racing refunds are serialised by the ledger's version and can never refund more than was
 * captured. The provider is called by the refund reactor (refund-reactor.ts), never inside the request.
 */
import {
  refundOf,
  sessionRefundFactsOf,
  type Refund,
  type RefundableTransaction,
  type RefundLedgerCommand,
  type RefundLedgerEvent,
  type RefundLedgerState,
  type RefundType,
  type SessionRefundFacts,
  type Transaction,
  type TransactionReference,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/aggregate.js';
import type { EventStore } from '../shared/event-store.js';
import { paymentsAggregates } from './aggregates.js';
import type { PaymentCaller } from './merchant-directory.js';
import type { PaymentSessionService } from './payment-sessions.js';
import type { TransactionService } from './transactions.js';

/** A refund request as the interface parsed it (amount already its integer part, refundType upper case). */
export interface RefundRequestInput {
  amount: number;
  currency: string | null;
  refundType: RefundType;
  refundReferenceId: string;
  reason: string | null;
  requestedBy: string | null;
  /** X-User-ID. */
  userId: string;
  refundVpoint: number | null;
}

export interface RefundSnapshotInput {
  transactionId: string;
  amount: number;
  currency: string;
  refundReferenceId: string;
  refundType: RefundType;
  status: string;
  /** Unix ms. */
  processedAt: number;
  errorCode: string | null;
  errorMessage: string | null;
}

export interface AcceptedRefund {
  refundId: string;
  status: Refund['status'];
  remainingRefundableAmount: number;
  /** A payment-session transaction only (docs/payments-refunds.md, "Payment-session transactions"). */
  remainingRefundableVpoint?: number;
}

/**
 * What the ledger needs of a transaction, and of the payment session it paid (its points and vouchers: the session's
 * lines are fixed from its creation, so reading them before deciding cannot go stale).
 */
export function refundableOf(t: Transaction, session: SessionRefundFacts | null = null): RefundableTransaction {
  return {
    transactionId: t.transactionId,
    merchantCode: t.merchantCode,
    terminalId: t.terminalId,
    status: t.status,
    amount: t.amount,
    currency: t.currency,
    providerCode: t.provider.code,
    paymentSessionId: session?.paymentSessionId ?? null,
    session,
  };
}

/** A new refund's id, named by the command (its X-Request-ID, the idempotency key): a resend names the same refund. */
const refundIdOf = (context: CommandContext) => nameBasedUuid(`${context.commandId}/refund`);

export class RefundService {
  private readonly ledgers;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      transactions: TransactionService;
      /** Reads the session a transaction paid (its refund takes points and vouchers back). */
      sessions: PaymentSessionService;
    },
  ) {
    this.ledgers = paymentsAggregates(deps).refunds;
  }

  /** The refundable facts of `t`, with its payment session's when it paid one. */
  private async refundable(t: Transaction): Promise<RefundableTransaction> {
    if (!t.paymentSessionId) return refundableOf(t);
    return refundableOf(t, sessionRefundFactsOf(await this.deps.sessions.load(t.paymentSessionId)));
  }

  /** POST transactions/refund: accepted PENDING (the reactor then hands it to the provider). */
  async request(
    context: CommandContext,
    caller: PaymentCaller,
    ref: TransactionReference,
    input: RefundRequestInput,
  ): Promise<AcceptedRefund> {
    const [t] = await this.deps.transactions.find(caller, ref);
    const refundId = refundIdOf(context);
    const transaction = await this.refundable(t!);
    const { events } = await this.run(context, t!.transactionId, (now) => ({
      type: 'RequestRefund',
      transaction,
      caller,
      refundId,
      ...input,
      now,
    }));
    const requested = events.find((e) => e.type === 'RefundRequested');
    if (!requested) throw new Error('a refund request answered without its event');
    const { data } = requested;
    // One that returns no money is COMPLETED in the same append (no provider to ask).
    const status = events.some((e) => e.type === 'RefundCompleted') ? 'COMPLETED' : 'PENDING';
    return {
      refundId: data.refundId,
      status,
      remainingRefundableAmount: data.remainingRefundableAmount,
      ...(data.remainingRefundableVpoint !== undefined && {
        remainingRefundableVpoint: data.remainingRefundableVpoint,
      }),
    };
  }

  /** POST refunds/snapshot: recorded COMPLETED or FAILED as given; no provider is called. */
  async snapshot(context: CommandContext, caller: PaymentCaller, input: RefundSnapshotInput): Promise<AcceptedRefund> {
    const t = await this.deps.transactions.load(input.transactionId);
    const refundId = refundIdOf(context);
    const { transactionId: _id, processedAt, ...rest } = input;
    const transaction = await this.refundable(t);
    const { events } = await this.run(context, t.transactionId, (now) => ({
      type: 'RecordRefundSnapshot',
      transaction,
      caller,
      refundId,
      ...rest,
      processedAt: new Date(processedAt).toISOString(),
      now,
    }));
    const recorded = events.find((e) => e.type === 'RefundSnapshotRecorded');
    if (!recorded) throw new Error('a refund snapshot answered without its event');
    const { data } = recorded;
    return { refundId: data.refundId, status: data.status, remainingRefundableAmount: data.remainingRefundableAmount };
  }

  /** The provider took the refund (the reactor); a repeat, or a result that came first, records nothing. */
  async providerAccepted(
    context: CommandContext,
    transactionId: string,
    refundId: string,
    providerRefundId: string,
  ): Promise<void> {
    await this.run(context, transactionId, (now) => ({
      type: 'MarkRefundProcessing',
      refundId,
      providerRefundId,
      now,
    }));
  }

  /** The provider's final result (its signed callback); the same result again records nothing. */
  async providerResult(
    context: CommandContext,
    transactionId: string,
    refundId: string,
    result: {
      result: 'COMPLETED' | 'FAILED';
      providerRefundId: string | null;
      errorCode: string | null;
      errorMessage: string | null;
    },
  ): Promise<Refund> {
    const { state } = await this.run(context, transactionId, (now) => ({
      type: 'RecordRefundResult',
      refundId,
      ...result,
      now,
    }));
    return refundOf(state, refundId)!;
  }

  /** The refund ledger of a transaction, as its stream says. */
  async ledger(transactionId: string): Promise<RefundLedgerState> {
    return this.ledgers.state(transactionId);
  }

  private run(
    context: CommandContext,
    transactionId: string,
    command: (now: string, state: RefundLedgerState) => RefundLedgerCommand,
  ): Promise<{ state: RefundLedgerState; events: RefundLedgerEvent[] }> {
    return this.ledgers.handle(context, transactionId, command);
  }
}
