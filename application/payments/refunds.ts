/**
 * Refunds of the payment hub (docs/payments-refunds.md): a merchant backend's refund request and refund snapshot, and
 * the provider's answers, each decided on the transaction's refund ledger (paymentRefunds-<transactionId>) through the
 * command handler, so racing refunds are serialised by the ledger's version and can never refund more than was
 * captured. The provider is called by the refund reactor (refund-reactor.ts), never inside the request.
 */
import { randomUUID } from 'node:crypto';
import {
  paymentsDecoders,
  paymentsEventDecoder,
  refundLedgerDecider,
  refundOf,
  streams,
  type Refund,
  type RefundableTransaction,
  type RefundLedgerCommand,
  type RefundLedgerEvent,
  type RefundLedgerState,
  type RefundType,
  type Transaction,
  type TransactionReference,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { handleCommand, loadAggregate } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import type { PaymentCaller } from './merchant-directory.js';
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
}

/** What the ledger needs of a transaction. Payment sessions do not exist yet: no transaction has one. */
export function refundableOf(t: Transaction): RefundableTransaction {
  return {
    transactionId: t.transactionId,
    merchantCode: t.merchantCode,
    terminalId: t.terminalId,
    status: t.status,
    amount: t.amount,
    currency: t.currency,
    providerCode: t.provider.code,
    paymentSessionId: null,
  };
}

/** Racing refunds of one transaction: each loser re-decides on the winner's ledger; enough rounds for a burst. */
const maxAttempts = 64;

export class RefundService {
  constructor(private readonly deps: { store: EventStore; clock: Clock; transactions: TransactionService }) {}

  /** POST transactions/refund: accepted PENDING (the reactor then hands it to the provider). */
  async request(
    context: CommandContext,
    caller: PaymentCaller,
    ref: TransactionReference,
    input: RefundRequestInput,
  ): Promise<AcceptedRefund> {
    const [t] = await this.deps.transactions.find(caller, ref);
    const refundId = randomUUID();
    const { events } = await this.run(context, t!.transactionId, (now) => ({
      type: 'RequestRefund',
      transaction: refundableOf(t!),
      caller,
      refundId,
      ...input,
      now,
    }));
    const requested = events.find((e) => e.type === 'RefundRequested');
    if (!requested) throw new Error('a refund request answered without its event');
    const { data } = requested;
    return { refundId: data.refundId, status: 'PENDING', remainingRefundableAmount: data.remainingRefundableAmount };
  }

  /** POST refunds/snapshot: recorded COMPLETED or FAILED as given; no provider is called. */
  async snapshot(context: CommandContext, caller: PaymentCaller, input: RefundSnapshotInput): Promise<AcceptedRefund> {
    const t = await this.deps.transactions.load(input.transactionId);
    const refundId = randomUUID();
    const { transactionId: _id, processedAt, ...rest } = input;
    const { events } = await this.run(context, t.transactionId, (now) => ({
      type: 'RecordRefundSnapshot',
      transaction: refundableOf(t),
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
    const { state } = await loadAggregate(
      this.deps.store,
      refundLedgerDecider,
      paymentsDecoders.refunds,
      streams.refunds(transactionId),
    );
    return state;
  }

  private run(
    context: CommandContext,
    transactionId: string,
    command: (now: string, state: RefundLedgerState) => RefundLedgerCommand,
  ): Promise<{ state: RefundLedgerState; events: RefundLedgerEvent[] }> {
    return handleCommand(
      { store: this.deps.store, clock: this.deps.clock, decoder: paymentsEventDecoder },
      context,
      {
        decider: refundLedgerDecider,
        decoder: paymentsDecoders.refunds,
        streamName: streams.refunds(transactionId),
        command,
      },
      { maxAttempts },
    );
  }
}
