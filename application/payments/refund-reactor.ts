/**
 * Refunds carried out at the provider (docs/payments-refunds.md, "At the provider"): a process manager
 * (docs/process-managers.md) that hears an accepted refund request (RefundRequested), hands it to the transaction's
 * provider through the provider port and records that the provider took it (PROCESSING). The final result comes
 * later by the provider's refund callback (refund-callbacks.ts). At least once: the port's refund is idempotent by
 * refundId and the record's command is named by the event.
 */
import { paymentsEventDecoder, refundOf, type PaymentsEvent } from '../../domain/payments/index.js';
import { reactionContext } from '../shared/command-context.js';
import type { Reactor } from '../shared/reactor.js';
import type { PaymentProviderPort } from './provider-port.js';
import type { RefundService } from './refunds.js';
import type { TransactionService } from './transactions.js';

export const refundReactorName = 'payments-refunds-at-provider';

export function refundReactor(deps: {
  transactions: TransactionService;
  refunds: RefundService;
  providers: ReadonlyMap<string, PaymentProviderPort>;
}): Reactor<PaymentsEvent> {
  return {
    name: refundReactorName,
    eventTypes: new Set(['RefundRequested']),
    decoder: paymentsEventDecoder,
    async react(event) {
      // A refund that returns no money (a session's points or vouchers only) asks no provider: it completed at once.
      if (event.type !== 'RefundRequested' || event.data.amount === 0) return;
      const { transactionId, refundId } = event.data;
      // Already ended (a redelivery after the callback): nothing to hand over again.
      const refund = refundOf(await deps.refunds.ledger(transactionId), refundId);
      if (!refund || refund.status === 'COMPLETED' || refund.status === 'FAILED') return;
      const t = await deps.transactions.load(transactionId);
      const port = deps.providers.get(t.provider.code);
      if (!port) throw new Error(`no provider port for ${t.provider.code}`);
      const { providerRefundId } = await port.refund({
        refundId,
        transactionId,
        providerCode: t.provider.code,
        providerTransactionId: t.providerTransactionId,
        amount: event.data.amount,
        currency: event.data.currency,
        reason: event.data.reason,
      });
      await deps.refunds.providerAccepted(
        reactionContext(event, refundReactorName),
        transactionId,
        refundId,
        providerRefundId,
      );
    },
  };
}
