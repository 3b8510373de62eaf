import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { refundBody } from './refund-support.js';
import {
  expectHubError,
  expectHubOk,
  hub,
  hubHeaders,
  initBody,
  nowSeconds,
  onboardMerchant,
  sandboxPages,
  sign,
  type Onboarded,
} from './support.js';

interface Accepted {
  refundId: string;
  remainingRefundableAmount: number;
  remainingRefundableVpoint?: number;
  status: string;
}
interface Line {
  type: string;
  amount: number;
  status: string;
  referenceId: string | null;
  referenceType: string | null;
  details: Record<string, unknown> | null;
}

const createdAt = 1772359200000;
const voucherLine = {
  type: 'VOUCHER',
  amount: 30_000,
  referenceId: 'RSV-1',
  referenceType: 'RESERVATION',
  details: { voucherCode: 'V-1', promotionId: 'P-1' },
};
// 40,000 points worth 20,000: a point is not a dong, so the refund's VPOINT line values points in proportion.
const pointsLine = { type: 'VPOINT', amount: 20_000, details: { points: '40000' } };

/**
 * Refunds of a transaction paid through a payment session, over HTTP on the whole app (PostgreSQL, relay, the session
 * process manager, the refund reactor, the IPN outbox; docs/payments-refunds.md, "Payment-session transactions"):
 * a 150,000 order = 30,000 voucher + 40,000 points (20,000) + 100,000 paid with the sandbox wallet.
 */
describe('Payment hub refunds of payment-session transactions (HTTP, PostgreSQL)', function () {
  this.timeout(90_000);
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  let app: TestApp;
  let m: Onboarded;
  before(async () => {
    app = await startTestApp({ clock });
    m = await onboardMerchant(app.baseUrl, 'session-refunds');
  });
  after(() => app?.stop());
  const { submit } = sandboxPages(() => app.baseUrl);
  const ts = () => nowSeconds(clock);
  const key = () => m.keys.T1!.paymentApiKey;

  /** A session created, paid through the sandbox wallet (captured at once) and COMPLETED: its transaction id. */
  async function paidSession(orderId: string): Promise<{ transactionId: string; paymentSessionId: string }> {
    const body = {
      orderId,
      referenceId: `REF-${orderId}`,
      originalAmount: 150_000,
      currency: 'VND',
      createdAt,
      breakdown: [voucherLine, pointsLine],
      secureHash: sign(m.secretKey, `${orderId}|REF-${orderId}|150000|VND|${createdAt}`),
    };
    const session = expectHubOk(await hub(app.baseUrl, 'POST', '/payment-sessions', hubHeaders(key(), ts()), body)) as {
      paymentSessionId: string;
      amount: number;
    };
    const init = initBody(m.secretKey, orderId, {
      amount: session.amount,
      paymentSessionId: session.paymentSessionId,
      skipHolding: true,
    });
    init.secureHash = sign(m.secretKey, `${orderId}|REF-${orderId}|100000|VND|${createdAt}|true`);
    const started = expectHubOk(await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(), ts()), init)) as {
      transaction: { id: string };
      paymentInfo: { redirectUrl: string };
    };
    await submit(started.paymentInfo.redirectUrl, { action: 'approve' });
    await eventually(async () => {
      const now = expectHubOk(
        await hub(
          app.baseUrl,
          'GET',
          `/payment-sessions?paymentSessionId=${session.paymentSessionId}`,
          hubHeaders(key(), ts()),
        ),
      ) as { status: string };
      expect(now.status).to.equal('COMPLETED');
    });
    return { transactionId: started.transaction.id, paymentSessionId: session.paymentSessionId };
  }

  const refund = (
    transactionId: string,
    fields: { amount: number; refundReferenceId: string; refundType?: string; refundVpoint?: number },
  ) =>
    hub(
      app.baseUrl,
      'POST',
      '/transactions/refund',
      { ...hubHeaders(key(), ts(), randomUUID()), 'X-User-ID': 'ops-user-1' },
      refundBody(m.secretKey, ts(), { transactionId }, fields),
    );
  const ledger = async (transactionId: string) =>
    (await app.container.store.readStream(`paymentRefunds-${transactionId}`)).map(
      (e) => e as unknown as { type: string; data: Record<string, unknown> },
    );
  const refundIpns = async (transactionId: string) =>
    (await app.container
      .knex('payments_ipn_notifications')
      .where({ transaction_id: transactionId, transaction_type: 'REFUND' })
      .orderBy('position')
      .select('event_type', 'ipn_status', 'payload')) as {
      event_type: string;
      ipn_status: string;
      payload: Record<string, unknown> & { breakdown?: Line[]; refundId: string };
    }[];
  /** The sandbox's refund result, as its signed callback would bring it. */
  async function providerRefunded(transactionId: string, refundId: string): Promise<void> {
    const providerKey = hmacSha256Hex(app.secrets.PAYMENTS_SECRETS_KEY, 'sandbox-provider-key:SANDBOX_WALLET');
    const body = JSON.stringify({
      callbackId: `cb-${refundId}`,
      refundId,
      transactionId,
      providerRefundId: `SBX-RF-${refundId}`,
      result: 'REFUNDED',
      errorCode: null,
      errorMessage: null,
      sentAt: clock.now().toISOString(),
    });
    const res = await fetch(`${app.baseUrl}/payment-providers/v1/SANDBOX_WALLET/refund-callbacks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Provider-Signature': hmacSha256Hex(providerKey, body) },
      body,
    });
    expect(res.status).to.equal(200);
  }

  it('PARTIAL: money and points, never a voucher; each refusal with its code, recording nothing', async () => {
    const { transactionId: id, paymentSessionId } = await paidSession('SR-PART');
    const refuse = async (fields: Parameters<typeof refund>[1], status: number, code: number, text: string) =>
      expect(expectHubError(await refund(id, fields), status, code), JSON.stringify(fields)).to.include(text);
    await refuse({ amount: 1_000, refundReferenceId: 'X1' }, 400, 4001, 'refundVpoint');
    await refuse({ amount: 0, refundReferenceId: 'X2', refundVpoint: 0 }, 400, 4001, 'amount');
    await refuse({ amount: 100_001, refundReferenceId: 'X3', refundVpoint: 0 }, 400, 4012, '100000');
    await refuse({ amount: 0, refundReferenceId: 'X4', refundVpoint: 40_001 }, 400, 4012, '40000');
    expect(await ledger(id)).to.have.length(0);

    const first = expectHubOk(
      await refund(id, { amount: 30_000, refundReferenceId: 'P1', refundVpoint: 10_000 }),
    ) as Accepted;
    expect(first).to.deep.include({
      remainingRefundableAmount: 70_000,
      remainingRefundableVpoint: 30_000,
      status: 'PENDING',
    });
    // Points only: no provider to ask, COMPLETED at once.
    const pointsOnly = expectHubOk(
      await refund(id, { amount: 0, refundReferenceId: 'P2', refundVpoint: 6_000, refundType: 'partial' }),
    ) as Accepted;
    expect(pointsOnly).to.deep.include({
      remainingRefundableAmount: 70_000,
      remainingRefundableVpoint: 24_000,
      status: 'COMPLETED',
    });
    await refuse({ amount: 1, refundReferenceId: 'P1', refundVpoint: 0 }, 409, 4092, 'P1');

    const events = await ledger(id);
    expect(events.map((e) => e.type)).to.include.members(['RefundRequested', 'RefundCompleted']);
    const requested = events.filter((e) => e.type === 'RefundRequested');
    expect(requested.map((e) => [e.data.amount, e.data.refundVpoint, e.data.session])).to.deep.equal([
      [30_000, 10_000, { paymentSessionId, vpoint: 10_000, vpointAmount: 5_000, vouchers: [] }],
      [0, 6_000, { paymentSessionId, vpoint: 6_000, vpointAmount: 3_000, vouchers: [] }],
    ]);

    // The points-only refund is notified at once: amount 0, one VPOINT line for the partner's points system.
    await eventually(async () => {
      // Only the points-only refund's row: the money refund's may be there too (the sandbox reports it ~50 ms on).
      const rows = (await refundIpns(id)).filter((r) => r.payload.refundId === pointsOnly.refundId);
      expect(rows.map((r) => [r.payload.refundId, r.ipn_status])).to.deep.equal([[pointsOnly.refundId, 'COMPLETED']]);
      expect(rows[0]!.payload).to.deep.include({ amount: 0, transactionType: 'REFUND', refundReferenceId: 'P2' });
      expect(rows[0]!.payload.breakdown).to.deep.equal([
        {
          type: 'VPOINT',
          amount: 3_000,
          status: 'SUCCESS',
          referenceId: null,
          referenceType: null,
          details: { points: '6000' },
        },
      ]);
    });
    // The money refund is COMPLETED by the provider's callback, then notified with a PAYMENT and a VPOINT line.
    await eventually(async () =>
      expect(
        (await ledger(id)).some((e) => e.type === 'RefundProcessing' && e.data.refundId === first.refundId),
      ).to.equal(true),
    );
    await providerRefunded(id, first.refundId);
    await eventually(async () => {
      const row = (await refundIpns(id)).find((r) => r.payload.refundId === first.refundId);
      expect(row?.ipn_status).to.equal('COMPLETED');
      expect(row!.payload.amount).to.equal(30_000);
      expect(row!.payload.breakdown!.map((l) => [l.type, l.amount, l.status, l.details])).to.deep.equal([
        ['VPOINT', 5_000, 'SUCCESS', { points: '10000' }],
        ['PAYMENT', 30_000, 'SUCCESS', { method: 'WALLET', provider: 'SANDBOX_WALLET' }],
      ]);
    });
  });

  it('FULL: states the remaining money or the remaining total; returns money, points and the voucher once', async () => {
    const { transactionId: id, paymentSessionId } = await paidSession('SR-FULL');
    expectHubOk(await refund(id, { amount: 10_000, refundReferenceId: 'P1', refundVpoint: 8_000 }));
    // What remains: money 90,000; points 32,000 worth 16,000; the voucher 30,000: total 136,000.
    for (const amount of [150_000, 100_000, 89_999])
      expect(
        expectHubError(await refund(id, { amount, refundReferenceId: 'F', refundType: 'FULL' }), 400, 4012),
      ).to.include('136000');
    expectHubError(
      await refund(id, { amount: 90_000, refundReferenceId: 'F', refundType: 'FULL', refundVpoint: 1 }),
      400,
      4012,
    );
    const full = expectHubOk(
      await refund(id, { amount: 136_000, refundReferenceId: 'F', refundType: 'FULL' }),
    ) as Accepted;
    expect(full).to.deep.include({ remainingRefundableAmount: 0, remainingRefundableVpoint: 0, status: 'PENDING' });
    // Nothing left: neither money, nor points, nor the voucher a second time.
    expectHubError(await refund(id, { amount: 0, refundReferenceId: 'F2', refundType: 'FULL' }), 400, 4012);
    expectHubError(await refund(id, { amount: 0, refundReferenceId: 'P2', refundVpoint: 1 }), 400, 4012);

    const last = (await ledger(id)).find((e) => e.type === 'RefundRequested' && e.data.refundReferenceId === 'F')!;
    expect(last.data).to.deep.include({ amount: 90_000, refundType: 'FULL', remainingRefundableAmount: 0 });
    expect(last.data.session).to.deep.equal({
      paymentSessionId,
      vpoint: 32_000,
      vpointAmount: 16_000,
      vouchers: [
        {
          amount: 30_000,
          referenceId: 'RSV-1',
          referenceType: 'RESERVATION',
          details: { voucherCode: 'V-1', promotionId: 'P-1' },
        },
      ],
    });
    await eventually(async () =>
      expect(
        (await ledger(id)).some((e) => e.type === 'RefundProcessing' && e.data.refundId === full.refundId),
      ).to.equal(true),
    );
    await providerRefunded(id, full.refundId);
    await eventually(async () => {
      const row = (await refundIpns(id)).find((r) => r.payload.refundId === full.refundId);
      expect(row?.ipn_status).to.equal('COMPLETED');
      expect(row!.payload.amount).to.equal(90_000);
      expect(row!.payload.breakdown).to.deep.equal([
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
          amount: 16_000,
          status: 'SUCCESS',
          referenceId: null,
          referenceType: null,
          details: { points: '32000' },
        },
        {
          type: 'PAYMENT',
          amount: 90_000,
          status: 'SUCCESS',
          referenceId: id,
          referenceType: 'TRANSACTION',
          details: { method: 'WALLET', provider: 'SANDBOX_WALLET' },
        },
      ]);
    });
  });

  it("FULL stating the session's total collected (originalAmount) refunds the 100,000 of money", async () => {
    const { transactionId: id } = await paidSession('SR-ORIG');
    const full = expectHubOk(
      await refund(id, { amount: 150_000, refundReferenceId: 'F', refundType: 'full' }),
    ) as Accepted;
    expect(full).to.deep.include({ remainingRefundableAmount: 0, remainingRefundableVpoint: 0 });
    const [requested] = await ledger(id);
    expect(requested!.data).to.deep.include({ amount: 100_000, refundType: 'FULL' });
  });

  it('never over-refunds points: 20 parallel points-only refunds of 5,000 on 40,000 accept exactly 8', async () => {
    const { transactionId: id } = await paidSession('SR-RACE');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => refund(id, { amount: 0, refundReferenceId: `R-${i}`, refundVpoint: 5_000 })),
    );
    const accepted = results.filter((r) => r.status === 200).map((r) => r.body.data as Accepted);
    for (const r of results.filter((x) => x.status !== 200)) expectHubError(r, 400, 4012);
    expect(accepted).to.have.length(8);
    expect(accepted.map((a) => a.remainingRefundableVpoint).sort((a, b) => a! - b!)).to.deep.equal(
      Array.from({ length: 8 }, (_, i) => i * 5_000),
    );
    const requested = (await ledger(id)).filter((e) => e.type === 'RefundRequested');
    const points = requested.reduce((sum, e) => sum + (e.data.session as { vpoint: number }).vpoint, 0);
    const value = requested.reduce((sum, e) => sum + (e.data.session as { vpointAmount: number }).vpointAmount, 0);
    expect([points, value]).to.deep.equal([40_000, 20_000]);
  });

  it('never over-refunds money and points together: parallel PARTIALs and a FULL', async () => {
    const { transactionId: id } = await paidSession('SR-RACE2');
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        refund(id, { amount: 15_000, refundReferenceId: `M-${i}`, refundVpoint: 7_000 }),
      ),
      refund(id, { amount: 150_000, refundReferenceId: 'M-FULL', refundType: 'FULL' }),
    ]);
    for (const r of results.filter((x) => x.status !== 200)) expectHubError(r, 400, 4012);
    const requested = (await ledger(id)).filter((e) => e.type === 'RefundRequested');
    expect(requested).to.have.length(results.filter((r) => r.status === 200).length);
    const money = requested.reduce((sum, e) => sum + (e.data.amount as number), 0);
    const points = requested.reduce((sum, e) => sum + (e.data.session as { vpoint: number }).vpoint, 0);
    const vouchers = requested.filter((e) => (e.data.session as { vouchers: unknown[] }).vouchers.length > 0);
    expect(money).to.be.at.most(100_000);
    expect(points).to.be.at.most(40_000);
    expect(vouchers.length).to.be.at.most(1);
  });
});
