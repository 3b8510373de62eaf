/**
 * The operators' transaction list (application/payments/transaction-listing.ts) over the payments_transactions read
 * model (projections/payments/transactions.ts), newest first. docs/payments.md, "Read models".
 */
import type { Knex } from 'knex';
import type {
  TransactionListFilter,
  TransactionListing,
  TransactionStatus,
  TransactionSummary,
} from '../../application/payments/index.js';
import { paymentsTransactionsTable } from '../../projections/payments/index.js';

interface Row {
  transaction_id: string;
  merchant_code: string;
  terminal_id: string;
  order_id: string;
  reference_id: string;
  amount: string;
  currency: string;
  status: TransactionStatus;
  payment_method_code: string;
  provider_code: string;
  provider_transaction_id: string | null;
  skip_holding: boolean;
  error_code: string | null;
  ended_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export class KnexTransactionListing implements TransactionListing {
  constructor(private readonly knex: Knex) {}

  async list(merchantCode: string, filter: TransactionListFilter): Promise<TransactionSummary[]> {
    const query = this.knex<Row>(paymentsTransactionsTable).where({ merchant_code: merchantCode });
    if (filter.status) void query.where({ status: filter.status });
    if (filter.terminalId) void query.where({ terminal_id: filter.terminalId });
    const rows = await query
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'transaction_id', order: 'desc' },
      ])
      .limit(filter.limit);
    return rows.map((r) => ({
      transactionId: r.transaction_id,
      merchantCode: r.merchant_code,
      terminalId: r.terminal_id,
      orderId: r.order_id,
      referenceId: r.reference_id,
      amount: Number(r.amount),
      currency: r.currency,
      status: r.status,
      paymentMethodCode: r.payment_method_code,
      providerCode: r.provider_code,
      providerTransactionId: r.provider_transaction_id,
      skipHolding: r.skip_holding,
      errorCode: r.error_code,
      endedBy: r.ended_by,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    }));
  }
}
