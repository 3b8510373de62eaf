/**
 * Transaction snapshots (POST transactions/snapshot; docs/payments-refunds.md, "Transaction snapshot"): an external
 * system reports a payment result, recorded as a new transaction in its end state, no provider called. The seed's
 * order: the hash (checked by the interface), the user's enrichment (4302), the pair (4091, nothing recorded), then
 * the transaction, whose orderId and referenceId are claimed once per merchant in the same append, as init claims them.
 */
import {
  paymentsError,
  providerById,
  type OrderInfo,
  type PaymentMerchant,
  type Transaction,
  type TransactionDetails,
  type TransactionPayer,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/aggregate.js';
import type { EventStore } from '../shared/event-store.js';
import { findIdempotencyRecord } from '../shared/idempotency.js';
import type { UserLookup } from '../shared/user-lookup.js';
import type { PaymentCaller, PaymentMerchantDirectory } from './merchant-directory.js';
import {
  duplicateOrder,
  duplicateReference,
  orderStream,
  referenceStream,
  requestedDetails,
} from './transaction-request.js';
import { paymentsAggregates } from './aggregates.js';

/** The snapshot body and headers as the interface parsed them (amount already its integer part). */
export interface TransactionSnapshotRequest {
  amount: number;
  currency: string;
  description: string;
  orderId: string;
  referenceId: string;
  paymentMethodCode: string;
  providerId: string;
  sellerMerchantId?: string;
  businessUnitId?: string;
  branchId?: string;
  returnUrl?: string;
  providerData?: string;
  orderInfo?: OrderInfo;
  status: string;
  /** Unix ms. */
  processedAt: number;
  providerTransactionId?: string;
  errorCode?: string;
  errorMessage?: string;
  miniAppUserId?: string;
  miniAppId?: string;
  authAudience?: string;
}

const invalid = (field: string, message: string) =>
  paymentsError('INVALID_PAYMENT_REQUEST', `${field}: ${message}`, { field });

export class TransactionSnapshots {
  private readonly transactions;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      directory: PaymentMerchantDirectory;
      users: () => UserLookup;
    },
  ) {
    this.transactions = paymentsAggregates(deps).transaction;
  }

  async record(context: CommandContext, caller: PaymentCaller, req: TransactionSnapshotRequest): Promise<Transaction> {
    const { store } = this.deps;
    const merchant = await this.deps.directory.merchant(caller.merchantCode);
    if (!merchant) throw new Error(`the key of terminal ${caller.terminalId} names no merchant`);
    const payer = await this.payerOf(req.miniAppUserId);
    // The pair first, as the seed orders it: a used orderId records nothing. A resend under its X-Request-ID is no
    // duplicate: the write engine answers it from the first time.
    const used = async (stream: string) => (await store.readStream(stream)).length > 0;
    if ((await used(orderStream(merchant.merchantCode, req.orderId))) && !(await this.isResend(context)))
      throw duplicateOrder(req.orderId);
    if ((await used(referenceStream(merchant.merchantCode, req.referenceId))) && !(await this.isResend(context)))
      throw duplicateReference(req.referenceId);
    const { method, provider } = methodOf(merchant, caller, req);
    // Named by the command (its X-Request-ID, the idempotency key), as init's: a resend reaches the same transaction.
    const transactionId = nameBasedUuid(`${context.commandId}/transaction`);
    // Its orderId and referenceId claims are the aggregate's (aggregates.ts).
    const { state } = await this.transactions.handle(context, transactionId, (now) => {
      const details: TransactionDetails = {
        ...requestedDetails({ transactionId, merchant, terminalId: caller.terminalId, method, provider, payer, req }),
        // Neither applies to a payment made elsewhere: it was captured (or failed) there.
        cardType: '3D',
        skipHolding: true,
        userPaymentMethodId: null,
        tokenizable: false,
        // Nothing to abandon: the transaction is born ended.
        expiresAt: now,
        createdAt: now,
      };
      return {
        type: 'RecordTransactionSnapshot' as const,
        details,
        status: req.status,
        providerTransactionId: req.providerTransactionId ?? null,
        processedAt: new Date(req.processedAt).toISOString(),
        errorCode: req.errorCode ?? null,
        errorMessage: req.errorMessage ?? null,
        now,
      };
    });
    if (state.status === 'NONE') throw new Error('a snapshot answered without a transaction');
    return state;
  }

  private async isResend(context: CommandContext): Promise<boolean> {
    const key = context.idempotency;
    const record = key && (await findIdempotencyRecord(this.deps.store, key));
    return !!record && record.used.requestHash === key!.requestHash;
  }

  /** X-MiniApp-User-ID is enriched from the identity directory, as init does (unknown: 4302). */
  private async payerOf(miniAppUserId: string | undefined): Promise<TransactionPayer> {
    if (miniAppUserId === undefined) return { kind: 'NONE' };
    const user = await this.deps.users().find(miniAppUserId);
    if (!user) throw paymentsError('USER_NOT_FOUND', `no user ${miniAppUserId}`, { field: 'X-MiniApp-User-ID' });
    return { kind: 'MINIAPP_USER', userId: user.userId, name: user.name };
  }
}

/**
 * The method and provider a snapshot names, as configured on the caller's terminal (so that a later refund has a
 * provider to go to). The amount limits are not applied: the payment happened elsewhere.
 */
function methodOf(merchant: PaymentMerchant, caller: PaymentCaller, req: TransactionSnapshotRequest) {
  const terminal = merchant.terminals.find((t) => t.terminalId === caller.terminalId)!;
  const method = terminal.methods.find((m) => m.code === req.paymentMethodCode);
  if (!method) throw invalid('paymentMethodCode', `the terminal has no payment method ${req.paymentMethodCode}`);
  const provider = providerById(req.providerId);
  if (!provider || !method.providers.some((p) => p.providerCode === provider.code))
    throw invalid('providerId', `provider ${req.providerId} does not serve ${method.code} on this terminal`);
  return { method, provider };
}
