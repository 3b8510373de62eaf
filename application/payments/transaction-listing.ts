/**
 * Operators' list of a merchant's transactions (docs/payments.md, "Read models"): read from the payments_transactions
 * projection, eventually consistent (a transaction shows within the projector's lag). A port: the adapter is
 * infrastructure/payments/transaction-listing.ts.
 */
import type { TransactionStatus } from '../../domain/payments/index.js';

export interface TransactionSummary {
  transactionId: string;
  merchantCode: string;
  terminalId: string;
  orderId: string;
  referenceId: string;
  amount: number;
  currency: string;
  status: TransactionStatus;
  paymentMethodCode: string;
  providerCode: string;
  providerTransactionId: string | null;
  skipHolding: boolean;
  errorCode: string | null;
  endedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TransactionListFilter {
  status?: TransactionStatus;
  terminalId?: string;
  /** Newest first; at most this many. */
  limit: number;
}

export interface TransactionListing {
  list(merchantCode: string, filter: TransactionListFilter): Promise<TransactionSummary[]>;
}
