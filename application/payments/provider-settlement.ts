/**
 * Outcomes carried out at the provider (docs/payments.md, "Providers"): a process manager (docs/process-managers.md)
 * that hears a confirm (TransactionCompleted via CONFIRM) and a cancel (TransactionCancelled, by the merchant or the
 * hold-timeout sweep), asks the transaction's provider to capture or void, and records the provider's answer on the
 * transaction. At least once: the provider's settle is idempotent, and the record's command is named by the event.
 */
import { paymentsEventDecoder, type PaymentsEvent } from '../../domain/payments/index.js';
import { reactionContext } from '../shared/command-context.js';
import type { Reactor } from '../shared/reactor.js';
import type { PaymentProviderPort } from './provider-port.js';
import type { TransactionService } from './transactions.js';

export const providerSettlementReactorName = 'payments-provider-settlement';

export function providerSettlementReactor(deps: {
  transactions: TransactionService;
  providers: ReadonlyMap<string, PaymentProviderPort>;
}): Reactor<PaymentsEvent> {
  return {
    name: providerSettlementReactorName,
    eventTypes: new Set(['TransactionCompleted', 'TransactionCancelled']),
    decoder: paymentsEventDecoder,
    async react(event) {
      let action: 'CAPTURE' | 'VOID';
      if (event.type === 'TransactionCompleted' && event.data.via === 'CONFIRM') action = 'CAPTURE';
      else if (event.type === 'TransactionCancelled') action = 'VOID';
      else return;
      const t = await deps.transactions.load(event.data.transactionId);
      // A payment no provider took has nothing to void.
      if (t.providerTransactionId === null) return;
      const port = deps.providers.get(t.provider.code);
      if (!port) throw new Error(`no provider port for ${t.provider.code}`);
      const { providerReference } = await port.settle({
        transactionId: t.transactionId,
        providerCode: t.provider.code,
        providerTransactionId: t.providerTransactionId,
        action,
        amount: t.amount,
        currency: t.currency,
      });
      await deps.transactions.recordSettlement(reactionContext(event, providerSettlementReactorName), t.transactionId, {
        action,
        providerReference,
      });
    },
  };
}
