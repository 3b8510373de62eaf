/**
 * What a payment session's stored timer does when due (docs/payments-sessions.md, "States"): a session still PENDING
 * at expiresAt is EXPIRED. The command is named by the timer and ignored when the session moved on, so a late or
 * repeated firing changes nothing.
 */
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/event-ids.js';
import type { DueTimer, TimerHandler } from '../shared/timers.js';
import type { PaymentSessionService } from './payment-sessions.js';

const timerContext = (timer: DueTimer): CommandContext => ({
  commandId: nameBasedUuid(`timer/${timer.id}`),
  correlationId: String(timer.payload.paymentSessionId),
  actor: { process: `timer:${timer.kind}` },
});

export function paymentSessionTimerHandlers(deps: { sessions: PaymentSessionService; kind: string }): TimerHandler[] {
  return [
    {
      kind: deps.kind,
      fire: async (timer) => {
        await deps.sessions.expire(timerContext(timer), String(timer.payload.paymentSessionId));
      },
    },
  ];
}
