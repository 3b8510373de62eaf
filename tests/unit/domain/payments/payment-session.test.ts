import { expect } from 'chai';
import type { PaymentSessionEvent } from '../../../../domain/payments/events.js';
import type { SettledLine } from '../../../../domain/payments/payment-session-details.js';
import {
  paymentSessionDecider,
  type PaymentSession,
  type PaymentSessionCommand,
} from '../../../../domain/payments/payment-session.js';
import { sessionIpnContentFor } from '../../../../domain/payments/payment-session-ipn.js';
import { fold } from '../../../../domain/shared/decider.js';
import { scenario } from '../../../support/decider-spec.js';

/** The payment session's state machine (docs/payments-sessions.md, "States"): every transition, every refusal. */
const given = scenario(paymentSessionDecider);
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T10:05:00.000Z';
const t2 = '2026-03-01T10:06:00.000Z';
const expiresAt = '2026-03-01T10:15:00.000Z';
const id = '5a1e0c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';
const txId = '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';
const owner = { merchantCode: 'm1', terminalId: 'T1' };

const voucher: SettledLine = {
  type: 'VOUCHER',
  amount: 30_000,
  referenceId: 'RSV-1',
  referenceType: 'RESERVATION',
  details: { voucherCode: 'V-1', promotionId: 'P-1' },
};
const points: SettledLine = {
  type: 'VPOINT',
  amount: 20_000,
  referenceId: null,
  referenceType: null,
  details: { points: '20000' },
};

const create = (lines: SettledLine[], over: { expiresAt?: string; originalAmount?: number } = {}) =>
  ({
    type: 'CreatePaymentSession',
    session: {
      paymentSessionId: id,
      merchantCode: 'm1',
      terminalId: 'T1',
      orderId: 'o1',
      referenceId: 'r1',
      originalAmount: over.originalAmount ?? 150_000,
      currency: 'VND',
      orderCreatedAt: 1772359200000,
      orderInfo: null,
      lines,
      expiresAt: over.expiresAt ?? expiresAt,
    },
    now: t0,
  }) satisfies PaymentSessionCommand;

const paymentLine = {
  type: 'PAYMENT',
  amount: 100_000,
  status: 'PENDING',
  referenceId: null,
  referenceType: null,
  details: null,
} as const;
const created: PaymentSessionEvent = {
  type: 'PaymentSessionCreated',
  data: {
    paymentSessionId: id,
    merchantCode: 'm1',
    terminalId: 'T1',
    orderId: 'o1',
    referenceId: 'r1',
    originalAmount: 150_000,
    amount: 100_000,
    currency: 'VND',
    orderCreatedAt: 1772359200000,
    orderInfo: null,
    breakdown: [{ ...voucher, status: 'PENDING' }, { ...points, status: 'PENDING' }, paymentLine],
    expiresAt,
    createdAt: t0,
  },
};
const start = (over: Partial<Extract<PaymentSessionCommand, { type: 'StartSessionPayment' }>> = {}) =>
  ({
    type: 'StartSessionPayment',
    caller: owner,
    transactionId: txId,
    orderId: 'o1',
    referenceId: 'r1',
    amount: 100_000,
    currency: 'VND',
    method: 'WALLET',
    provider: 'SANDBOX_WALLET',
    now: t1,
    ...over,
  }) satisfies PaymentSessionCommand;
const processing: PaymentSessionEvent = {
  type: 'PaymentSessionProcessing',
  data: { paymentSessionId: id, transactionId: txId, method: 'WALLET', provider: 'SANDBOX_WALLET', processingAt: t1 },
};
const facts = {
  methodCode: 'WALLET',
  providerCode: 'SANDBOX_WALLET',
  providerTransactionId: 'SBX-1',
  providerInvoiceId: null,
  bankName: null,
  accountHolderName: 'SANDBOX WALLET USER',
  cardNo: null,
};
const completed: PaymentSessionEvent = {
  type: 'PaymentSessionCompleted',
  data: { paymentSessionId: id, transactionId: txId, payment: facts, completedAt: t2 },
};
const failedPayment: PaymentSessionEvent = {
  type: 'PaymentSessionCancelled',
  data: {
    paymentSessionId: id,
    by: 'PAYMENT_FAILED',
    transactionId: txId,
    reason: 'the payment transaction failed or was cancelled',
    requestedBy: null,
    errorCode: '05',
    errorMessage: 'declined',
    cancelledAt: t2,
  },
};
const cancelled: PaymentSessionEvent = {
  type: 'PaymentSessionCancelled',
  data: {
    paymentSessionId: id,
    by: 'MERCHANT',
    transactionId: null,
    reason: 'out of stock',
    requestedBy: 'ops',
    errorCode: null,
    errorMessage: null,
    cancelledAt: t1,
  },
};
const expired: PaymentSessionEvent = {
  type: 'PaymentSessionExpired',
  data: { paymentSessionId: id, expiredAt: expiresAt },
};

const stateAfter = (history: PaymentSessionEvent[]) => fold(paymentSessionDecider, history) as PaymentSession;
const lineStatuses = (history: PaymentSessionEvent[]) => stateAfter(history).breakdown.map((l) => [l.type, l.status]);

describe('payment session decider', () => {
  describe('create', () => {
    it('adds the PAYMENT line: originalAmount minus the settled lines, every line PENDING', () =>
      given([])
        .when(create([voucher, points]))
        .then([created]));

    it('a session the lines cover is COMPLETED at once, without a PAYMENT line or a transaction', () => {
      const free = create([{ ...voucher, amount: 150_000 }]);
      const data = {
        ...(created as Extract<PaymentSessionEvent, { type: 'PaymentSessionCreated' }>).data,
        amount: 0,
        breakdown: [{ ...voucher, amount: 150_000, status: 'PENDING' as const }],
      };
      given([])
        .when(free)
        .then([
          { type: 'PaymentSessionCreated', data },
          {
            type: 'PaymentSessionCompleted',
            data: { paymentSessionId: id, transactionId: null, payment: null, completedAt: t0 },
          },
        ]);
    });

    it('refuses lines worth more than the order, naming breakdown', () =>
      given([])
        .when(create([voucher, points], { originalAmount: 49_999 }))
        .thenRejects('INVALID_PAYMENT_REQUEST', { field: 'breakdown' }));

    it('refuses an expiresAt not ahead, or more than 7 days ahead', () => {
      given([])
        .when(create([], { expiresAt: t0 }))
        .thenRejects('INVALID_PAYMENT_REQUEST', { field: 'expiresAt' });
      given([])
        .when(create([], { expiresAt: '2026-03-08T10:00:00.001Z' }))
        .thenRejects('INVALID_PAYMENT_REQUEST', { field: 'expiresAt' });
    });

    it('refuses a session id used twice (a bug)', () =>
      given([created])
        .when(create([voucher, points]))
        .thenRejects('PAYMENT_SESSION_EXISTS'));
  });

  describe('paying: init payment names the session', () => {
    it('PENDING → PROCESSING; the PAYMENT line then names its transaction and method', () => {
      given([created]).when(start()).then([processing]);
      const payment = stateAfter([created, processing]).breakdown.at(-1);
      expect(payment).to.deep.equal({
        ...paymentLine,
        referenceId: txId,
        referenceType: 'TRANSACTION',
        details: { method: 'WALLET', provider: 'SANDBOX_WALLET' },
      });
      expect(stateAfter([created, processing])).to.include({ status: 'PROCESSING', transactionId: txId });
    });

    const refusals: [string, PaymentSessionEvent[], PaymentSessionCommand][] = [
      ['no session', [], start()],
      ["another merchant's", [created], start({ caller: { merchantCode: 'm2', terminalId: 'T1' } })],
      ["another terminal's", [created], start({ caller: { merchantCode: 'm1', terminalId: 'T2' } })],
      ['another orderId', [created], start({ orderId: 'o2' })],
      ['another referenceId', [created], start({ referenceId: 'r2' })],
      ['not the PAYMENT part', [created], start({ amount: 150_000 })],
      ['another currency', [created], start({ currency: 'USD' })],
      ['past expiresAt', [created], start({ now: expiresAt })],
      ['PROCESSING already', [created, processing], start()],
      ['COMPLETED', [created, processing, completed], start()],
      ['CANCELLED', [created, cancelled], start()],
      ['EXPIRED', [created, expired], start()],
    ];
    for (const [what, history, command] of refusals)
      it(`refuses (4001 naming paymentSessionId): ${what}`, () =>
        given(history).when(command).thenRejects('INVALID_PAYMENT_REQUEST', { field: 'paymentSessionId' }));

    it('refuses a session with nothing to pay', () => {
      const free = fold(paymentSessionDecider, []);
      const events = paymentSessionDecider.decide(create([{ ...voucher, amount: 150_000 }]), free);
      given(events)
        .when(start({ amount: 0 }))
        .thenRejects('INVALID_PAYMENT_REQUEST', { field: 'paymentSessionId' });
    });
  });

  describe('the transaction’s outcome (the process manager)', () => {
    const complete = { type: 'CompleteSessionPayment', transactionId: txId, payment: facts, now: t2 } as const;
    const fail = {
      type: 'FailSessionPayment',
      transactionId: txId,
      errorCode: '05',
      errorMessage: 'declined',
      now: t2,
    } as const;

    it('COMPLETED: every line SUCCESS, transactionId set', () => {
      given([created, processing]).when(complete).then([completed]);
      expect(lineStatuses([created, processing, completed])).to.deep.equal([
        ['VOUCHER', 'SUCCESS'],
        ['VPOINT', 'SUCCESS'],
        ['PAYMENT', 'SUCCESS'],
      ]);
      expect(stateAfter([created, processing, completed])).to.include({ status: 'COMPLETED', transactionId: txId });
    });

    it('failed or cancelled: the session ends CANCELLED (PAYMENT_FAILED), PAYMENT FAILED, the others CANCELLED', () => {
      given([created, processing]).when(fail).then([failedPayment]);
      expect(lineStatuses([created, processing, failedPayment])).to.deep.equal([
        ['VOUCHER', 'CANCELLED'],
        ['VPOINT', 'CANCELLED'],
        ['PAYMENT', 'FAILED'],
      ]);
      expect(stateAfter([created, processing, failedPayment])).to.include({
        status: 'CANCELLED',
        cancelledBy: 'PAYMENT_FAILED',
        transactionId: txId,
        errorCode: '05',
      });
    });

    it('a repeat, or an outcome of another transaction, records nothing', () => {
      given([created, processing, completed]).when(complete).then([]);
      given([created, processing, failedPayment]).when(fail).then([]);
      given([created, processing])
        .when({ ...complete, transactionId: 'other' })
        .then([]);
      given([created]).when(fail).then([]);
    });
  });

  describe('cancel by the backend', () => {
    const cancel = {
      type: 'CancelPaymentSession',
      caller: owner,
      reason: 'out of stock',
      requestedBy: 'ops',
      now: t1,
    } as const;

    it('PENDING → CANCELLED, every line CANCELLED', () => {
      given([created]).when(cancel).then([cancelled]);
      expect(lineStatuses([created, cancelled]).every(([, s]) => s === 'CANCELLED')).to.equal(true);
    });

    it('refuses a session that is not PENDING (4018)', () => {
      for (const history of [
        [created, processing],
        [created, processing, completed],
        [created, cancelled],
        [created, expired],
      ])
        given(history).when(cancel).thenRejects('PAYMENT_SESSION_NOT_CANCELLABLE');
    });

    it("another terminal's or merchant's session, or none, is not found", () => {
      given([]).when(cancel).thenRejects('PAYMENT_SESSION_NOT_FOUND');
      given([created])
        .when({ ...cancel, caller: { merchantCode: 'm1', terminalId: 'T2' } })
        .thenRejects('PAYMENT_SESSION_NOT_FOUND');
      given([created])
        .when({ ...cancel, caller: { merchantCode: 'm2', terminalId: 'T1' } })
        .thenRejects('PAYMENT_SESSION_NOT_FOUND');
    });
  });

  describe('expiry (the stored timer)', () => {
    it('PENDING at expiresAt → EXPIRED, every line CANCELLED', () => {
      given([created]).when({ type: 'ExpirePaymentSession', now: expiresAt }).then([expired]);
      expect(stateAfter([created, expired]).status).to.equal('EXPIRED');
      expect(lineStatuses([created, expired]).every(([, s]) => s === 'CANCELLED')).to.equal(true);
    });

    it('early, or after the session moved on: nothing', () => {
      given([created]).when({ type: 'ExpirePaymentSession', now: t1 }).then([]);
      given([created, processing]).when({ type: 'ExpirePaymentSession', now: expiresAt }).then([]);
      given([created, cancelled]).when({ type: 'ExpirePaymentSession', now: expiresAt }).then([]);
      given([]).when({ type: 'ExpirePaymentSession', now: expiresAt }).then([]);
    });
  });

  describe('the final IPN', () => {
    it('COMPLETED: PAYMENT COMPLETED, amount the PAYMENT part, the transaction, the breakdown at the end', () => {
      const content = sessionIpnContentFor(stateAfter([created, processing, completed]), completed)!;
      expect(content).to.deep.include({
        orderId: 'o1',
        transactionId: txId,
        providerTransactionId: 'SBX-1',
        referenceId: 'r1',
        transactionType: 'PAYMENT',
        amount: 100_000,
        status: 'COMPLETED',
        processedAt: Date.parse(t2),
        paymentMethod: 'E_WALLET',
        paymentProvider: 'SANDBOX_WALLET',
        errorCode: null,
      });
      expect(content.breakdown!.map((l) => [l.type, l.amount, l.status, l.referenceType])).to.deep.equal([
        ['VOUCHER', 30_000, 'SUCCESS', 'RESERVATION'],
        ['VPOINT', 20_000, 'SUCCESS', null],
        ['PAYMENT', 100_000, 'SUCCESS', 'TRANSACTION'],
      ]);
    });

    it('ended otherwise: FAILED (payment failed, expired) or CANCEL/CANCELLED (the backend)', () => {
      const failed = sessionIpnContentFor(stateAfter([created, processing, failedPayment]), failedPayment)!;
      expect([failed.transactionType, failed.status, failed.errorCode, failed.transactionId]).to.deep.equal([
        'PAYMENT',
        'FAILED',
        '05',
        txId,
      ]);
      const late = sessionIpnContentFor(stateAfter([created, expired]), expired)!;
      expect([late.transactionType, late.status, late.errorCode, late.transactionId]).to.deep.equal([
        'PAYMENT',
        'FAILED',
        'SESSION_EXPIRED',
        id,
      ]);
      const byBackend = sessionIpnContentFor(stateAfter([created, cancelled]), cancelled)!;
      expect([byBackend.transactionType, byBackend.status]).to.deep.equal(['CANCEL', 'CANCELLED']);
      expect(sessionIpnContentFor(stateAfter([created, processing]), processing)).to.equal(null);
    });

    it('paid by vouchers and points alone: VPOINT is the primary method when points were used, else PROMOTION', () => {
      const withPoints = paymentSessionDecider.decide(create([{ ...voucher, amount: 130_000 }, points]), {
        status: 'NONE',
      });
      const s = fold(paymentSessionDecider, withPoints) as PaymentSession;
      expect(sessionIpnContentFor(s, withPoints[1]!)).to.deep.include({
        paymentMethod: 'VPOINT',
        paymentProvider: null,
        amount: 0,
        transactionId: id,
      });
      const promo = paymentSessionDecider.decide(create([{ ...voucher, amount: 150_000 }]), { status: 'NONE' });
      expect(sessionIpnContentFor(fold(paymentSessionDecider, promo) as PaymentSession, promo[1]!)).to.deep.include({
        paymentMethod: 'PROMOTION',
      });
    });
  });
});
