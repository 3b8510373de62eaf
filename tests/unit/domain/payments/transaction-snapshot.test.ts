import { expect } from 'chai';
import { signIpn } from '../../../../application/payments/index.js';
import type { TransactionEvent } from '../../../../domain/payments/events.js';
import { ipnContentFor, ipnFactsOfSnapshot, type IpnTransactionFacts } from '../../../../domain/payments/ipn.js';
import type { TransactionDetails } from '../../../../domain/payments/transaction-details.js';
import { transactionDecider, type TransactionCommand } from '../../../../domain/payments/transaction.js';
import { fold } from '../../../../domain/shared/decider.js';
import { scenario } from '../../../support/decider-spec.js';

/**
 * Transaction snapshots in the transaction decider, and what refunds and snapshots notify by IPN
 * (docs/payments-refunds.md, "Transaction snapshot" and "Notifications").
 */
const given = scenario(transactionDecider);
const t0 = '2026-03-01T10:00:00.000Z';
const processedAt = '2026-03-01T09:59:00.000Z';
const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

const details: TransactionDetails = {
  transactionId: id,
  merchantCode: 'm1',
  merchantName: 'Shop One',
  terminalId: 'T1',
  orderId: 'ORD-1001',
  referenceId: 'REF-1001',
  amount: 150_000,
  currency: 'VND',
  description: 'order',
  paymentMethod: { id: 'pm', code: 'WALLET', name: 'Wallet', type: 'WALLET' },
  provider: { id: 'pv', code: 'SANDBOX_WALLET', name: 'Sandbox wallet' },
  cardType: '3D',
  skipHolding: true,
  userPaymentMethodId: null,
  tokenizable: false,
  sellerMerchantId: null,
  businessUnitId: null,
  branchId: null,
  returnUrl: null,
  providerData: null,
  orderInfo: { customerName: 'Nguyen Van A', orderCreatedAt: 1772359200000 },
  payer: { kind: 'NONE' },
  miniAppId: null,
  expiresAt: t0,
  createdAt: t0,
};

const record = (extra: Partial<Extract<TransactionCommand, { type: 'RecordTransactionSnapshot' }>> = {}) =>
  ({
    type: 'RecordTransactionSnapshot',
    details,
    status: 'COMPLETED',
    providerTransactionId: 'EXT-1',
    processedAt,
    errorCode: null,
    errorMessage: null,
    now: t0,
    ...extra,
  }) as TransactionCommand;

const recorded = (extra = {}): TransactionEvent => ({
  type: 'TransactionSnapshotRecorded',
  data: {
    ...details,
    status: 'COMPLETED',
    providerTransactionId: 'EXT-1',
    processedAt,
    errorCode: null,
    errorMessage: null,
    ...extra,
  },
});

describe('transaction snapshot (transaction decider)', () => {
  it('given no transaction, when a COMPLETED snapshot is recorded, then it exists COMPLETED (error data dropped)', () => {
    given([])
      .when(record({ errorCode: 'ignored', errorMessage: 'ignored' }))
      .then([recorded()]);
    const state = fold(transactionDecider, [recorded()]);
    expect(state).to.deep.include({ status: 'COMPLETED', providerTransactionId: 'EXT-1', updatedAt: t0 });
  });

  it('when FAILED with error data, then it exists FAILED with them', () => {
    const failed = { status: 'FAILED' as const, errorCode: 'E1', errorMessage: 'declined elsewhere' };
    given([])
      .when(record(failed))
      .then([recorded(failed)]);
    expect(fold(transactionDecider, [recorded(failed)])).to.deep.include({ status: 'FAILED', errorCode: 'E1' });
  });

  it('when the status is not COMPLETED or FAILED, then 4016', () => {
    for (const status of ['PENDING', 'HOLDING', 'CANCELLED', 'completed'])
      given([]).when(record({ status })).thenRejects('INVALID_SNAPSHOT_STATUS', { field: 'status' });
  });

  it('when FAILED without errorCode or errorMessage, then 4017', () => {
    given([])
      .when(record({ status: 'FAILED', errorMessage: 'x' }))
      .thenRejects('MISSING_ERROR_INFORMATION', { field: 'errorCode' });
    given([])
      .when(record({ status: 'FAILED', errorCode: 'x' }))
      .thenRejects('MISSING_ERROR_INFORMATION', { field: 'errorMessage' });
  });

  it('given the transaction exists, when a snapshot names it, then it is refused (an id handed out twice)', () => {
    given([recorded()]).when(record()).thenRejects('TRANSACTION_EXISTS');
  });

  it('a COMPLETED snapshot transaction is refundable; confirm and cancel refuse it', () => {
    const owner = { merchantCode: 'm1', terminalId: 'T1' };
    given([recorded()])
      .when({ type: 'ConfirmTransaction', caller: owner, now: t0 })
      .thenRejects('TRANSACTION_NOT_CONFIRMABLE');
    given([recorded()])
      .when({ type: 'CancelTransaction', caller: owner, reason: null, requestedBy: null, now: t0 })
      .thenRejects('TRANSACTION_NOT_CANCELLABLE');
  });
});

describe('IPN of refunds and snapshots', () => {
  const facts: IpnTransactionFacts = ipnFactsOfSnapshot(recorded().data as never);
  const secretKey = 'phs_demoSecretKeyForTheIpnVector0000000000000000';

  it('a snapshot notifies nothing (the partner reported it); its facts carry its provider id', () => {
    expect(ipnContentFor(facts, recorded())).to.equal(null);
    expect(facts.providerTransactionId).to.equal('EXT-1');
  });

  it('a completed refund notifies REFUND COMPLETED with the refund amount, signed as the hand-written vector', () => {
    const content = ipnContentFor(facts, {
      type: 'RefundCompleted',
      data: {
        transactionId: id,
        refundId: 'rf-1',
        refundReferenceId: 'RF-0001',
        amount: 40_000,
        currency: 'VND',
        providerRefundId: 'SBX-RF-rf-1',
        completedAt: '2026-03-01T10:01:00.123Z',
      },
    })!;
    expect(content).to.include({
      transactionType: 'REFUND',
      status: 'COMPLETED',
      amount: 40_000,
      currency: 'VND',
      orderId: 'ORD-1001',
      transactionId: id,
      refundId: 'rf-1',
      refundReferenceId: 'RF-0001',
      processedAt: 1772359260123,
      errorCode: null,
    });
    // printf '%s' 'ORD-1001|7c9e…|REFUND|40000|COMPLETED|1772359260123' | openssl dgst -sha256 -hmac '<secretKey>'
    expect(signIpn(content, secretKey).secureHash).to.equal(
      'b94fa0ac1c69a20da31cbad3473ea58ce865b664ab73cb91b4fadde485c6d4b1',
    );
  });

  it('a failed refund notifies REFUND FAILED with its error; a PENDING request or a refund snapshot nothing', () => {
    const content = ipnContentFor(facts, {
      type: 'RefundFailed',
      data: {
        transactionId: id,
        refundId: 'rf-2',
        refundReferenceId: 'RF-0002',
        amount: 5_099,
        currency: 'VND',
        errorCode: 'REFUND_DECLINED',
        errorMessage: 'refused',
        failedAt: t0,
      },
    })!;
    expect(content).to.include({
      transactionType: 'REFUND',
      status: 'FAILED',
      amount: 5_099,
      errorCode: 'REFUND_DECLINED',
    });
    expect(
      ipnContentFor(facts, {
        type: 'RefundProcessing',
        data: { transactionId: id, refundId: 'rf-2', providerRefundId: 'p', processingAt: t0 },
      }),
    ).to.equal(null);
  });
});
