import { expect } from 'chai';
import type { RefundLedgerEvent, RefundRequested } from '../../../../domain/payments/events.js';
import { ipnContentFor, type IpnTransactionFacts } from '../../../../domain/payments/ipn.js';
import {
  refundLedgerDecider,
  type RefundableTransaction,
  type RefundLedgerCommand,
} from '../../../../domain/payments/refund-ledger.js';
import type { SessionRefundFacts, SessionRefundParts } from '../../../../domain/payments/session-refunds.js';
import { scenario } from '../../../support/decider-spec.js';

/**
 * The refund ledger of a transaction paid through a payment session (docs/payments-refunds.md, "Payment-session
 * transactions"): PARTIAL returns money and points, never a voucher; FULL returns all that remains (vouchers once);
 * and the REFUND notification's breakdown.
 */
const given = scenario(refundLedgerDecider);
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T10:01:00.000Z';
const txId = '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';
const sessionId = '5d7a1c2e-1111-4c1d-9f0e-6a1b2c3d4e5f';
const caller = { merchantCode: 'm1', terminalId: 'T1' };
const voucher = {
  amount: 30_000,
  referenceId: 'RSV-1',
  referenceType: 'RESERVATION' as const,
  details: { voucherCode: 'V-1', promotionId: 'P-1' },
};
// 150,000 = 30,000 voucher + 40,000 points worth 20,000 + 100,000 money (the transaction).
const session: SessionRefundFacts = {
  paymentSessionId: sessionId,
  originalAmount: 150_000,
  points: 40_000,
  vpointAmount: 20_000,
  vouchers: [voucher],
};
const transaction: RefundableTransaction = {
  transactionId: txId,
  merchantCode: 'm1',
  terminalId: 'T1',
  status: 'COMPLETED',
  amount: 100_000,
  currency: 'VND',
  providerCode: 'SANDBOX_WALLET',
  paymentSessionId: sessionId,
  session,
};

const request = (
  refundId: string,
  amount: number,
  refundVpoint: number | null,
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
  refundVpoint,
  now: t1,
  ...extra,
});
const full = (refundId: string, amount: number, refundVpoint: number | null = null) =>
  request(refundId, amount, refundVpoint, { refundType: 'FULL' });

const parts = (vpoint: number, vpointAmount: number, vouchers: SessionRefundParts['vouchers'] = []) => ({
  paymentSessionId: sessionId,
  vpoint,
  vpointAmount,
  vouchers,
});

const requested = (
  refundId: string,
  amount: number,
  p: SessionRefundParts,
  remaining: { money: number; vpoint: number },
  extra: { refundType?: 'FULL' | 'PARTIAL'; refundVpoint?: number | null; at?: string } = {},
): RefundRequested => ({
  type: 'RefundRequested',
  data: {
    transactionId: txId,
    refundId,
    refundReferenceId: `ref-${refundId}`,
    merchantCode: 'm1',
    terminalId: 'T1',
    amount,
    currency: 'VND',
    refundType: extra.refundType ?? 'PARTIAL',
    reason: null,
    requestedBy: null,
    userId: 'u-1',
    refundVpoint: extra.refundVpoint === undefined ? p.vpoint : extra.refundVpoint,
    providerCode: 'SANDBOX_WALLET',
    remainingRefundableAmount: remaining.money,
    requestedAt: extra.at ?? t1,
    session: p,
    remainingRefundableVpoint: remaining.vpoint,
  },
});
const completedAtOnce = (refundId: string, p: SessionRefundParts): RefundLedgerEvent => ({
  type: 'RefundCompleted',
  data: {
    transactionId: txId,
    refundId,
    refundReferenceId: `ref-${refundId}`,
    amount: 0,
    currency: 'VND',
    providerRefundId: null,
    completedAt: t1,
    session: p,
  },
});
const failed = (refundId: string, amount: number, p: SessionRefundParts): RefundLedgerEvent => ({
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
    session: p,
  },
});

// A partial refund already accepted: 30,000 money and 10,000 points (worth 5,000).
const partial1 = requested('p1', 30_000, parts(10_000, 5_000), { money: 70_000, vpoint: 30_000 }, { at: t0 });

describe('refund ledger decider: a transaction paid through a payment session', () => {
  describe('PARTIAL', () => {
    it('when money and points are asked, then both are taken, the points valued in proportion, no voucher', () => {
      given([])
        .when(request('p1', 30_000, 10_000))
        .then([{ ...partial1, data: { ...partial1.data, requestedAt: t1 } }]);
    });

    it('when refundVpoint is absent, then 4001 naming refundVpoint', () => {
      given([])
        .when(request('p1', 1_000, null))
        .thenRejects('INVALID_PAYMENT_REQUEST', { field: 'refundVpoint' });
    });

    it('when amount and refundVpoint are both 0, then 4001 naming amount', () => {
      given([])
        .when(request('p1', 0, 0))
        .thenRejects('INVALID_PAYMENT_REQUEST', { field: 'amount' });
    });

    it('when only points are asked (amount 0), then it is COMPLETED in the same decision: no provider to ask', () => {
      given([])
        .when(request('p1', 0, 8_000))
        .then([
          requested('p1', 0, parts(8_000, 4_000), { money: 100_000, vpoint: 32_000 }),
          completedAtOnce('p1', parts(8_000, 4_000)),
        ]);
    });

    it('when only money is asked (refundVpoint 0), then no points are taken', () => {
      given([])
        .when(request('p1', 5_000, 0))
        .then([requested('p1', 5_000, parts(0, 0), { money: 95_000, vpoint: 40_000 })]);
    });

    it('given a partial refund, when more money than remains is asked, then 4012 naming what remains', () => {
      given([partial1])
        .when(request('p2', 70_001, 0))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE', {
          remainingRefundableAmount: 70_000,
          remainingRefundableVpoint: 30_000,
        });
    });

    it('given a partial refund, when more points than remain are asked, then 4012 naming the points left', () => {
      given([partial1])
        .when(request('p2', 0, 30_001))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE', { remainingRefundableVpoint: 30_000 });
    });

    it('given a partial refund, when the last points are asked, then they take the value that remains exactly', () => {
      given([partial1])
        .when(request('p2', 0, 30_000))
        .then([
          requested('p2', 0, parts(30_000, 15_000), { money: 70_000, vpoint: 0 }),
          completedAtOnce('p2', parts(30_000, 15_000)),
        ]);
    });

    it('given points that do not divide evenly, then each refund rounds down and the last takes the rest', () => {
      const odd = { ...transaction, session: { ...session, points: 3, vpointAmount: 10 } };
      const first = requested('a', 0, parts(1, 3), { money: 100_000, vpoint: 2 }, { at: t0 });
      const second = requested('b', 0, parts(1, 3), { money: 100_000, vpoint: 1 }, { at: t0 });
      given([])
        .when(request('a', 0, 1, { transaction: odd }))
        .then([{ ...first, data: { ...first.data, requestedAt: t1 } }, completedAtOnce('a', parts(1, 3))]);
      given([first, second])
        .when(request('c', 0, 1, { transaction: odd }))
        .then([requested('c', 0, parts(1, 4), { money: 100_000, vpoint: 0 }), completedAtOnce('c', parts(1, 4))]);
    });

    it('given a used refundReferenceId, then 4092 (before the amounts)', () => {
      given([partial1])
        .when(request('p2', 999_999, 0, { refundReferenceId: 'ref-p1' }))
        .thenRejects('DUPLICATE_REFUND_REFERENCE');
    });

    it('given a FAILED partial, when its points are asked again, then they are refundable (a failure gives them back)', () => {
      given([partial1, failed('p1', 30_000, parts(10_000, 5_000))])
        .when(request('p2', 0, 40_000))
        .then([
          requested('p2', 0, parts(40_000, 20_000), { money: 100_000, vpoint: 0 }),
          completedAtOnce('p2', parts(40_000, 20_000)),
        ]);
    });
  });

  describe('FULL', () => {
    const all = parts(40_000, 20_000, [voucher]);
    const fullRequested = requested(
      'f1',
      100_000,
      all,
      { money: 0, vpoint: 0 },
      { refundType: 'FULL', refundVpoint: null },
    );

    it('when amount is the remaining money, then money, all points and the vouchers are refunded', () => {
      given([]).when(full('f1', 100_000)).then([fullRequested]);
    });

    it("when amount is the session's total collected (originalAmount), then the same refund: money 100,000", () => {
      given([]).when(full('f1', 150_000)).then([fullRequested]);
    });

    it('when refundVpoint states all the points, then it is accepted; other points are 4012', () => {
      given([])
        .when(full('f1', 100_000, 40_000))
        .then([{ ...fullRequested, data: { ...fullRequested.data, refundVpoint: 40_000 } }]);
      given([])
        .when(full('f1', 100_000, 10_000))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE', { remainingRefundableVpoint: 40_000 });
    });

    it('given a partial refund, then the remaining money or the remaining total is accepted; originalAmount is 4012', () => {
      const rest = parts(30_000, 15_000, [voucher]);
      const after = requested('f1', 70_000, rest, { money: 0, vpoint: 0 }, { refundType: 'FULL', refundVpoint: null });
      given([partial1]).when(full('f1', 70_000)).then([after]);
      given([partial1]).when(full('f1', 115_000)).then([after]);
      given([partial1])
        .when(full('f1', 150_000))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE', { remainingRefundableAmount: 70_000, remainingTotal: 115_000 });
    });

    it('given all money and points refunded by partials, then FULL returns the vouchers alone, COMPLETED at once', () => {
      const allPartial = requested('p1', 100_000, parts(40_000, 20_000), { money: 0, vpoint: 0 }, { at: t0 });
      const vouchersOnly = parts(0, 0, [voucher]);
      given([allPartial])
        .when(full('f1', 0))
        .then([
          requested('f1', 0, vouchersOnly, { money: 0, vpoint: 0 }, { refundType: 'FULL', refundVpoint: null }),
          completedAtOnce('f1', vouchersOnly),
        ]);
      given([allPartial])
        .when(full('f1', 30_000))
        .then([
          requested('f1', 0, vouchersOnly, { money: 0, vpoint: 0 }, { refundType: 'FULL', refundVpoint: null }),
          completedAtOnce('f1', vouchersOnly),
        ]);
    });

    it('given a FULL refund accepted, then the vouchers are not refunded twice: nothing is left (4012)', () => {
      given([fullRequested])
        .when(full('f2', 0))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE', { remainingRefundableAmount: 0, remainingRefundableVpoint: 0 });
      given([fullRequested])
        .when(request('p2', 0, 1))
        .thenRejects('TRANSACTION_NOT_REFUNDABLE');
    });

    it('given a FULL refund that FAILED, then FULL is refundable again, vouchers included', () => {
      given([fullRequested, failed('f1', 100_000, all)])
        .when(full('f2', 150_000))
        .then([requested('f2', 100_000, all, { money: 0, vpoint: 0 }, { refundType: 'FULL', refundVpoint: null })]);
    });
  });

  describe('results', () => {
    it("given a session refund, when the provider's result comes, then its events carry the session parts", () => {
      given([partial1])
        .when({
          type: 'RecordRefundResult',
          refundId: 'p1',
          result: 'COMPLETED',
          providerRefundId: 'pr-1',
          errorCode: null,
          errorMessage: null,
          now: t1,
        })
        .then([
          {
            type: 'RefundCompleted',
            data: {
              transactionId: txId,
              refundId: 'p1',
              refundReferenceId: 'ref-p1',
              amount: 30_000,
              currency: 'VND',
              providerRefundId: 'pr-1',
              completedAt: t1,
              session: parts(10_000, 5_000),
            },
          },
        ]);
    });

    it('a refund snapshot of a session transaction counts money only (its own rules)', () => {
      given([partial1])
        .when({
          type: 'RecordRefundSnapshot',
          transaction,
          caller,
          refundId: 's1',
          refundReferenceId: 'ref-s1',
          amount: 70_000,
          currency: 'VND',
          refundType: 'FULL',
          status: 'COMPLETED',
          processedAt: t0,
          errorCode: null,
          errorMessage: null,
          now: t1,
        })
        .then([
          {
            type: 'RefundSnapshotRecorded',
            data: {
              transactionId: txId,
              refundId: 's1',
              refundReferenceId: 'ref-s1',
              merchantCode: 'm1',
              terminalId: 'T1',
              amount: 70_000,
              currency: 'VND',
              refundType: 'FULL',
              status: 'COMPLETED',
              processedAt: t0,
              errorCode: null,
              errorMessage: null,
              remainingRefundableAmount: 0,
              recordedAt: t1,
            },
          },
        ]);
    });
  });
});

describe('the REFUND notification of a payment-session transaction', () => {
  const facts: IpnTransactionFacts = {
    transactionId: txId,
    merchantCode: 'm1',
    orderId: 'S-1',
    referenceId: 'REF-S-1',
    amount: 100_000,
    currency: 'VND',
    methodCode: 'WALLET',
    providerCode: 'SANDBOX_WALLET',
    orderInfo: null,
    providerTransactionId: 'W-1',
    providerInvoiceId: null,
    payment: null,
    paymentSessionId: sessionId,
  };
  const completed = (amount: number, p: SessionRefundParts): RefundLedgerEvent => ({
    type: 'RefundCompleted',
    data: {
      transactionId: txId,
      refundId: 'f1',
      refundReferenceId: 'ref-f1',
      amount,
      currency: 'VND',
      providerRefundId: 'pr',
      completedAt: t1,
      session: p,
    },
  });

  it('is sent (after the session ended), amount the money, with VOUCHER, VPOINT and PAYMENT lines', () => {
    const content = ipnContentFor(facts, completed(100_000, parts(40_000, 20_000, [voucher])));
    expect(content).to.deep.include({
      transactionType: 'REFUND',
      status: 'COMPLETED',
      amount: 100_000,
      refundId: 'f1',
      refundReferenceId: 'ref-f1',
    });
    expect(content!.breakdown).to.deep.equal([
      {
        type: 'VOUCHER',
        amount: 30_000,
        status: 'SUCCESS',
        referenceId: 'RSV-1',
        referenceType: 'RESERVATION',
        details: { voucherCode: 'V-1', promotionId: 'P-1' },
      },
      {
        type: 'VPOINT',
        amount: 20_000,
        status: 'SUCCESS',
        referenceId: null,
        referenceType: null,
        details: { points: '40000' },
      },
      {
        type: 'PAYMENT',
        amount: 100_000,
        status: 'SUCCESS',
        referenceId: txId,
        referenceType: 'TRANSACTION',
        details: { method: 'WALLET', provider: 'SANDBOX_WALLET' },
      },
    ]);
  });

  it('a points-only refund: amount 0, one VPOINT line; a FAILED one marks its lines FAILED', () => {
    const pointsOnly = ipnContentFor(facts, completed(0, parts(8_000, 4_000)));
    expect(pointsOnly).to.deep.include({ amount: 0, status: 'COMPLETED' });
    expect(pointsOnly!.breakdown!.map((l) => [l.type, l.amount, l.status])).to.deep.equal([
      ['VPOINT', 4_000, 'SUCCESS'],
    ]);
    const refused = ipnContentFor(facts, failed('p1', 30_000, parts(10_000, 5_000)));
    expect(refused).to.deep.include({ status: 'FAILED', amount: 30_000, errorCode: 'REFUND_DECLINED' });
    expect(refused!.breakdown!.map((l) => [l.type, l.amount, l.status])).to.deep.equal([
      ['VPOINT', 5_000, 'FAILED'],
      ['PAYMENT', 30_000, 'FAILED'],
    ]);
  });

  it('a transaction without a session: its refund events carry no parts, its notification no breakdown', () => {
    const { session: _none, ...data } = (
      completed(1_000, parts(0, 0)) as Extract<RefundLedgerEvent, { type: 'RefundCompleted' }>
    ).data;
    const plain = ipnContentFor({ ...facts, paymentSessionId: null }, { type: 'RefundCompleted', data });
    expect(plain).to.deep.include({ transactionType: 'REFUND', amount: 1_000 });
    expect(plain).to.not.have.property('breakdown');
  });
});
