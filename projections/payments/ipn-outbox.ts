/**
 * The IPN outbox projector (docs/ipn.md, "How it works"): from the transaction events it writes one notification row
 * per notifying event into payments_ipn_notifications, in the same transaction as its checkpoint, idempotent on the
 * event id (a redelivery or a rebuild inserts nothing twice). The payload is built here, once, from what the earlier
 * events of the transaction said (kept in payments_ipn_facts). Run by the ipn role's own runner, not the projector
 * role's: the dispatcher that delivers the rows (application/payments/ipn-dispatcher.ts) runs beside it.
 *
 * The outbox table itself is not a read model (it holds delivery state) and is created by a migration; a rebuild
 * refills only the facts. Events recorded before the outbox existed (payments_ipn_origin) notify nobody.
 */
import type { Knex } from 'knex';
import {
  evolveIpnFacts,
  ipnContentFor,
  ipnEventTypes,
  ipnFactsOf,
  ipnFactsOfSnapshot,
  paymentsEventDecoder,
  type IpnSourceEvent,
  type IpnTransactionFacts,
  type PaymentsEvent,
} from '../../domain/payments/index.js';
import { physical, type PhysicalNames, type Projected, type Projector } from '../shared/projector.js';
import { transactionLifecycleEvents } from './transactions.js';

export const paymentsIpnFactsTable = 'payments_ipn_facts';
/** Created by migration 0006 (infrastructure/shared/migrations), with the attempts table and the origin. */
export const paymentsIpnNotificationsTable = 'payments_ipn_notifications';
export const paymentsIpnAttemptsTable = 'payments_ipn_attempts';
const originTable = 'payments_ipn_origin';

interface FactsRow {
  transaction_id: string;
  facts: IpnTransactionFacts;
  last_position: string;
}

export const paymentsIpnOutboxProjector: Projector<PaymentsEvent> = {
  name: 'payments-ipn-outbox',
  version: 1,
  // A transaction's events, and its refunds' results (docs/payments-refunds.md, "Notifications").
  eventTypes: new Set([...transactionLifecycleEvents, 'RefundCompleted', 'RefundFailed']),
  decoder: paymentsEventDecoder,
  tables: [
    {
      name: paymentsIpnFactsTable,
      comment:
        'What the IPN outbox projector keeps of each transaction to build its notifications: order ids, amount, method, provider ids, the masked instrument.',
      columns: {
        transaction_id: 'Transaction id (UUID).',
        facts:
          'The facts as JSON: orderId, referenceId, amount, currency, methodCode, providerCode, orderInfo, providerTransactionId, providerInvoiceId, payment (bankName, accountHolderName, masked cardNo).',
        last_position: 'Global position of the last event applied to this row.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    await knex.schema.createTable(physical(names, paymentsIpnFactsTable), (b) => {
      b.uuid('transaction_id').primary();
      b.jsonb('facts').notNullable();
      b.text('last_position').notNullable();
    });
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<PaymentsEvent>[], names: PhysicalNames) {
    const table = physical(names, paymentsIpnFactsTable);
    const txEvents = events as readonly Projected<IpnSourceEvent>[];
    const ids = [...new Set(txEvents.map((e) => e.data.transactionId))];
    const rows = await trx<FactsRow>(table).whereIn('transaction_id', ids).select();
    const known = new Map(rows.map((r) => [r.transaction_id, { facts: r.facts, position: r.last_position }]));
    const changed = new Set<string>();
    const origin = await notifyFrom(trx);
    const notifications: Record<string, unknown>[] = [];
    for (const event of txEvents) {
      const id = event.data.transactionId;
      const current = known.get(id);
      if (current && event.position <= current.position) continue; // applied before
      if (event.type === 'TransactionInitiated' || event.type === 'TransactionSnapshotRecorded') {
        const facts = event.type === 'TransactionInitiated' ? ipnFactsOf(event.data) : ipnFactsOfSnapshot(event.data);
        if (!current) known.set(id, { facts, position: event.position });
        changed.add(id);
        continue;
      }
      if (!current) continue; // its initiation was never seen (a stream older than the projector cannot be: ignore)
      if (ipnEventTypes.has(event.type) && Date.parse(event.recordedAt) >= origin) {
        const content = ipnContentFor(current.facts, event);
        if (content)
          notifications.push({
            notification_id: event.id,
            event_type: event.type,
            position: event.position,
            merchant_code: current.facts.merchantCode,
            transaction_id: id,
            order_id: content.orderId,
            transaction_type: content.transactionType,
            ipn_status: content.status,
            processed_at: content.processedAt,
            payload: JSON.stringify(content),
          });
      }
      known.set(id, { facts: evolveIpnFacts(current.facts, event), position: event.position });
      changed.add(id);
    }
    if (changed.size > 0)
      await trx(table)
        .insert(
          [...changed].map((id) => {
            const k = known.get(id)!;
            return { transaction_id: id, facts: JSON.stringify(k.facts), last_position: k.position };
          }),
        )
        .onConflict('transaction_id')
        .merge();
    // Due at once; the projector's clock is the database's, so the row is due by the dispatcher's next poll.
    for (let i = 0; i < notifications.length; i += 500)
      await trx(paymentsIpnNotificationsTable)
        .insert(notifications.slice(i, i + 500).map((n) => ({ ...n, next_attempt_at: trx.fn.now() })))
        .onConflict('notification_id')
        .ignore();
  },
};

/** Unix ms before which recorded events notify nobody (the outbox's creation). */
async function notifyFrom(trx: Knex.Transaction): Promise<number> {
  const row = (await trx(originTable).first('notify_from')) as { notify_from: Date } | undefined;
  return row ? row.notify_from.getTime() : 0;
}
