import { expect } from 'chai';
import type { RefundLedgerEvent, RefundRequested } from '../../../../domain/payments/events.js';
import {
  refundLedgerDecider,
  remainingRefundable,
  type RefundableTransaction,
  type RefundLedgerCommand,
} from '../../../../domain/payments/refund-ledger.js';
import { fold } from '../../../../domain/shared/decider.js';
import { scenario } from '../../../support/decider-spec.js';

/** The refund ledger of a transaction (docs/payments-refunds.md, "Rules" and "States"): every rule, every refusal. */
const given = scenario(refundLedgerDecider);
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T10:01:00.000Z';
const t2 = '2026-03-01T10:02:00.000Z';
const txId = '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';
const caller = { merchantCode: 'm1', terminalId: 'T1' };
const transaction: RefundableTransaction = {
  transactionId: txId,
  merchantCode: 'm1',
  terminalId: 'T1',
  status: 'COMPLETED',
  amount: 100_000,
  currency: 'VND',
  providerCode: 'SANDBOX_WALLET',
  paymentSessionId: null,
};

const request = (
  refundId: string,
  amount: number,
  extra: Partial<Extract<RefundLedgerCommand, { type: 'RequestRefund' }>> = {},
): RefundLedgerCommand => ({
  type: 'RequestRefund',
  transaction,
  caller,
  refundId,
  refundReferenceId: `ref-${refundId}`,
  amount,
  currency: null,
  refundType: 'PARTIAL',
  reason: null,
  requestedBy: null,
  userId: 'u-1',
  refundVpoint: null,
  now: t1,
  ...extra,
});

const requested = (refundId: string, amount: number, remaining: number, at = t0): RefundRequested => ({
  type: 'RefundRequested',
  data: {
    transactionId: txId,
    refundId,
    refundReferenceId: `ref-${refundId}`,
    merchantCode: 'm1',
    terminalId: 'T1',
    amount,
    currency: 'VND',
    refundType: 'PARTIAL',
    reason: null,
    requestedBy: null,
    userId: 'u-1',
    refundVpoint: null,
    providerCode: 'SANDBOX_WALLET',
    remainingRefundableAmount: remaining,
    requestedAt: at,
  },
});

const failed = (refundId: string, amount: number): RefundLedgerEvent => ({
  type: 'RefundFailed',
  data: {
    transactionId: txId,
    refundId,
    refundReferenceId: `ref-${refundId}`,
    amount,
    currency: 'VND',
    errorCode: 'REFUND_DECLINED',
    errorMessage: 'no',
    failedAt: t0,
  },
});

const snapshot = (
  refundId: string,
  amount: number,
  extra: Partial<Extract<RefundLedgerCommand, { type: 'RecordRefundSnapshot' }>> = {},
): RefundLedgerCommand => ({
  type: 'RecordRefundSnapshot',
  transaction,
  caller,
  refundId,
  refundReferenceId: `ref-${refundId}`,
  amount,
  currency: 'VND',
  refundType: 'PARTIAL',
  status: 'COMPLETED',
  processedAt: t0,
  errorCode: null,
  errorMessage: null,
  now: t1,
  ...extra,
});

describe('refund ledger decider', () => {
  describe('a refund request', () => {
    it('given no refunds, when a PARTIAL refund is asked, then it is accepted PENDING with what remains', () => {
      given([])
        .when(request('r1', 40_000, { reason: 'damaged', requestedBy: 'agent', currency: 'VND' }))
        .then([
          {
            type: 'RefundRequested',
            data: {
              ...requested('r1', 40_000, 60_000, t1).data,
              reason: 'damaged',
              requestedBy: 'agent',
            },
          },
        ]);
    });

    it('given partial refunds, when FULL states the remaining amount, then it refunds the rest', () => {
      given([requested('r1', 40_000, 60_000)])
        .when(request('r2', 60_000, { refundType: 'FULL' }))
        .then([{ type: 'RefundRequested', data: { ...requested('r2', 60_000, 0, t1).data, refundType: 'FULL' } }]);
    });

    it('given a partial refund, when FULL states another amount than what remains, then 4012 names what remains', () => {
      given([requested('r1', 40_000, 60_000)])
        .when(request('r2', 100_000, { refundType: 'FULL' }))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE', { remainingRefundableAmount: 60_000 });
    });

    it('given PENDING and PROCESSING refunds, when more than what remains is asked, then it is refused (they count)', () => {
      given([
        requested('r1', 40_000, 60_000),
        requested('r2', 50_000, 10_000),
        {
          type: 'RefundProcessing',
          data: { transactionId: txId, refundId: 'r2', providerRefundId: 'p2', processingAt: t0 },
        },
      ])
        .when(request('r3', 10_001))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE', { remainingRefundableAmount: 10_000 });
    });

    it('given a FAILED refund, when its amount is asked again, then it is accepted (a failure gives it back)', () => {
      given([requested('r1', 100_000, 0), failed('r1', 100_000)])
        .when(request('r2', 100_000))
        .then([requested('r2', 100_000, 0, t1)]);
    });

    it('given everything refunded, when any refund is asked, then 4012', () => {
      given([requested('r1', 100_000, 0)])
        .when(request('r2', 1))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE', { remainingRefundableAmount: 0 });
    });

    for (const status of ['PENDING', 'PROCESSING', 'HOLDING', 'FAILED', 'CANCELLED', 'TIMEOUT'] as const)
      it(`given a ${status} transaction, when a refund is asked, then 4012`, () => {
        given([])
          .when(request('r1', 1, { transaction: { ...transaction, status } }))
          .thenRejects('TRANSACTION_NOT_REFUNDABLE', { status });
      });

    it('given another terminal, when it asks a refund, then 4200', () => {
      given([])
        .when(request('r1', 1, { caller: { merchantCode: 'm1', terminalId: 'T2' } }))
        .thenRejects('TRANSACTION_NOT_OWNED');
    });

    it('given a used refundReferenceId, when it is asked again (even within the amount), then 4092', () => {
      given([requested('r1', 1_000, 99_000)])
        .when(request('r2', 1_000, { refundReferenceId: 'ref-r1' }))
        .thenRejects('DUPLICATE_REFUND_REFERENCE', { refundReferenceId: 'ref-r1' });
    });

    it('when the currency differs from the original, then 4001 naming currency', () => {
      given([])
        .when(request('r1', 1, { currency: 'USD' }))
        .thenRejects('INVALID_PAYMENT_REQUEST', { field: 'currency' });
    });

    it('when refundVpoint is sent for a transaction without a payment session, then 4001 naming it', () => {
      given([])
        .when(request('r1', 1, { refundVpoint: 10 }))
        .thenRejects('INVALID_PAYMENT_REQUEST', { field: 'refundVpoint' });
    });

    it('when an amount of 0 is asked of a transaction without a payment session, then 4001 naming amount', () => {
      given([]).when(request('r1', 0)).thenRejects('INVALID_PAYMENT_REQUEST', { field: 'amount' });
    });
    // A transaction paid through a payment session: session-refund-ledger.test.ts.
  });

  describe('a refund at the provider', () => {
    it('given a PENDING refund, when the provider takes it, then PROCESSING; a repeat records nothing', () => {
      const processing: RefundLedgerEvent = {
        type: 'RefundProcessing',
        data: { transactionId: txId, refundId: 'r1', providerRefundId: 'SBX-RF-r1', processingAt: t1 },
      };
      given([requested('r1', 1_000, 99_000)])
        .when({ type: 'MarkRefundProcessing', refundId: 'r1', providerRefundId: 'SBX-RF-r1', now: t1 })
        .then([processing]);
      given([requested('r1', 1_000, 99_000), processing])
        .when({ type: 'MarkRefundProcessing', refundId: 'r1', providerRefundId: 'SBX-RF-r1', now: t2 })
        .then([]);
    });

    it('given a PROCESSING refund, when the provider completes it, then COMPLETED; the same result again is nothing', () => {
      const completed: RefundLedgerEvent = {
        type: 'RefundCompleted',
        data: {
          transactionId: txId,
          refundId: 'r1',
          refundReferenceId: 'ref-r1',
          amount: 1_000,
          currency: 'VND',
          providerRefundId: 'SBX-RF-r1',
          completedAt: t2,
        },
      };
      const result = {
        type: 'RecordRefundResult' as const,
        refundId: 'r1',
        result: 'COMPLETED' as const,
        providerRefundId: 'SBX-RF-r1',
        errorCode: null,
        errorMessage: null,
        now: t2,
      };
      given([requested('r1', 1_000, 99_000)])
        .when(result)
        .then([completed]);
      given([requested('r1', 1_000, 99_000), completed])
        .when(result)
        .then([]);
      given([requested('r1', 1_000, 99_000), completed])
        .when({ ...result, result: 'FAILED', errorCode: 'X', errorMessage: 'x' })
        .thenRejects('TRANSACTION_NOT_PROCESSABLE', { status: 'COMPLETED' });
    });

    it('given a completed refund, when the reactor marks it PROCESSING late, then nothing is recorded', () => {
      given([requested('r1', 1_000, 99_000), failed('r1', 1_000)])
        .when({ type: 'MarkRefundProcessing', refundId: 'r1', providerRefundId: 'p', now: t2 })
        .then([]);
    });

    it('when the provider refuses, then FAILED with its error, and the amount is refundable again', () => {
      given([requested('r1', 1_000, 99_000)])
        .when({
          type: 'RecordRefundResult',
          refundId: 'r1',
          result: 'FAILED',
          providerRefundId: 'p',
          errorCode: 'REFUND_DECLINED',
          errorMessage: 'no',
          now: t0,
        })
        .then([failed('r1', 1_000)]);
      const state = fold(refundLedgerDecider, [requested('r1', 1_000, 99_000), failed('r1', 1_000)]);
      expect(remainingRefundable(transaction, state)).to.equal(100_000);
    });

    it('given no such refund, when a result comes, then 4301', () => {
      given([])
        .when({ type: 'MarkRefundProcessing', refundId: 'nope', providerRefundId: 'p', now: t1 })
        .thenRejects('TRANSACTION_NOT_FOUND');
    });
  });

  describe('a refund snapshot', () => {
    const recorded = (refundId: string, amount: number, remaining: number, extra = {}): RefundLedgerEvent => ({
      type: 'RefundSnapshotRecorded',
      data: {
        transactionId: txId,
        refundId,
        refundReferenceId: `ref-${refundId}`,
        merchantCode: 'm1',
        terminalId: 'T1',
        amount,
        currency: 'VND',
        refundType: 'PARTIAL',
        status: 'COMPLETED',
        processedAt: t0,
        errorCode: null,
        errorMessage: null,
        remainingRefundableAmount: remaining,
        recordedAt: t1,
        ...extra,
      },
    });

    it('when COMPLETED, then recorded and counted', () => {
      given([])
        .when(snapshot('s1', 30_000))
        .then([recorded('s1', 30_000, 70_000)]);
    });

    it('when FAILED with its error data, then recorded without counting', () => {
      given([requested('r1', 10_000, 90_000)])
        .when(snapshot('s1', 500_000, { status: 'FAILED', errorCode: 'E', errorMessage: 'e' }))
        .then([recorded('s1', 500_000, 90_000, { status: 'FAILED', errorCode: 'E', errorMessage: 'e' })]);
    });

    it('when COMPLETED over what remains, then 4012', () => {
      given([requested('r1', 80_000, 20_000)])
        .when(snapshot('s1', 20_001))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE', { remainingRefundableAmount: 20_000 });
    });

    it('when the status is neither COMPLETED nor FAILED, then 4016; FAILED without error data, 4017', () => {
      given([])
        .when(snapshot('s1', 1, { status: 'PENDING' }))
        .thenRejects('INVALID_SNAPSHOT_STATUS');
      given([])
        .when(snapshot('s1', 1, { status: 'FAILED', errorCode: 'E' }))
        .thenRejects('MISSING_ERROR_INFORMATION', { field: 'errorMessage' });
    });

    it('given a used refundReferenceId (a request), when a snapshot reuses it, then 4092 before the status rules', () => {
      given([requested('r1', 1_000, 99_000)])
        .when(snapshot('s1', 1, { refundReferenceId: 'ref-r1', status: 'BOGUS' }))
        .thenRejects('DUPLICATE_REFUND_REFERENCE');
    });

    it('given another merchant, when it records a snapshot, then 4200', () => {
      given([])
        .when(snapshot('s1', 1, { caller: { merchantCode: 'm2', terminalId: 'T1' } }))
        .thenRejects('TRANSACTION_NOT_OWNED');
    });
  });
});
