/**
 * The payment hub's transactions as merchant backends and providers drive them (docs/payments.md, "Transactions"):
 * init, lookup, cancel and confirm for the key's terminal, and the provider's results. Every write runs through the
 * write engine on transaction-<uuid>, so racing commands are serialised by the stream's version and exactly one
 * outcome wins; reads come from the aggregate, never a projection.
 */
import {
  paymentsDecoders,
  paymentsError,
  type ProviderSession,
  type TransactionCommand,
  type TransactionState,
  type Transaction,
  type TransactionPaymentDetails,
  type TransactionReference,
  type SavedCard,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import type { UserLookup } from '../shared/user-lookup.js';
import type { PaymentCaller, PaymentMerchantDirectory } from './merchant-directory.js';
import { isDomainError } from '../shared/errors.js';
import { nameBasedUuid } from '../shared/event-ids.js';
import type { PaymentProviderPort, ProviderPayment } from './provider-port.js';
import type { SavedPaymentMethods } from './saved-methods.js';
import type { PaymentSessionService } from './payment-sessions.js';
import { initiateTransaction, orderStream, type InitPaymentRequest, type PaymentInfo } from './transaction-init.js';
import { paymentsAggregates } from './aggregates.js';

export interface TransactionSettings {
  /** Abandonment: no result this long after init → FAILED. */
  abandonAfterSeconds: number;
  /** How long a provider holds money before the sweep cancels it, by provider code. */
  holdTimeoutSeconds: (providerCode: string) => number;
}

export class TransactionService {
  private readonly transactions;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      directory: PaymentMerchantDirectory;
      users: () => UserLookup;
      providers: ReadonlyMap<string, PaymentProviderPort>;
      settings: TransactionSettings;
      savedMethods: SavedPaymentMethods;
      sessions: PaymentSessionService;
    },
  ) {
    this.transactions = paymentsAggregates(deps).transaction;
  }

  async init(
    context: CommandContext,
    caller: PaymentCaller,
    req: InitPaymentRequest,
  ): Promise<{ transaction: Transaction; paymentInfo: PaymentInfo }> {
    const merchant = await this.deps.directory.merchant(caller.merchantCode);
    if (!merchant) throw new Error(`the key of terminal ${caller.terminalId} names no merchant`);
    const { store, clock, users, providers, settings, savedMethods, sessions } = this.deps;
    return initiateTransaction(
      {
        store,
        clock,
        transactions: this.transactions,
        users,
        providers,
        abandonAfterSeconds: settings.abandonAfterSeconds,
        savedMethods,
        sessions,
        chargeSavedCard: (t, port, payment) => this.chargeSavedCard(t, port, payment),
      },
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

  /**
   * The provider authorized: HOLDING until the hold timeout, or COMPLETED when the hold is skipped. With `savedCard`
   * (the payer chose to save the card), the card is then saved for the payer (saved-methods.ts).
   */
  async providerAuthorized(
    context: CommandContext,
    transactionId: string,
    payment: TransactionPaymentDetails,
    savedCard?: SavedCard,
  ): Promise<Transaction> {
    const holdSeconds = this.deps.settings.holdTimeoutSeconds;
    const t = await this.run(context, transactionId, (now, state) => ({
      type: 'RecordAuthorization',
      payment,
      holdExpiresAt: new Date(
        Date.parse(now) + (state.status === 'NONE' ? 0 : holdSeconds(state.provider.code)) * 1000,
      ).toISOString(),
      ...(savedCard && { savedCard }),
      now,
    }));
    await this.deps.savedMethods.saveFromPayment(t);
    return t;
  }

  /**
   * A 2D payment with a saved card: the provider charges the token (no page, no payer), and its answer is recorded as
   * its callback would be. Named by the transaction: a resend of the init records nothing twice. When the transaction
   * moved on meanwhile (the merchant cancelled it), the answer is what it holds.
   */
  async chargeSavedCard(t: Transaction, port: PaymentProviderPort, payment: ProviderPayment): Promise<Transaction> {
    const charge = await port.chargeSavedCard({ ...payment, providerTransactionId: t.providerTransactionId ?? '' });
    const context: CommandContext = {
      commandId: nameBasedUuid(`payments/saved-card-charge/${t.transactionId}`),
      correlationId: t.transactionId,
      actor: { process: `provider:${t.provider.code}` },
    };
    try {
      return charge.result === 'AUTHORIZED'
        ? await this.providerAuthorized(context, t.transactionId, charge.payment)
        : await this.providerDeclined(context, t.transactionId, charge);
    } catch (error) {
      if (isDomainError(error) && error.code === 'TRANSACTION_NOT_PROCESSABLE') return this.load(t.transactionId);
      throw error;
    }
  }

  providerDeclined(
    context: CommandContext,
    transactionId: string,
    error: { errorCode: string; errorMessage: string },
  ): Promise<Transaction> {
    const { errorCode, errorMessage } = error;
    return this.run(context, transactionId, (now) => ({ type: 'RecordDecline', errorCode, errorMessage, now }));
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
    const state = await this.transactions.state(transactionId);
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
    const { state } = await this.transactions.handle(context, transactionId, command);
    if (state.status === 'NONE') throw paymentsError('TRANSACTION_NOT_FOUND', 'transaction not found');
    return state;
  }
}
