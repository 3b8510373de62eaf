/**
 * Providers' refund results reaching the hub (docs/payments-refunds.md, "At the provider"): a refund callback signed
 * with the provider's key over its raw bytes (verified as payment callbacks are, provider-callbacks.ts), then recorded
 * on the transaction's refund ledger as COMPLETED or FAILED. The same result twice records nothing; a result that
 * contradicts the one recorded is refused (TRANSACTION_NOT_PROCESSABLE).
 */
import { paymentsError, refundOf, type Refund } from '../../domain/payments/index.js';
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/event-ids.js';
import type { RefundService } from './refunds.js';
import type { ProviderRefundCallback } from './sandbox-refunds.js';
import type { TransactionService } from './transactions.js';

export class RefundCallbacks {
  constructor(private readonly deps: { refunds: RefundService; transactions: TransactionService }) {}

  async apply(providerCode: string, callback: ProviderRefundCallback): Promise<Refund> {
    const t = await this.deps.transactions.load(callback.transactionId);
    const refund = refundOf(await this.deps.refunds.ledger(t.transactionId), callback.refundId);
    if (t.provider.code !== providerCode || !refund || refund.origin !== 'REQUEST')
      throw paymentsError('TRANSACTION_NOT_FOUND', 'no refund of this provider has this refundId');
    const context: CommandContext = {
      commandId: nameBasedUuid(`provider-refund-callback/${providerCode}/${callback.callbackId}`),
      correlationId: callback.transactionId,
      actor: { process: `provider:${providerCode}` },
    };
    return this.deps.refunds.providerResult(context, t.transactionId, refund.refundId, {
      result: callback.result === 'REFUNDED' ? 'COMPLETED' : 'FAILED',
      providerRefundId: callback.providerRefundId,
      errorCode: callback.errorCode,
      errorMessage: callback.errorMessage,
    });
  }
}
