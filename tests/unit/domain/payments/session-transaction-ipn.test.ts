import { expect } from 'chai';
import { ipnContentFor, type IpnTransactionFacts, type TransactionEvent } from '../../../../domain/payments/index.js';

/**
 * One final IPN per payment session (docs/payments-sessions.md, "The final IPN"): a transaction that pays a session
 * notifies only its HOLDING itself; its outcomes reach the partner as the session's notification.
 */
const transactionId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const at = '2026-03-01T10:01:00.123Z';
const facts = (paymentSessionId: string | null): IpnTransactionFacts => ({
  transactionId,
  merchantCode: 'm1',
  orderId: 'ORD-1',
  referenceId: 'REF-1',
  amount: 100_000,
  currency: 'VND',
  methodCode: 'WALLET',
  providerCode: 'SANDBOX_WALLET',
  orderInfo: null,
  providerTransactionId: 'SBX-1',
  providerInvoiceId: null,
  payment: null,
  paymentSessionId,
});
const payment = { bankName: null, accountHolderName: 'A', cardNo: null };
const events: TransactionEvent[] = [
  { type: 'TransactionHeld', data: { transactionId, payment, holdExpiresAt: at, heldAt: at } },
  { type: 'TransactionCompleted', data: { transactionId, via: 'CONFIRM', payment: null, completedAt: at } },
  {
    type: 'TransactionFailed',
    data: { transactionId, reason: 'DECLINED', errorCode: '05', errorMessage: 'declined', failedAt: at },
  },
  {
    type: 'TransactionCancelled',
    data: { transactionId, by: 'MERCHANT', status: 'CANCELLED', reason: null, requestedBy: null, cancelledAt: at },
  },
];

describe("IPN of a payment session's transaction", () => {
  it('sends only HOLDING on its own; without a session every outcome is sent', () => {
    const statuses = (f: IpnTransactionFacts) => events.map((e) => ipnContentFor(f, e)?.status ?? null);
    expect(statuses(facts('5a1e0c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f'))).to.deep.equal(['HOLDING', null, null, null]);
    expect(statuses(facts(null))).to.deep.equal(['HOLDING', 'COMPLETED', 'FAILED', 'CANCELLED']);
  });
});
