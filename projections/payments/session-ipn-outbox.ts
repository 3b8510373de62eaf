/**
 * The payment sessions' IPN outbox projector (docs/payments-sessions.md, "The final IPN"; docs/ipn.md): one final
 * notification per session, written into payments_ipn_notifications when the session ends (COMPLETED, CANCELLED,
 * EXPIRED), in the same transaction as its checkpoint, idempotent on the event id. It keeps each session's state
 * (folded with the session's own evolve) in payments_session_ipn_facts to build the payload with its breakdown. Run
 * by the ipn role beside the transactions' outbox (ipn-outbox.ts).
 */
import type { Knex } from 'knex';
import {
  paymentSessionDecider,
  paymentsEventDecoder,
  sessionIpnContentFor,
  sessionIpnEventTypes,
  type PaymentSessionEvent,
  type PaymentSessionState,
  type PaymentsEvent,
} from '../../domain/payments/index.js';
import { keyedState, type KeyedFold } from '../shared/keyed-state.js';
import type { PhysicalNames, Projected, Projector } from '../shared/projector.js';
import { insertNotifications, notificationRow, notifyFrom } from './ipn-outbox-rows.js';

export const paymentSessionIpnFactsTable = 'payments_session_ipn_facts';

const sessions = keyedState<PaymentSessionState>({
  name: paymentSessionIpnFactsTable,
  comment:
    'What the session IPN outbox projector keeps of each payment session to build its final notification: the session as its events left it.',
  key: { column: 'payment_session_id', type: 'uuid', comment: 'Payment session id (UUID).' },
  state: {
    column: 'session',
    comment:
      'The session as JSON: order ids, amounts, currency, status, breakdown lines, its transaction and what the transaction told of the payment (method, provider, masked instrument).',
  },
});

/**
 * A session folded with its own evolve; its end emits the final notification's row, unless recorded before `origin`
 * (when the outbox began: notifyFrom, as for transactions).
 */
function sessionFold(origin: number): KeyedFold<PaymentSessionEvent, PaymentSessionState, Record<string, unknown>> {
  return {
    keyOf: (event) => event.data.paymentSessionId,
    step(current, event) {
      const session = paymentSessionDecider.evolve(current ?? paymentSessionDecider.initialState, event);
      const notifies =
        session.status !== 'NONE' && sessionIpnEventTypes.has(event.type) && Date.parse(event.recordedAt) >= origin;
      if (!notifies) return { state: session };
      const content = sessionIpnContentFor(session, event);
      return {
        state: session,
        emit: content ? notificationRow(event, session.merchantCode, content.transactionId, content) : undefined,
      };
    },
  };
}

export const paymentSessionIpnOutboxProjector: Projector<PaymentsEvent> = {
  name: 'payments-session-ipn-outbox',
  version: 1,
  eventTypes: new Set([
    'PaymentSessionCreated',
    'PaymentSessionProcessing',
    'PaymentSessionCompleted',
    'PaymentSessionCancelled',
    'PaymentSessionExpired',
  ]),
  decoder: paymentsEventDecoder,
  tables: [sessions.table],

  async createTables(knex: Knex, names: PhysicalNames) {
    await sessions.createTable(knex, names);
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<PaymentsEvent>[], names: PhysicalNames) {
    const fold = sessionFold(await notifyFrom(trx));
    const notifications = await sessions.apply(trx, events as readonly Projected<PaymentSessionEvent>[], names, fold);
    await insertNotifications(trx, notifications);
  },
};
