/**
 * The payment sessions' stored timers (docs/payments-sessions.md, "States"; docs/process-managers.md, "Timers"): a
 * session's expiry at expiresAt, from its creation until it leaves PENDING. Its own table (and timer job), so the
 * transactions' schedule (transaction-timers.ts) stays as it is. Rows follow the log: a restart forgets none.
 */
import { paymentsEventDecoder, type PaymentsEvent } from '../../domain/payments/index.js';
import { timerProjector } from '../shared/timers.js';

export const paymentSessionTimersTable = 'payments_session_timers';
export const sessionExpiryTimer = 'payments-session-expiry';

const expiryId = (paymentSessionId: string) => `${paymentSessionId}:expiry`;

export const paymentSessionTimersProjector = timerProjector<PaymentsEvent>({
  name: 'payments-session-timers',
  table: paymentSessionTimersTable,
  version: 1,
  eventTypes: new Set([
    'PaymentSessionCreated',
    'PaymentSessionProcessing',
    'PaymentSessionCompleted',
    'PaymentSessionCancelled',
    'PaymentSessionExpired',
  ]),
  decoder: paymentsEventDecoder,
  comment: "The payment hub's pending work per payment session: its expiry (EXPIRED when still PENDING at expiresAt).",
  timersFor: (e) => {
    switch (e.type) {
      case 'PaymentSessionCreated':
        return {
          schedule: [
            {
              id: expiryId(e.data.paymentSessionId),
              kind: sessionExpiryTimer,
              dueAt: e.data.expiresAt,
              payload: { paymentSessionId: e.data.paymentSessionId },
            },
          ],
        };
      case 'PaymentSessionProcessing':
      case 'PaymentSessionCompleted':
      case 'PaymentSessionCancelled':
      case 'PaymentSessionExpired':
        return { cancel: [expiryId(e.data.paymentSessionId)] };
      default:
        return {};
    }
  },
});
