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
import { keyedState, type KeyedFold } from '../shared/keyed-state.js';
import type { PhysicalNames, Projected, Projector } from '../shared/projector.js';
import { insertNotifications, notificationRow, notifyFrom } from './ipn-outbox-rows.js';
import { transactionLifecycleEvents } from './transactions.js';

export { paymentsIpnAttemptsTable, paymentsIpnNotificationsTable } from './ipn-outbox-rows.js';
export const paymentsIpnFactsTable = 'payments_ipn_facts';

const facts = keyedState<IpnTransactionFacts>({
  name: paymentsIpnFactsTable,
  comment:
    'What the IPN outbox projector keeps of each transaction to build its notifications: order ids, amount, method, provider ids, the masked instrument.',
  key: { column: 'transaction_id', type: 'uuid', comment: 'Transaction id (UUID).' },
  state: {
    column: 'facts',
    comment:
      'The facts as JSON: orderId, referenceId, amount, currency, methodCode, providerCode, orderInfo, providerTransactionId, providerInvoiceId, payment (bankName, accountHolderName, masked cardNo).',
  },
});

/**
 * A transaction's facts, folded from its events; a notifying event emits its notification's row, unless recorded
 * before `origin` (when the outbox began: notifyFrom).
 */
function transactionFold(origin: number): KeyedFold<IpnSourceEvent, IpnTransactionFacts, Record<string, unknown>> {
  return {
    keyOf: (event) => event.data.transactionId,
    step(current, event) {
      if (event.type === 'TransactionInitiated' || event.type === 'TransactionSnapshotRecorded') {
        if (current) return undefined; // a transaction begins once
        return {
          state: event.type === 'TransactionInitiated' ? ipnFactsOf(event.data) : ipnFactsOfSnapshot(event.data),
        };
      }
      if (!current) return undefined; // its initiation was never seen (a stream older than the projector cannot be: ignore)
      const content =
        ipnEventTypes.has(event.type) && Date.parse(event.recordedAt) >= origin ? ipnContentFor(current, event) : null;
      return {
        state: evolveIpnFacts(current, event),
        emit: content ? notificationRow(event, current.merchantCode, event.data.transactionId, content) : undefined,
      };
    },
  };
}

export const paymentsIpnOutboxProjector: Projector<PaymentsEvent> = {
  name: 'payments-ipn-outbox',
  version: 1,
  // A transaction's events, and its refunds' results (docs/payments-refunds.md, "Notifications").
  eventTypes: new Set([...transactionLifecycleEvents, 'RefundCompleted', 'RefundFailed']),
  decoder: paymentsEventDecoder,
  tables: [facts.table],

  async createTables(knex: Knex, names: PhysicalNames) {
    await facts.createTable(knex, names);
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<PaymentsEvent>[], names: PhysicalNames) {
    const fold = transactionFold(await notifyFrom(trx));
    const notifications = await facts.apply(trx, events as readonly Projected<IpnSourceEvent>[], names, fold);
    await insertNotifications(trx, notifications);
  },
};
