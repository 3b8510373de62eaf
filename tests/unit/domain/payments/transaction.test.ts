import { expect } from 'chai';
import type { TransactionEvent } from '../../../../domain/payments/events.js';
import type { TransactionDetails } from '../../../../domain/payments/transaction-details.js';
import { transactionDecider, type TransactionCommand } from '../../../../domain/payments/transaction.js';
import { scenario } from '../../../support/decider-spec.js';

/** The seed's transaction state machine (docs/payments.md, "States"): every transition, every refused one. */
const given = scenario(transactionDecider);
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T10:01:00.000Z';
const t2 = '2026-03-01T10:02:00.000Z';
const holdEnd = '2026-03-08T10:02:00.000Z';
const abandonAt = '2026-03-01T14:00:00.000Z';
const id = '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';
const owner = { merchantCode: 'm1', terminalId: 'T1' };

const card = {
  paymentMethod: { id: 'pm', code: 'CREDIT_CARD', name: 'Card', type: 'CARD' },
  provider: { id: 'pv', code: 'SANDBOX_CARD', name: 'Sandbox card' },
};
const details = (skipHolding: boolean, method = card): TransactionDetails => ({
  transactionId: id,
  merchantCode: 'm1',
  merchantName: 'Shop One',
  terminalId: 'T1',
  orderId: 'o1',
  referenceId: 'r1',
  amount: 100_000,
  currency: 'VND',
  description: 'order o1',
  ...method,
  cardType: '3D',
  skipHolding,
  userPaymentMethodId: null,
  sellerMerchantId: null,
  businessUnitId: null,
  branchId: null,
  returnUrl: null,
  providerData: null,
  orderInfo: null,
  payer: { kind: 'NONE' },
  miniAppId: null,
  expiresAt: abandonAt,
  createdAt: t0,
});

const payment = { bankName: 'Sandbox Bank', accountHolderName: 'NGUYEN VAN A', cardNo: null };
const initiated = (skipHolding = false): TransactionEvent => ({
  type: 'TransactionInitiated',
  data: details(skipHolding),
});
const processing: TransactionEvent = {
  type: 'TransactionProcessing',
  data: {
    transactionId: id,
    providerTransactionId: 'p-1',
    providerInvoiceId: null,
    redirectUrl: null,
    processingAt: t1,
  },
};
const held: TransactionEvent = {
  type: 'TransactionHeld',
  data: { transactionId: id, payment, holdExpiresAt: holdEnd, heldAt: t2 },
};
const completed = (via: 'AUTO_CAPTURE' | 'CONFIRM'): TransactionEvent => ({
  type: 'TransactionCompleted',
  data: { transactionId: id, via, payment: via === 'CONFIRM' ? null : payment, completedAt: t2 },
});
const declined: TransactionEvent = {
  type: 'TransactionFailed',
  data: { transactionId: id, reason: 'DECLINED', errorCode: '51', errorMessage: 'insufficient funds', failedAt: t2 },
};
const cancelledBy = (now: string): TransactionEvent => ({
  type: 'TransactionCancelled',
  data: {
    transactionId: id,
    by: 'MERCHANT',
    status: 'CANCELLED',
    reason: 'user left',
    requestedBy: 'ops',
    cancelledAt: now,
  },
});

const start: TransactionCommand = {
  type: 'StartProcessing',
  providerTransactionId: 'p-1',
  providerInvoiceId: null,
  redirectUrl: null,
  now: t1,
};
const authorize: TransactionCommand = { type: 'RecordAuthorization', payment, holdExpiresAt: holdEnd, now: t2 };
const decline: TransactionCommand = {
  type: 'RecordDecline',
  errorCode: '51',
  errorMessage: 'insufficient funds',
  now: t2,
};
const confirm = (caller = owner): TransactionCommand => ({ type: 'ConfirmTransaction', caller, now: t2 });
const cancel = (now = t2, caller = owner): TransactionCommand => ({
  type: 'CancelTransaction',
  caller,
  reason: 'user left',
  requestedBy: 'ops',
  now,
});

describe('transaction decider (the seed state machine)', () => {
  it('(none) → PENDING: init records every detail', () =>
    given([])
      .when({ type: 'InitiateTransaction', details: details(false), now: t0 })
      .then([initiated()]));
  it('(none) → PENDING → PROCESSING in one decision when the provider took it at once (its page)', () => {
    const session = { providerTransactionId: 'p-1', providerInvoiceId: null, redirectUrl: 'https://pay.example/p-1' };
    given([])
      .when({ type: 'InitiateTransaction', details: details(false), provider: session, now: t0 })
      .then([
        initiated(),
        { type: 'TransactionProcessing', data: { transactionId: id, ...session, processingAt: t0 } },
      ]);
  });
  it('refuses a second init on one id (a bug: ids are unique)', () =>
    given([initiated()])
      .when({ type: 'InitiateTransaction', details: details(false), now: t0 })
      .thenRejects('TRANSACTION_EXISTS'));

  it('PENDING → PROCESSING when the provider takes it', () => given([initiated()]).when(start).then([processing]));
  it('a repeated provider start with the same provider id is a no-op', () =>
    given([initiated(), processing]).when(start).then([]));
  it('a provider start on a HOLDING transaction is refused', () =>
    given([initiated(), processing, held])
      .when(start)
      .thenRejects('TRANSACTION_NOT_PROCESSABLE', { status: 'HOLDING' }));

  it('PROCESSING → HOLDING when the provider authorizes and auto-capture is off', () =>
    given([initiated(false), processing])
      .when(authorize)
      .then([held]));
  it('PROCESSING → COMPLETED when the provider authorizes with auto-capture (hold skipped)', () =>
    given([initiated(true), processing])
      .when(authorize)
      .then([completed('AUTO_CAPTURE')]));
  describe('wallets and QR name no instrument (the seed: bankName, accountHolderName, cardNo null)', () => {
    const none = { bankName: null, accountHolderName: null, cardNo: null };
    const reported = { bankName: 'Sandbox Bank', accountHolderName: 'SANDBOX WALLET USER', cardNo: '970400******0018' };
    for (const method of [
      {
        paymentMethod: { id: 'pm', code: 'WALLET', name: 'Wallet', type: 'WALLET' },
        provider: { id: 'pv', code: 'SANDBOX_WALLET', name: 'Sandbox wallet' },
      },
      {
        paymentMethod: { id: 'pm', code: 'QR_CODE', name: 'QR', type: 'QR' },
        provider: { id: 'pv', code: 'SANDBOX_QR', name: 'Sandbox QR' },
      },
    ]) {
      const start = (skipHolding: boolean): TransactionEvent[] => [
        { type: 'TransactionInitiated', data: details(skipHolding, method) },
        processing,
      ];
      const type = method.paymentMethod.type;
      it(`${type}: a hold records none of what the provider reported`, () =>
        given(start(false))
          .when({ ...authorize, payment: reported })
          .then([
            { type: 'TransactionHeld', data: { transactionId: id, payment: none, holdExpiresAt: holdEnd, heldAt: t2 } },
          ]));
      it(`${type}: an auto-capture records none either`, () =>
        given(start(true))
          .when({ ...authorize, payment: reported })
          .then([
            {
              type: 'TransactionCompleted',
              data: { transactionId: id, via: 'AUTO_CAPTURE', payment: none, completedAt: t2 },
            },
          ]));
      it(`${type}: a hold recorded before the rule reads as none`, () => {
        const history: TransactionEvent[] = [
          ...start(false),
          {
            type: 'TransactionHeld',
            data: { transactionId: id, payment: reported, holdExpiresAt: holdEnd, heldAt: t2 },
          },
        ];
        const state = history.reduce(transactionDecider.evolve, transactionDecider.initialState);
        expect(state).to.include({ status: 'HOLDING' }).and.deep.include({ payment: none });
      });
    }
    it('a card keeps what the provider reported', () =>
      given([initiated(false), processing])
        .when({ ...authorize, payment: reported })
        .then([
          {
            type: 'TransactionHeld',
            data: { transactionId: id, payment: reported, holdExpiresAt: holdEnd, heldAt: t2 },
          },
        ]));
  });
  describe('a card the payer chose to save (saved payment methods)', () => {
    const savedCard = {
      userPaymentMethodId: 'a1b2c3d4-0000-5000-8000-000000000001',
      encryptedToken: 'k1.key.sealed',
      fingerprint: 'fp-1',
      cardNo: '411111******1111',
      cardBrand: 'VISA',
      expiry: '12/30',
    };
    const tokenizable = (skipHolding: boolean, payer: TransactionDetails['payer']): TransactionEvent => ({
      type: 'TransactionInitiated',
      data: { ...details(skipHolding), tokenizable: true, payer },
    });
    const user = { kind: 'MINIAPP_USER', userId: 'u-1', name: null } as const;
    it('is kept on the capture of a tokenizable payment of a host-app user', () =>
      given([tokenizable(true, user), processing])
        .when({ ...authorize, savedCard } as TransactionCommand)
        .then([
          {
            type: 'TransactionCompleted',
            data: { transactionId: id, via: 'AUTO_CAPTURE', payment, completedAt: t2, savedCard },
          },
        ]));
    it('is kept on a hold too', () =>
      given([tokenizable(false, user), processing])
        .when({ ...authorize, savedCard } as TransactionCommand)
        .then([
          {
            type: 'TransactionHeld',
            data: { transactionId: id, payment, holdExpiresAt: holdEnd, heldAt: t2, savedCard },
          },
        ]));
    it('is dropped where the payer was not offered saving (not tokenizable, or no host-app user)', () => {
      given([initiated(true), processing])
        .when({ ...authorize, savedCard } as TransactionCommand)
        .then([completed('AUTO_CAPTURE')]);
      given([tokenizable(true, { kind: 'EXTERNAL_USER', externalUserId: 'x-1' }), processing])
        .when({ ...authorize, savedCard } as TransactionCommand)
        .then([completed('AUTO_CAPTURE')]);
    });
  });
  it('an authorization before processing or after an outcome is refused', () => {
    given([initiated()]).when(authorize).thenRejects('TRANSACTION_NOT_PROCESSABLE', { status: 'PENDING' });
    given([initiated(), processing, cancelledBy(t1)])
      .when(authorize)
      .thenRejects('TRANSACTION_NOT_PROCESSABLE', {
        status: 'CANCELLED',
      });
  });

  it('PENDING or PROCESSING → FAILED when the provider declines', () => {
    given([initiated()]).when(decline).then([declined]);
    given([initiated(), processing]).when(decline).then([declined]);
  });
  it('a decline after a hold is refused', () =>
    given([initiated(), processing, held]).when(decline).thenRejects('TRANSACTION_NOT_PROCESSABLE'));

  it('HOLDING → COMPLETED on confirm', () =>
    given([initiated(), processing, held])
      .when(confirm())
      .then([completed('CONFIRM')]));
  for (const [status, history] of [
    ['PENDING', [initiated()]],
    ['PROCESSING', [initiated(), processing]],
    ['COMPLETED', [initiated(), processing, held, completed('CONFIRM')]],
    ['FAILED', [initiated(), declined]],
    ['CANCELLED', [initiated(), processing, held, cancelledBy(t2)]],
  ] as const)
    it(`confirm of a ${status} transaction is refused (4015)`, () =>
      given([...history])
        .when(confirm())
        .thenRejects('TRANSACTION_NOT_CONFIRMABLE', { status }));

  it('HOLDING, PENDING or PROCESSING → CANCELLED on cancel (not captured)', () => {
    given([initiated(), processing, held])
      .when(cancel())
      .then([cancelledBy(t2)]);
    given([initiated()])
      .when(cancel())
      .then([cancelledBy(t2)]);
    given([initiated(), processing])
      .when(cancel())
      .then([cancelledBy(t2)]);
  });
  for (const [status, history] of [
    ['COMPLETED', [initiated(true), processing, completed('AUTO_CAPTURE')]],
    ['FAILED', [initiated(), declined]],
    ['CANCELLED', [initiated(), cancelledBy(t1)]],
  ] as const)
    it(`cancel of a ${status} transaction is refused (4014)`, () =>
      given([...history])
        .when(cancel())
        .thenRejects('TRANSACTION_NOT_CANCELLABLE', { status }));

  it("another terminal's or merchant's confirm or cancel is refused (4200), whatever the state", () => {
    given([initiated(), processing, held])
      .when(confirm({ merchantCode: 'm1', terminalId: 'T2' }))
      .thenRejects('TRANSACTION_NOT_OWNED');
    given([initiated(), processing, held])
      .when(cancel(t2, { merchantCode: 'm2', terminalId: 'T1' }))
      .thenRejects('TRANSACTION_NOT_OWNED');
  });
  it('confirm or cancel of no transaction is refused (4301)', () => {
    given([]).when(confirm()).thenRejects('TRANSACTION_NOT_FOUND');
    given([]).when(cancel()).thenRejects('TRANSACTION_NOT_FOUND');
  });

  describe('settlement at the provider (after the outcome)', () => {
    const settle = (action: 'CAPTURE' | 'VOID'): TransactionCommand => ({
      type: 'RecordProviderSettlement',
      action,
      providerReference: `${action}-p-1`,
      now: t2,
    });
    const settled = (action: 'CAPTURE' | 'VOID'): TransactionEvent => ({
      type: 'TransactionSettledAtProvider',
      data: { transactionId: id, action, providerReference: `${action}-p-1`, settledAt: t2 },
    });
    it('records the capture of a confirmed hold once; a repeat records nothing', () => {
      given([initiated(), processing, held, completed('CONFIRM')])
        .when(settle('CAPTURE'))
        .then([settled('CAPTURE')]);
      given([initiated(), processing, held, completed('CONFIRM'), settled('CAPTURE')])
        .when(settle('CAPTURE'))
        .then([]);
    });
    it('records the void of a cancelled payment', () =>
      given([initiated(), processing, held, cancelledBy(t2)])
        .when(settle('VOID'))
        .then([settled('VOID')]));
    it('refuses a capture before the outcome, a void of a completed payment, a second different settlement', () => {
      given([initiated(), processing, held]).when(settle('CAPTURE')).thenRejects('TRANSACTION_NOT_PROCESSABLE');
      given([initiated(), processing, held, completed('CONFIRM')])
        .when(settle('VOID'))
        .thenRejects('TRANSACTION_NOT_PROCESSABLE');
      given([initiated(), processing, held, cancelledBy(t2), settled('VOID')])
        .when(settle('CAPTURE'))
        .thenRejects('TRANSACTION_NOT_PROCESSABLE');
    });
  });

  describe('hold timeout', () => {
    it('HOLDING → CANCELLED (or TIMEOUT, as configured) once the hold expired', () => {
      const expired = (status: 'CANCELLED' | 'TIMEOUT'): TransactionEvent => ({
        type: 'TransactionCancelled',
        data: {
          transactionId: id,
          by: 'HOLD_TIMEOUT',
          status,
          reason: 'hold expired',
          requestedBy: null,
          cancelledAt: holdEnd,
        },
      });
      given([initiated(), processing, held])
        .when({ type: 'ExpireHold', endStatus: 'CANCELLED', now: holdEnd })
        .then([expired('CANCELLED')]);
      given([initiated(), processing, held])
        .when({ type: 'ExpireHold', endStatus: 'TIMEOUT', now: holdEnd })
        .then([expired('TIMEOUT')]);
    });
    it('does nothing before the hold ends, or once the transaction moved on (a late or repeated timer)', () => {
      given([initiated(), processing, held]).when({ type: 'ExpireHold', endStatus: 'CANCELLED', now: t2 }).then([]);
      given([initiated(), processing, held, completed('CONFIRM')])
        .when({ type: 'ExpireHold', endStatus: 'CANCELLED', now: holdEnd })
        .then([]);
      given([]).when({ type: 'ExpireHold', endStatus: 'CANCELLED', now: holdEnd }).then([]);
    });
  });

  describe('abandonment (no result by expiresAt)', () => {
    const abandoned: TransactionEvent = {
      type: 'TransactionFailed',
      data: {
        transactionId: id,
        reason: 'ABANDONED',
        errorCode: 'ABANDONED',
        errorMessage: 'no payment result before the transaction expired',
        failedAt: abandonAt,
      },
    };
    it('PENDING or PROCESSING → FAILED at expiresAt', () => {
      given([initiated()]).when({ type: 'AbandonTransaction', now: abandonAt }).then([abandoned]);
      given([initiated(), processing]).when({ type: 'AbandonTransaction', now: abandonAt }).then([abandoned]);
    });
    it('does nothing earlier, nor once held or ended', () => {
      given([initiated()]).when({ type: 'AbandonTransaction', now: t2 }).then([]);
      given([initiated(), processing, held]).when({ type: 'AbandonTransaction', now: abandonAt }).then([]);
      given([initiated(), cancelledBy(t1)])
        .when({ type: 'AbandonTransaction', now: abandonAt })
        .then([]);
    });
  });
});
