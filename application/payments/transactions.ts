/**
 * The payment hub's transactions as merchant backends and providers drive them (docs/payments.md, "Transactions"):
 * init, lookup, cancel and confirm for the key's terminal, and the provider's results. Every write runs through the
 * command handler on transaction-<uuid>, so racing commands are serialised by the stream's version and exactly one
 * outcome wins; reads come from the aggregate, never a projection.
 */
import {
  paymentsDecoders,
  paymentsError,
  paymentsEventDecoder,
  streams,
  transactionDecider,
  type ProviderSession,
  type TransactionCommand,
  type TransactionState,
  type Transaction,
  type TransactionPaymentDetails,
  type TransactionReference,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { handleCommand, loadAggregate } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import type { UserLookup } from '../shared/user-lookup.js';
import type { PaymentCaller, PaymentMerchantDirectory } from './merchant-directory.js';
import type { PaymentProviderPort } from './provider-port.js';
import { initiateTransaction, orderStream, type InitPaymentRequest, type PaymentInfo } from './transaction-init.js';

export interface TransactionSettings {
  /** Abandonment: no result this long after init → FAILED. */
  abandonAfterSeconds: number;
  /** How long a provider holds money before the sweep cancels it, by provider code. */
  holdTimeoutSeconds: (providerCode: string) => number;
}

export class TransactionService {
  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      directory: PaymentMerchantDirectory;
      users: () => UserLookup;
      providers: ReadonlyMap<string, PaymentProviderPort>;
      settings: TransactionSettings;
    },
  ) {}

  async init(
    context: CommandContext,
    caller: PaymentCaller,
    req: InitPaymentRequest,
  ): Promise<{ transaction: Transaction; paymentInfo: PaymentInfo }> {
    const merchant = await this.deps.directory.merchant(caller.merchantCode);
    if (!merchant) throw new Error(`the key of terminal ${caller.terminalId} names no merchant`);
    const { store, clock, users, providers, settings } = this.deps;
    return initiateTransaction(
      { store, clock, users, providers, abandonAfterSeconds: settings.abandonAfterSeconds },
      context,
      caller,
      merchant,
      req,
    );
  }

  /** The transaction a lookup names, for the caller's terminal only (else TRANSACTION_NOT_OWNED). */
  async find(caller: PaymentCaller, ref: TransactionReference): Promise<Transaction[]> {
    const transactionId = await this.resolve(caller, ref);
    const t = await this.load(transactionId);
    if (t.merchantCode !== caller.merchantCode || t.terminalId !== caller.terminalId)
      throw paymentsError('TRANSACTION_NOT_OWNED', 'the transaction does not belong to the terminal of this key');
    return [t];
  }

  async cancel(
    context: CommandContext,
    caller: PaymentCaller,
    ref: TransactionReference,
    input: { reason: string | null; requestedBy: string | null },
  ): Promise<Transaction> {
    const transactionId = await this.resolve(caller, ref);
    return this.run(context, transactionId, (now) => ({ type: 'CancelTransaction', caller, ...input, now }));
  }

  async confirm(context: CommandContext, caller: PaymentCaller, ref: TransactionReference): Promise<Transaction> {
    const transactionId = await this.resolve(caller, ref);
    return this.run(context, transactionId, (now) => ({ type: 'ConfirmTransaction', caller, now }));
  }

  /** The provider took the payment (PENDING → PROCESSING). */
  providerStarted(context: CommandContext, transactionId: string, provider: ProviderSession): Promise<Transaction> {
    return this.run(context, transactionId, (now) => ({ type: 'StartProcessing', ...provider, now }));
  }

  /** The provider authorized: HOLDING until the hold timeout, or COMPLETED when the hold is skipped. */
  providerAuthorized(
    context: CommandContext,
    transactionId: string,
    payment: TransactionPaymentDetails,
  ): Promise<Transaction> {
    const holdSeconds = this.deps.settings.holdTimeoutSeconds;
    return this.run(context, transactionId, (now, state) => ({
      type: 'RecordAuthorization',
      payment,
      holdExpiresAt: new Date(
        Date.parse(now) + (state.status === 'NONE' ? 0 : holdSeconds(state.provider.code)) * 1000,
      ).toISOString(),
      now,
    }));
  }

  providerDeclined(
    context: CommandContext,
    transactionId: string,
    error: { errorCode: string; errorMessage: string },
  ): Promise<Transaction> {
    return this.run(context, transactionId, (now) => ({ type: 'RecordDecline', ...error, now }));
  }

  /** The hold-timeout sweep: a hold past its end ends CANCELLED or TIMEOUT; a no-op when the transaction moved on. */
  expireHold(context: CommandContext, transactionId: string, endStatus: 'CANCELLED' | 'TIMEOUT'): Promise<Transaction> {
    return this.run(context, transactionId, (now) => ({ type: 'ExpireHold', endStatus, now }));
  }

  /** Abandonment: no result by expiresAt → FAILED; a no-op when the transaction moved on. */
  abandon(context: CommandContext, transactionId: string): Promise<Transaction> {
    return this.run(context, transactionId, (now) => ({ type: 'AbandonTransaction', now }));
  }

  /** The provider carried out the outcome (capture or void); a repeat records nothing. */
  recordSettlement(
    context: CommandContext,
    transactionId: string,
    settlement: { action: 'CAPTURE' | 'VOID'; providerReference: string },
  ): Promise<Transaction> {
    return this.run(context, transactionId, (now) => ({ type: 'RecordProviderSettlement', ...settlement, now }));
  }

  /** The transaction as its stream says. */
  async load(transactionId: string): Promise<Transaction> {
    const { state } = await loadAggregate(
      this.deps.store,
      transactionDecider,
      paymentsDecoders.transaction,
      streams.transaction(transactionId),
    );
    if (state.status === 'NONE') throw paymentsError('TRANSACTION_NOT_FOUND', 'transaction not found');
    return state;
  }

  /** transactionId wins; else the merchant's orderId guard names the transaction, whose referenceId must match. */
  private async resolve(caller: PaymentCaller, ref: TransactionReference): Promise<string> {
    if ('transactionId' in ref) return ref.transactionId;
    const claim = (await this.deps.store.readStream(orderStream(caller.merchantCode, ref.orderId))).at(0);
    const order = claim && paymentsDecoders.order.decode(claim).data;
    if (!order || order.referenceId !== ref.referenceId)
      throw paymentsError('TRANSACTION_NOT_FOUND', 'no transaction has this orderId and referenceId');
    return order.transactionId;
  }

  private async run(
    context: CommandContext,
    transactionId: string,
    command: (now: string, state: TransactionState) => TransactionCommand,
  ): Promise<Transaction> {
    const { state } = await handleCommand(
      { store: this.deps.store, clock: this.deps.clock, decoder: paymentsEventDecoder },
      context,
      {
        decider: transactionDecider,
        decoder: paymentsDecoders.transaction,
        streamName: streams.transaction(transactionId),
        command,
      },
      // Racing writers of one transaction: each retry re-decides on the winner's state, so the losers are refused.
      { maxAttempts: 20 },
    );
    if (state.status === 'NONE') throw paymentsError('TRANSACTION_NOT_FOUND', 'transaction not found');
    return state;
  }
}
