/**
 * Refunds carried out at the provider, end to end (docs/payments-refunds.md, "At the provider"): the whole service on
 * PostgreSQL with its background roles; a refund request over HTTP, the refund reactor handing it to the sandbox
 * provider, the sandbox's signed refund callback over HTTP completing (or, for an amount ending in 99, failing) it, and
 * the partner notified by IPN with transactionType REFUND. The sandbox posts its callbacks to a local forwarder,
 * which passes them to the app once its port is known.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { verifyIpn } from '../../../examples/ipn-receiver/verify-ipn.js';
import { refundLedgerDecider, refundOf } from '../../../application/payments/index.js';
import { fold } from '../../../domain/shared/decider.js';
import { paymentsDecoders } from '../../../domain/payments/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { startReceiver, type Receiver } from '../../support/ipn.js';
import { until } from '../../support/main-process.js';
import { call, expectOk, operatorHeaders } from '../../api/support.js';
import { refundBody, transactionSnapshotBody } from '../../api/payments/refund-support.js';
import { expectHubOk, hub, hubHeaders, onboardMerchant, sign, type Onboarded } from '../../api/payments/support.js';

describe('payment hub: refunds at the sandbox provider, their callbacks and IPN (PostgreSQL)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let forwarder: http.Server;
  let receiver: Receiver;
  let m: Onboarded;
  let target = '';
  const forwarded: { path: string; status: number }[] = [];

  before(async () => {
    forwarder = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'x-provider-signature'])
          if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
        fetch(`${target}${req.url ?? ''}`, { method: req.method, headers, body: raw }).then(
          async (answer) => {
            forwarded.push({ path: req.url ?? '', status: answer.status });
            res.writeHead(answer.status, { 'Content-Type': 'application/json' });
            res.end(await answer.text());
          },
          () => {
            res.writeHead(502);
            res.end();
          },
        );
      });
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    const { port } = forwarder.address() as AddressInfo;
    app = await startTestApp({
      env: {
        PAYMENTS_SANDBOX_CALLBACK_BASE_URL: `http://127.0.0.1:${port}`,
        PAYMENTS_IPN_POLL_MS: '50',
      },
    });
    target = app.baseUrl;
    receiver = await startReceiver();
    m = await onboardMerchant(app.baseUrl, `rf-${process.pid}-${Date.now() % 100000}`);
    expectOk(
      await call(app.baseUrl, 'PATCH', `/operator/v1/payment-merchants/${m.merchantCode}`, {
        headers: operatorHeaders(),
        json: { ipnUrl: receiver.url },
      }),
    );
  });
  after(async () => {
    await receiver?.close();
    await app?.stop();
    await new Promise<void>((resolve) => (forwarder ? forwarder.close(() => resolve()) : resolve()));
  });

  const ts = () => String(Math.floor(Date.now() / 1000));
  const key = () => m.keys.T1!.paymentApiKey;

  async function completedTransaction(orderId: string): Promise<string> {
    expectHubOk(
      await hub(
        app.baseUrl,
        'POST',
        '/transactions/snapshot',
        hubHeaders(key(), ts()),
        transactionSnapshotBody(m.secretKey, ts(), orderId),
      ),
    );
    const found = expectHubOk(
      await hub(
        app.baseUrl,
        'GET',
        `/transactions?orderId=${orderId}&referenceId=REF-${orderId}`,
        hubHeaders(key(), ts()),
      ),
    ) as { items: { id: string }[] };
    return found.items[0]!.id;
  }

  const requestRefund = async (transactionId: string, amount: number, refundReferenceId: string) =>
    expectHubOk(
      await hub(
        app.baseUrl,
        'POST',
        '/transactions/refund',
        { ...hubHeaders(key(), ts()), 'X-User-ID': 'ops-1' },
        refundBody(m.secretKey, ts(), { transactionId }, { amount, refundReferenceId }),
      ),
    ) as { refundId: string; remainingRefundableAmount: number; status: string };

  const refundEnded = (transactionId: string, refundId: string) =>
    until(`refund ${refundId} ended`, async () => {
      const events = await app.container.store.readStream(`paymentRefunds-${transactionId}`);
      const refund = refundOf(
        fold(
          refundLedgerDecider,
          events.map((e) => paymentsDecoders.refunds.decode(e)),
        ),
        refundId,
      );
      return refund && (refund.status === 'COMPLETED' || refund.status === 'FAILED') ? refund : undefined;
    });

  const notifications = (transactionId: string) =>
    app.db.knex('payments_ipn_notifications').where({ transaction_id: transactionId }).orderBy('position') as Promise<
      { transaction_type: string; ipn_status: string; payload: Record<string, unknown>; status: string }[]
    >;

  it('carries a refund to the sandbox, whose signed callback completes it; the partner gets a REFUND IPN', async () => {
    const transactionId = await completedTransaction('RX-1');
    const accepted = await requestRefund(transactionId, 40000, 'RX-1-R1');
    expect(accepted).to.deep.include({ status: 'PENDING', remainingRefundableAmount: 110000 });
    const refund = await refundEnded(transactionId, accepted.refundId);
    expect(refund).to.include({ status: 'COMPLETED', providerRefundId: `SBX-RF-${accepted.refundId}` });
    const types = (await app.container.store.readStream(`paymentRefunds-${transactionId}`)).map((e) => e.type);
    // PROCESSING is recorded unless the provider's callback came first (then the late mark records nothing).
    expect(types.join()).to.be.oneOf([
      'RefundRequested,RefundProcessing,RefundCompleted',
      'RefundRequested,RefundCompleted',
    ]);
    expect(
      forwarded.some((f) => f.path === '/payment-providers/v1/SANDBOX_WALLET/refund-callbacks' && f.status === 200),
    ).to.equal(true);

    // One notification: the refund's (the snapshot that created the transaction notifies nothing).
    const rows = await until('the REFUND notification', async () => {
      const r = await notifications(transactionId);
      return r.length > 0 && r.every((n) => n.status === 'DELIVERED') ? r : undefined;
    });
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ transaction_type: 'REFUND', ipn_status: 'COMPLETED' });
    const body = receiver.received.find((r) => r.body.transactionId === transactionId)!.body;
    expect(body).to.include({
      transactionType: 'REFUND',
      status: 'COMPLETED',
      amount: 40000,
      currency: 'VND',
      orderId: 'RX-1',
      refundId: accepted.refundId,
      refundReferenceId: 'RX-1-R1',
      providerTransactionId: 'EXT-RX-1',
    });
    expect(verifyIpn(body as never, m.secretKey)).to.equal(true);
  });

  it('a refund the sandbox refuses (amount ending in 99) ends FAILED, is notified, and gives its amount back', async () => {
    const transactionId = await completedTransaction('RX-2');
    const accepted = await requestRefund(transactionId, 5099, 'RX-2-R1');
    const refund = await refundEnded(transactionId, accepted.refundId);
    expect(refund).to.include({ status: 'FAILED', errorCode: 'REFUND_DECLINED' });
    const rows = await until('the REFUND FAILED notification', async () => {
      const r = await notifications(transactionId);
      return r.length > 0 ? r : undefined;
    });
    expect(rows[0]).to.include({ transaction_type: 'REFUND', ipn_status: 'FAILED' });
    expect(rows[0]!.payload).to.include({ amount: 5099, errorCode: 'REFUND_DECLINED' });
    // The failed amount is refundable again: the whole transaction can now be refunded.
    const full = await requestRefund(transactionId, 150000, 'RX-2-R2');
    expect(full.remainingRefundableAmount).to.equal(0);
  });

  it('refund callbacks: a wrong signature 401, an unknown refund 404, a repeat 200, a contradicting result 409', async () => {
    const transactionId = await completedTransaction('RX-3');
    const accepted = await requestRefund(transactionId, 1000, 'RX-3-R1');
    await refundEnded(transactionId, accepted.refundId);
    const providerKey = hmacSha256Hex(app.secrets.PAYMENTS_SECRETS_KEY, 'sandbox-provider-key:SANDBOX_WALLET');
    const callback = (refundId: string, result: 'REFUNDED' | 'FAILED') =>
      JSON.stringify({
        callbackId: `cb-${refundId}-${result}`,
        refundId,
        transactionId,
        providerRefundId: `SBX-RF-${refundId}`,
        result,
        errorCode: result === 'FAILED' ? 'LATE' : null,
        errorMessage: result === 'FAILED' ? 'late' : null,
        sentAt: new Date().toISOString(),
      });
    const post = (body: string, signature = hmacSha256Hex(providerKey, body)) =>
      fetch(`${app.baseUrl}/payment-providers/v1/SANDBOX_WALLET/refund-callbacks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Provider-Signature': signature },
        body,
      });
    const repeat = callback(accepted.refundId, 'REFUNDED');
    expect((await post(repeat, sign('not-the-provider-key', repeat))).status).to.equal(401);
    expect((await post(callback('0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f', 'REFUNDED'))).status).to.equal(404);
    const again = await post(repeat);
    expect(again.status).to.equal(200);
    expect(await again.json()).to.deep.equal({ code: 'OK', status: 'COMPLETED' });
    expect((await post(callback(accepted.refundId, 'FAILED'))).status).to.equal(409);
    const types = (await app.container.store.readStream(`paymentRefunds-${transactionId}`)).map((e) => e.type);
    // PROCESSING is recorded unless the provider's callback came first (then the late mark records nothing).
    expect(types.join()).to.be.oneOf([
      'RefundRequested,RefundProcessing,RefundCompleted',
      'RefundRequested,RefundCompleted',
    ]);
  });

  it("lists snapshot transactions in the operators' projection, refunds leaving their row as it was", async () => {
    const completed = await completedTransaction('RX-4');
    expectHubOk(
      await hub(
        app.baseUrl,
        'POST',
        '/transactions/snapshot',
        hubHeaders(key(), ts()),
        transactionSnapshotBody(m.secretKey, ts(), 'RX-5', { status: 'FAILED', errorCode: 'EXT', errorMessage: 'no' }),
      ),
    );
    const accepted = await requestRefund(completed, 1000, 'RX-4-R1');
    await refundEnded(completed, accepted.refundId);
    type Listed = { items: { orderId: string; status: string; transactionId: string; errorCode: string | null }[] };
    const items = await until('the snapshot rows', async () => {
      const listed = expectOk(
        await call<Listed>(app.baseUrl, 'GET', `/operator/v1/payment-merchants/${m.merchantCode}/transactions`, {
          headers: operatorHeaders(),
        }),
      ).items;
      return ['RX-4', 'RX-5'].every((o) => listed.some((i) => i.orderId === o)) ? listed : undefined;
    });
    expect(items.find((i) => i.orderId === 'RX-4')).to.deep.include({ status: 'COMPLETED', transactionId: completed });
    expect(items.find((i) => i.orderId === 'RX-5')).to.deep.include({ status: 'FAILED', errorCode: 'EXT' });
  });
});
