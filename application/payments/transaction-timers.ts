/**
 * What the hub's stored timers do when due (docs/payments.md, "Timers"): a hold that reached its end is cancelled
 * (CANCELLED or TIMEOUT, as configured), a payment with no result by its expiresAt is FAILED. Each sends a command
 * named by the timer, whose decider ignores it when the transaction moved on, so a repeat changes nothing.
 */
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/event-ids.js';
import type { DueTimer, TimerHandler } from '../shared/timers.js';
import type { TransactionService } from './transactions.js';

const timerContext = (timer: DueTimer): CommandContext => ({
  commandId: nameBasedUuid(`timer/${timer.id}`),
  correlationId: String(timer.payload.transactionId),
  actor: { process: `timer:${timer.kind}` },
});

export function paymentsTimerHandlers(deps: {
  transactions: TransactionService;
  holdExpiryStatus: 'CANCELLED' | 'TIMEOUT';
  kinds: { holdExpiry: string; abandonment: string };
}): TimerHandler[] {
  return [
    {
      kind: deps.kinds.holdExpiry,
      fire: async (timer) => {
        await deps.transactions.expireHold(
          timerContext(timer),
          String(timer.payload.transactionId),
          deps.holdExpiryStatus,
        );
      },
    },
    {
      kind: deps.kinds.abandonment,
      fire: async (timer) => {
        await deps.transactions.abandon(timerContext(timer), String(timer.payload.transactionId));
      },
    },
  ];
}
