/**
 * Saving a card the payer chose to save, at least once (docs/payments.md, "Saved payment methods"): the provider's
 * callback saves it right after the authorization, and this process manager (docs/process-managers.md) hears the
 * authorization events that carry a card and saves it again, so a crash between the two appends loses no saved card.
 * Both saves are the one command named by the transaction (saved-methods.ts): whichever comes second records nothing.
 */
import { paymentsEventDecoder, type PaymentsEvent } from '../../domain/payments/index.js';
import type { Reactor } from '../shared/reactor.js';
import type { SavedPaymentMethods } from './saved-methods.js';
import type { TransactionService } from './transactions.js';

export const savedCardReactorName = 'payments-saved-cards';

export function savedCardReactor(deps: {
  transactions: TransactionService;
  savedMethods: SavedPaymentMethods;
}): Reactor<PaymentsEvent> {
  return {
    name: savedCardReactorName,
    eventTypes: new Set(['TransactionHeld', 'TransactionCompleted']),
    decoder: paymentsEventDecoder,
    async react(event) {
      if (event.type !== 'TransactionHeld' && event.type !== 'TransactionCompleted') return;
      if (!event.data.savedCard) return;
      await deps.savedMethods.saveFromPayment(await deps.transactions.load(event.data.transactionId));
    },
  };
}
