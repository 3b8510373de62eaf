/**
 * The payment hub's stored timers (docs/process-managers.md, "Timers"; docs/payments.md, "Timers"): per transaction,
 * its abandonment at `expiresAt` from init until a hold or an outcome, and its hold expiry from the hold until an
 * outcome. Rows of `payments_timers` follow the log, so a restart or a kill -9 forgets none.
 */
import { paymentsEventDecoder, type PaymentsEvent } from '../../domain/payments/index.js';
import { timerProjector } from '../shared/timers.js';

export const paymentsTimersTable = 'payments_timers';
export const holdExpiryTimer = 'payments-hold-expiry';
export const abandonmentTimer = 'payments-abandonment';

const abandonId = (transactionId: string) => `${transactionId}:abandon`;
const holdId = (transactionId: string) => `${transactionId}:hold-expiry`;

export const paymentsTimersProjector = timerProjector<PaymentsEvent>({
  name: 'payments-timers',
  table: paymentsTimersTable,
  version: 1,
  eventTypes: new Set([
    'TransactionInitiated',
    'TransactionHeld',
    'TransactionCompleted',
    'TransactionFailed',
    'TransactionCancelled',
  ]),
  decoder: paymentsEventDecoder,
  comment:
    "The payment hub's pending work per transaction: its abandonment (FAILED when no result by expiresAt) and the end of its hold (cancelled by the sweep).",
  timersFor: (e) => {
    switch (e.type) {
      case 'TransactionInitiated':
        return {
          schedule: [
            {
              id: abandonId(e.data.transactionId),
              kind: abandonmentTimer,
              dueAt: e.data.expiresAt,
              payload: { transactionId: e.data.transactionId },
            },
          ],
        };
      case 'TransactionHeld':
        return {
          cancel: [abandonId(e.data.transactionId)],
          schedule: [
            {
              id: holdId(e.data.transactionId),
              kind: holdExpiryTimer,
              dueAt: e.data.holdExpiresAt,
              payload: { transactionId: e.data.transactionId },
            },
          ],
        };
      case 'TransactionCompleted':
      case 'TransactionFailed':
      case 'TransactionCancelled':
        return { cancel: [abandonId(e.data.transactionId), holdId(e.data.transactionId)] };
      default:
        return {};
    }
  },
});
