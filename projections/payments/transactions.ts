/**
 * Payment transactions as operators and analysts list them (docs/payments.md, "Read models"): one row per
 * transaction with its current status. Eventually consistent with the event store (projector lag at /metrics); merchant
 * backends' lookups read the aggregate instead, never this table.
 */
import type { Knex } from 'knex';
import { paymentsEventDecoder, type PaymentsEvent, type TransactionEvent } from '../../domain/payments/index.js';
import { physical, type PhysicalNames, type Projected, type Projector } from '../shared/projector.js';

export const paymentsTransactionsTable = 'payments_transactions';

/** The transaction events that change what a transaction is (all but the provider's settlement record). */
export const transactionLifecycleEvents: ReadonlySet<string> = new Set<TransactionEvent['type']>([
  'TransactionInitiated',
  'TransactionProcessing',
  'TransactionHeld',
  'TransactionCompleted',
  'TransactionFailed',
  'TransactionCancelled',
  'TransactionSnapshotRecorded',
]);

export const paymentsTransactionsProjector: Projector<PaymentsEvent> = {
  name: 'payments-transactions',
  version: 1,
  eventTypes: transactionLifecycleEvents,
  decoder: paymentsEventDecoder,
  tables: [
    {
      name: paymentsTransactionsTable,
      comment:
        "The payment hub's transactions, one row per transaction with its current status; eventually consistent with the event store (lag at /metrics).",
      columns: {
        transaction_id: 'Transaction id (UUID; the stream transaction-<id>).',
        merchant_code: 'Merchant (mini-app) code.',
        terminal_id: 'Terminal (receiving account) whose key created it.',
        order_id: "The merchant's orderId (used once per merchant).",
        reference_id: "The merchant's referenceId.",
        amount: 'Amount in minor units (integer part of what init sent).',
        currency: 'ISO 4217 currency.',
        status: 'PENDING, PROCESSING, HOLDING, COMPLETED, FAILED, CANCELLED or TIMEOUT.',
        payment_method_code: 'Payment method code, e.g. WALLET.',
        provider_code: 'Provider code, e.g. SANDBOX_WALLET.',
        provider_transaction_id: "The provider's transaction id; null until a provider took it.",
        skip_holding: 'Whether it captures at once (true) or holds until confirm or cancel (false).',
        error_code: 'Why it failed (a provider code, USER_CANCELLED, ABANDONED); null otherwise.',
        ended_by: 'Who ended it before capture: MERCHANT or HOLD_TIMEOUT; null otherwise.',
        created_at: 'When it was initiated.',
        updated_at: 'When its status last changed.',
        last_position: 'Global position of the last event applied to this row.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    const t = physical(names, paymentsTransactionsTable);
    await knex.schema.createTable(t, (b) => {
      b.uuid('transaction_id').primary();
      b.text('merchant_code').notNullable();
      b.text('terminal_id').notNullable();
      b.text('order_id').notNullable();
      b.text('reference_id').notNullable();
      b.bigInteger('amount').notNullable();
      b.text('currency').notNullable();
      b.text('status').notNullable();
      b.text('payment_method_code').notNullable();
      b.text('provider_code').notNullable();
      b.text('provider_transaction_id');
      b.boolean('skip_holding').notNullable();
      b.text('error_code');
      b.text('ended_by');
      b.timestamp('created_at', { useTz: true }).notNullable();
      b.timestamp('updated_at', { useTz: true }).notNullable();
      b.text('last_position').notNullable();
      b.index(['merchant_code', 'created_at'], `${t}_merchant_created`);
    });
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<PaymentsEvent>[], names: PhysicalNames) {
    for (const event of events) await applyOne(trx, physical(names, paymentsTransactionsTable), event);
  },
};

/** One event; a row keeps the position of the last event it applied, and an event at or before it changes nothing. */
async function applyOne(trx: Knex.Transaction, t: string, e: Projected<PaymentsEvent>): Promise<void> {
  const position = e.position;
  const advance = (transactionId: string, changes: Record<string, string | boolean | null>) =>
    trx(t)
      .where({ transaction_id: transactionId })
      .whereRaw('last_position COLLATE "C" < ?', [position])
      .update({ ...changes, last_position: position });
  switch (e.type) {
    case 'TransactionInitiated': {
      const d = e.data;
      await trx(t)
        .insert({
          transaction_id: d.transactionId,
          merchant_code: d.merchantCode,
          terminal_id: d.terminalId,
          order_id: d.orderId,
          reference_id: d.referenceId,
          amount: d.amount,
          currency: d.currency,
          status: 'PENDING',
          payment_method_code: d.paymentMethod.code,
          provider_code: d.provider.code,
          provider_transaction_id: null,
          skip_holding: d.skipHolding,
          created_at: d.createdAt,
          updated_at: d.createdAt,
          last_position: position,
        })
        .onConflict('transaction_id')
        .ignore();
      return;
    }
    case 'TransactionProcessing':
      await advance(e.data.transactionId, {
        status: 'PROCESSING',
        provider_transaction_id: e.data.providerTransactionId,
        updated_at: e.data.processingAt,
      });
      return;
    case 'TransactionHeld':
      await advance(e.data.transactionId, { status: 'HOLDING', updated_at: e.data.heldAt });
      return;
    case 'TransactionCompleted':
      await advance(e.data.transactionId, { status: 'COMPLETED', updated_at: e.data.completedAt });
      return;
    case 'TransactionFailed':
      await advance(e.data.transactionId, {
        status: 'FAILED',
        error_code: e.data.errorCode,
        updated_at: e.data.failedAt,
      });
      return;
    case 'TransactionCancelled':
      await advance(e.data.transactionId, {
        status: e.data.status,
        ended_by: e.data.by,
        updated_at: e.data.cancelledAt,
      });
      return;
    case 'TransactionSnapshotRecorded': {
      // A result reported by an external system: the row starts in its end state (refunds are not projected here).
      const d = e.data;
      await trx(t)
        .insert({
          transaction_id: d.transactionId,
          merchant_code: d.merchantCode,
          terminal_id: d.terminalId,
          order_id: d.orderId,
          reference_id: d.referenceId,
          amount: d.amount,
          currency: d.currency,
          status: d.status,
          payment_method_code: d.paymentMethod.code,
          provider_code: d.provider.code,
          provider_transaction_id: d.providerTransactionId,
          skip_holding: d.skipHolding,
          error_code: d.errorCode,
          created_at: d.createdAt,
          updated_at: d.createdAt,
          last_position: position,
        })
        .onConflict('transaction_id')
        .ignore();
      return;
    }
    default:
      return;
  }
}
