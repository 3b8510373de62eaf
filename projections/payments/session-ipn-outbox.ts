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
import { physical, type PhysicalNames, type Projected, type Projector } from '../shared/projector.js';
import { paymentsIpnNotificationsTable } from './ipn-outbox.js';

export const paymentSessionIpnFactsTable = 'payments_session_ipn_facts';
const originTable = 'payments_ipn_origin';

interface FactsRow {
  payment_session_id: string;
  session: PaymentSessionState;
  last_position: string;
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
  tables: [
    {
      name: paymentSessionIpnFactsTable,
      comment:
        'What the session IPN outbox projector keeps of each payment session to build its final notification: the session as its events left it.',
      columns: {
        payment_session_id: 'Payment session id (UUID).',
        session:
          'The session as JSON: order ids, amounts, currency, status, breakdown lines, its transaction and what the transaction told of the payment (method, provider, masked instrument).',
        last_position: 'Global position of the last event applied to this row.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    await knex.schema.createTable(physical(names, paymentSessionIpnFactsTable), (b) => {
      b.uuid('payment_session_id').primary();
      b.jsonb('session').notNullable();
      b.text('last_position').notNullable();
    });
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<PaymentsEvent>[], names: PhysicalNames) {
    const table = physical(names, paymentSessionIpnFactsTable);
    const sessionEvents = events as readonly Projected<PaymentSessionEvent>[];
    const ids = [...new Set(sessionEvents.map((e) => e.data.paymentSessionId))];
    const rows = await trx<FactsRow>(table).whereIn('payment_session_id', ids).select();
    const known = new Map(rows.map((r) => [r.payment_session_id, { session: r.session, position: r.last_position }]));
    const changed = new Set<string>();
    const origin = await notifyFrom(trx);
    const notifications: Record<string, unknown>[] = [];
    for (const event of sessionEvents) {
      const id = event.data.paymentSessionId;
      const current = known.get(id) ?? { session: paymentSessionDecider.initialState, position: '' };
      if (current.position !== '' && event.position <= current.position) continue; // applied before
      const session = paymentSessionDecider.evolve(current.session, event);
      if (session.status !== 'NONE' && sessionIpnEventTypes.has(event.type) && Date.parse(event.recordedAt) >= origin) {
        const content = sessionIpnContentFor(session, event);
        if (content)
          notifications.push({
            notification_id: event.id,
            event_type: event.type,
            position: event.position,
            merchant_code: session.merchantCode,
            transaction_id: content.transactionId,
            order_id: content.orderId,
            transaction_type: content.transactionType,
            ipn_status: content.status,
            processed_at: content.processedAt,
            payload: JSON.stringify(content),
          });
      }
      known.set(id, { session, position: event.position });
      changed.add(id);
    }
    if (changed.size > 0)
      await trx(table)
        .insert(
          [...changed].map((id) => {
            const k = known.get(id)!;
            return { payment_session_id: id, session: JSON.stringify(k.session), last_position: k.position };
          }),
        )
        .onConflict('payment_session_id')
        .merge();
    if (notifications.length > 0)
      await trx(paymentsIpnNotificationsTable)
        .insert(notifications.map((n) => ({ ...n, next_attempt_at: trx.fn.now() })))
        .onConflict('notification_id')
        .ignore();
  },
};

/** Unix ms before which recorded events notify nobody (the outbox's creation), as for transactions. */
async function notifyFrom(trx: Knex.Transaction): Promise<number> {
  const row = (await trx(originTable).first('notify_from')) as { notify_from: Date } | undefined;
  return row ? row.notify_from.getTime() : 0;
}
