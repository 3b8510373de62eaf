/**
 * The link transaction → payment session (docs/payments-sessions.md, "States"; docs/process-managers.md): a process
 * manager that hears a transaction's outcome and, for a transaction that pays a session, completes the session
 * (COMPLETED) or ends it (CANCELLED by PAYMENT_FAILED when the transaction FAILED, was cancelled or timed out). At
 * least once: the command is named by the event, and the session's decider answers a repeat with nothing.
 */
import {
  paymentsEventDecoder,
  type PaymentSessionCommand,
  type PaymentsEvent,
  type Transaction,
} from '../../domain/payments/index.js';
import { reactionContext } from '../shared/command-context.js';
import type { Reactor } from '../shared/reactor.js';
import type { PaymentSessionService } from './payment-sessions.js';
import type { TransactionService } from './transactions.js';

export const sessionPaymentReactorName = 'payments-session-payments';

function outcomeCommand(t: Transaction, now: string): PaymentSessionCommand {
  const { transactionId } = t;
  if (t.status === 'COMPLETED')
    return {
      type: 'CompleteSessionPayment',
      transactionId,
      payment: {
        methodCode: t.paymentMethod.code,
        providerCode: t.provider.code,
        providerTransactionId: t.providerTransactionId,
        providerInvoiceId: t.providerInvoiceId,
        bankName: t.payment?.bankName ?? null,
        accountHolderName: t.payment?.accountHolderName ?? null,
        cardNo: t.payment?.cardNo ?? null,
      },
      now,
    };
  const [errorCode, errorMessage] =
    t.status === 'FAILED'
      ? [t.errorCode ?? 'FAILED', t.errorMessage ?? 'the payment failed']
      : t.status === 'TIMEOUT'
        ? ['HOLD_TIMEOUT', 'the hold expired; the hub cancelled it']
        : ['TRANSACTION_CANCELLED', 'the payment transaction was cancelled'];
  return { type: 'FailSessionPayment', transactionId, errorCode, errorMessage, now };
}

export function sessionPaymentReactor(deps: {
  transactions: TransactionService;
  sessions: PaymentSessionService;
}): Reactor<PaymentsEvent> {
  return {
    name: sessionPaymentReactorName,
    eventTypes: new Set(['TransactionCompleted', 'TransactionFailed', 'TransactionCancelled']),
    decoder: paymentsEventDecoder,
    async react(event) {
      if (
        event.type !== 'TransactionCompleted' &&
        event.type !== 'TransactionFailed' &&
        event.type !== 'TransactionCancelled'
      )
        return;
      const t = await deps.transactions.load(event.data.transactionId);
      if (!t.paymentSessionId) return;
      await deps.sessions.recordPaymentOutcome(
        reactionContext(event, sessionPaymentReactorName),
        t.paymentSessionId,
        (now) => outcomeCommand(t, now),
      );
    },
  };
}
