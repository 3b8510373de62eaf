/**
 * A transaction snapshot (POST transactions/snapshot; docs/payments-refunds.md, "Transaction snapshot"): an external
 * system reports a payment result, which the hub records as a new transaction in its end state, no provider called.
 * Part of the transaction decider (transaction.ts): only a stream that does not exist yet takes one.
 */
import { paymentsError } from './errors.js';
import type { TransactionEvent } from './events.js';
import type { TransactionState } from './transaction.js';
import type { TransactionDetails } from './transaction-details.js';

export const snapshotStatuses = ['COMPLETED', 'FAILED'] as const;
export type SnapshotStatus = (typeof snapshotStatuses)[number];

export interface RecordTransactionSnapshot {
  type: 'RecordTransactionSnapshot';
  details: TransactionDetails;
  /** As sent (it is signed as sent): only COMPLETED or FAILED are recorded (else 4016). */
  status: string;
  providerTransactionId: string | null;
  /** The external system's processedAt as an ISO 8601 instant. */
  processedAt: string;
  errorCode: string | null;
  errorMessage: string | null;
  now: string;
}

/** The seed's snapshot rules on status (4016) and error data (4017), shared by transaction and refund snapshots. */
export function snapshotOutcome(
  status: string,
  errorCode: string | null,
  errorMessage: string | null,
): { status: SnapshotStatus; errorCode: string | null; errorMessage: string | null } {
  if (status !== 'COMPLETED' && status !== 'FAILED')
    throw paymentsError('INVALID_SNAPSHOT_STATUS', `status must be COMPLETED or FAILED, not ${status}`, {
      field: 'status',
    });
  if (status === 'COMPLETED') return { status, errorCode: null, errorMessage: null };
  if (errorCode === null || errorMessage === null)
    throw paymentsError('MISSING_ERROR_INFORMATION', 'a FAILED snapshot needs errorCode and errorMessage', {
      field: errorCode === null ? 'errorCode' : 'errorMessage',
    });
  return { status, errorCode, errorMessage };
}

export function decideTransactionSnapshot(
  command: RecordTransactionSnapshot,
  state: TransactionState,
): TransactionEvent[] {
  if (state.status !== 'NONE')
    throw paymentsError('TRANSACTION_EXISTS', `transaction ${command.details.transactionId} exists`);
  const outcome = snapshotOutcome(command.status, command.errorCode, command.errorMessage);
  return [
    {
      type: 'TransactionSnapshotRecorded',
      data: {
        ...command.details,
        ...outcome,
        providerTransactionId: command.providerTransactionId,
        processedAt: command.processedAt,
      },
    },
  ];
}
