/**
 * IPN delivery against real local receivers (docs/ipn.md): the whole service on PostgreSQL with its ipn role, the
 * hub's events appended, and node:http receivers that answer, fail, hang, close the connection or answer slowly.
 * Timeouts and backoff are shortened (500 ms, first retry 100 ms) so the schedules run in test time.
 */
import { expect } from 'chai';
import { verifyIpn } from '../../../examples/ipn-receiver/verify-ipn.js';
import { ipnWebhookApp } from '../../../examples/ipn-receiver/webhook.js';
import { listen } from '../../../api/shared/http-app.js';
import { newCommandContext } from '../../../application/shared/command-context.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { until } from '../../support/main-process.js';
import {
  appendTransaction,
  onboardIpnMerchant,
  partner,
  startReceiver,
  success,
  type Receiver,
} from '../../support/ipn.js';
import { call, operatorHeaders } from '../../api/support.js';

describe('payment hub: IPN delivery to real receivers (PostgreSQL)', function () {
  this.timeout(60_000);
  let app: TestApp;
  const receivers: Receiver[] = [];
  let n = 0;
  const code = () => `ipn-${process.pid}-${++n}-${Date.now() % 100000}`;

  before(async () => {
    app = await startTestApp({
      env: {
        PAYMENTS_IPN_TIMEOUT_MS: '500',
        PAYMENTS_IPN_FIRST_RETRY_MS: '100',
        PAYMENTS_IPN_POLL_MS: '50',
        PAYMENTS_IPN_PER_MERCHANT: '2',
      },
    });
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await app?.stop();
  });

  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
  const payments = () => app.container.services.payments;
  const notification = async (transactionId: string) =>
    (await app.db.knex('payments_ipn_notifications').where({ transaction_id: transactionId }).orderBy('position')) as {
      notification_id: string;
      status: string;
      attempts: number;
    }[];
  const attempts = async (transactionId: string) =>
    (await app.db
      .knex('payments_ipn_attempts')
      .where({ transaction_id: transactionId })
      .orderBy('attempt_no')) as Record<string, unknown>[];
  const ended = (transactionId: string, status: string, ms = 20_000) =>
    until(
      `the notification of ${transactionId} ${status}`,
      async () => {
        const rows = await notification(transactionId);
        return rows.length > 0 && rows.every((r) => r.status === status) ? rows : undefined;
      },
      ms,
    );

  it('posts a COMPLETED payment once, signed with the merchant secretKey, with every field of the seed', async () => {
    const r = await receiver();
    const merchant = code();
    const secretKey = await onboardIpnMerchant(payments(), merchant, r.url);
    const { transactionId, orderId } = await appendTransaction(app.container.store, merchant, 'COMPLETED');
    await ended(transactionId, 'DELIVERED');
    expect(r.received).to.have.length(1);
    const body = r.received[0]!.body;
    expect(Object.keys(body)).to.include.members([
      'orderId',
      'transactionId',
      'providerTransactionId',
      'providerInvoiceId',
      'referenceId',
      'transactionType',
      'amount',
      'currency',
      'status',
      'processedAt',
      'paymentMethod',
      'paymentProvider',
      'bankName',
      'accountHolderName',
      'cardNo',
      'fees',
      'orderInfo',
      'secureHash',
      'errorCode',
      'errorMessage',
    ]);
    expect(body).to.include({
      orderId,
      transactionId,
      transactionType: 'PAYMENT',
      status: 'COMPLETED',
      amount: 150000,
    });
    expect(body.cardNo).to.equal('411111******1111');
    expect(body.orderInfo).to.deep.equal({
      customerName: 'Nguyen Van A',
      customerEmail: 'a@example.vn',
      customerPhone: null,
      orderCreatedAt: 1772359200000,
      notes: null,
    });
    expect(verifyIpn(body as never, secretKey)).to.equal(true);
    expect(verifyIpn({ ...body, amount: 150001 } as never, secretKey)).to.equal(false);
    expect(r.received[0]!.headers['content-type']).to.equal('application/json');
    const [a] = await attempts(transactionId);
    expect(a).to.include({
      attempt_no: 1,
      url: r.url,
      http_status: 200,
      partner_status: 'SUCCESS',
      verdict: 'DELIVERED',
    });
    expect(a!.latency_ms).to.be.a('number');
    expect(a!.response_head).to.include('SUCCESS');
  });

  it('delivers to the example partner route (examples/ipn-receiver), which verifies it; a resend is its DUPLICATE', async () => {
    const got: { status: string; answered: string }[] = [];
    const merchant = code();
    const secretKey = await onboardIpnMerchant(payments(), merchant, 'http://127.0.0.1:9/not-yet');
    const server = await listen(
      ipnWebhookApp({
        secretKey,
        onReceived: ({ payload, answer }) => got.push({ status: String(payload.status), answered: answer.status }),
      }),
      0,
      '127.0.0.1',
    );
    try {
      await payments().onboarding.changeIpn(newCommandContext({ actor: { operator: 'ipn-test' } }), merchant, {
        ipnUrl: `http://127.0.0.1:${server.port}/api/v1/payment-webhook`,
      });
      const { transactionId } = await appendTransaction(app.container.store, merchant, 'COMPLETED');
      const [row] = await ended(transactionId, 'DELIVERED');
      expect(got).to.deep.equal([{ status: 'COMPLETED', answered: 'SUCCESS' }]);
      const resent = await call(
        app.baseUrl,
        'POST',
        `/operator/v1/payment-merchants/${merchant}/ipn-notifications/${row!.notification_id}/resend`,
        {
          headers: operatorHeaders(),
        },
      );
      expect(resent.status).to.equal(200);
      await until('the resend answered', () => (got.length === 2 ? true : undefined));
      await ended(transactionId, 'DELIVERED');
      expect(got[1]).to.deep.equal({ status: 'COMPLETED', answered: 'DUPLICATE' });
      const rows = await attempts(transactionId);
      expect(rows.map((a) => a.partner_status)).to.deep.equal(['SUCCESS', 'DUPLICATE']);
    } finally {
      await server.close(100);
    }
  });

  it('retries 500s with growing waits, then delivers: three attempts recorded', async () => {
    const r = await receiver((_req, i) => (i <= 2 ? { answer: 503, body: 'busy' } : success));
    const merchant = code();
    await onboardIpnMerchant(payments(), merchant, r.url);
    const { transactionId } = await appendTransaction(app.container.store, merchant, 'DECLINED');
    await ended(transactionId, 'DELIVERED');
    expect(r.received.map((x) => x.headers['x-ipn-attempt'])).to.deep.equal(['1', '2', '3']);
    const gap1 = r.received[1]!.at - r.received[0]!.at;
    const gap2 = r.received[2]!.at - r.received[1]!.at;
    expect(gap1).to.be.at.least(100);
    expect(gap2).to.be.at.least(200);
    expect(r.received[0]!.body).to.include({ status: 'FAILED', errorCode: 'USER_CANCELLED' });
    const rows = await attempts(transactionId);
    expect(rows.map((x) => x.verdict)).to.deep.equal(['RETRY', 'RETRY', 'DELIVERED']);
    expect(rows[0]).to.include({ http_status: 503, response_head: 'busy' });
  });

  it('gives up on a receiver that hangs past the timeout and retries it', async () => {
    const r = await receiver((_req, i) => (i === 1 ? { hang: true } : success));
    const merchant = code();
    await onboardIpnMerchant(payments(), merchant, r.url);
    const { transactionId } = await appendTransaction(app.container.store, merchant);
    await ended(transactionId, 'DELIVERED');
    const rows = await attempts(transactionId);
    expect(rows).to.have.length(2);
    expect(rows[0]).to.include({ verdict: 'RETRY', http_status: null, error: 'no answer within 500 ms' });
    expect(rows[0]!.latency_ms as number).to.be.within(450, 2000);
  });

  it('retries when the receiver closes the connection without an answer', async () => {
    const r = await receiver((_req, i) => (i === 1 ? { close: true } : success));
    const merchant = code();
    await onboardIpnMerchant(payments(), merchant, r.url);
    const { transactionId } = await appendTransaction(app.container.store, merchant);
    await ended(transactionId, 'DELIVERED');
    const rows = await attempts(transactionId);
    expect(rows.map((x) => x.verdict)).to.deep.equal(['RETRY', 'DELIVERED']);
    expect(rows[0]!.error).to.match(/ECONNRESET|socket hang up/);
  });

  it('waits for a slow answer within the timeout: one attempt', async () => {
    const r = await receiver(() => ({ ...success, delayMs: 300 }));
    const merchant = code();
    await onboardIpnMerchant(payments(), merchant, r.url);
    const { transactionId } = await appendTransaction(app.container.store, merchant);
    await ended(transactionId, 'DELIVERED');
    const rows = await attempts(transactionId);
    expect(rows).to.have.length(1);
    expect(rows[0]!.latency_ms as number).to.be.at.least(290);
  });

  it('ends on the partner statuses and 4xx as docs/ipn.md says, and follows no redirect', async () => {
    const cases: [string, typeof success, string][] = [
      ['duplicate', partner('DUPLICATE'), 'DELIVERED'],
      ['invalid-hash', partner('INVALID_HASH'), 'REJECTED'],
      ['order-not-found', partner('ORDER_NOT_FOUND'), 'REJECTED'],
      ['partner-failed', partner('FAILED'), 'REJECTED'],
      ['not-json', { answer: 200, body: 'OK' }, 'DELIVERED'],
      ['bad-request', { answer: 400, body: '{}' }, 'REJECTED'],
      ['redirect', { answer: 302, headers: { Location: 'http://127.0.0.1:1/elsewhere' } }, 'REJECTED'],
    ];
    for (const [name, reply, status] of cases) {
      const r = await receiver(() => reply);
      const merchant = code();
      await onboardIpnMerchant(payments(), merchant, r.url);
      const { transactionId } = await appendTransaction(app.container.store, merchant);
      await ended(transactionId, status);
      expect(r.received, name).to.have.length(1);
    }
  });

  it('sends the notifications of one transaction in processedAt order', async () => {
    const r = await receiver();
    const merchant = code();
    await onboardIpnMerchant(payments(), merchant, r.url);
    const { transactionId } = await appendTransaction(app.container.store, merchant, 'HELD_THEN_COMPLETED');
    await ended(transactionId, 'DELIVERED');
    expect(r.received.map((x) => x.body.status)).to.deep.equal(['HOLDING', 'COMPLETED']);
    const [held, completed] = r.received.map((x) => x.body.processedAt as number);
    expect(held).to.be.below(completed!);
  });

  it('marks a notification EXHAUSTED after the maximum retries, lists it, and sends it again on an operator resend', async () => {
    let up = false;
    const r = await receiver(() => (up ? success : { answer: 500 }));
    const merchant = code();
    await onboardIpnMerchant(payments(), merchant, r.url, 2);
    const { transactionId } = await appendTransaction(app.container.store, merchant, 'CANCELLED');
    const rows = await ended(transactionId, 'EXHAUSTED');
    // Two notifications (HOLDING, then the hold-timeout CANCEL), each sent once and retried twice.
    const cancels = r.received.filter((x) => x.body.transactionType === 'CANCEL');
    expect(cancels).to.have.length(3);
    expect(r.received).to.have.length(6);
    expect(cancels[0]!.body).to.include({ status: 'CANCELLED', errorCode: 'HOLD_TIMEOUT' });
    const base = `/operator/v1/payment-merchants/${merchant}`;
    const listed = await call<{ items: { status: string; notificationId: string }[] }>(
      app.baseUrl,
      'GET',
      `${base}/ipn-notifications?status=EXHAUSTED`,
      { headers: operatorHeaders() },
    );
    expect(listed.status).to.equal(200);
    expect(listed.body!.data!.items.map((i) => i.status)).to.deep.equal(['EXHAUSTED', 'EXHAUSTED']);
    const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
    expect(metrics).to.match(/ipn_attempts_total\{verdict="EXHAUSTED"\} [1-9]/);
    // The outbox counts, refreshed every 5 s by the ipn role.
    await until(
      'the exhausted ones counted at /metrics',
      async () =>
        (await (await fetch(`${app.baseUrl}/metrics`)).text()).match(/ipn_notifications\{status="EXHAUSTED"\} [1-9]/)
          ? true
          : undefined,
      15_000,
    );
    const ready = (await (await fetch(`${app.baseUrl}/ready`)).json()) as {
      roles: { ipn: { feeds: { projector: string; applying: boolean }[]; dispatchers: { sending: number }[] } };
    };
    expect(ready.roles.ipn.feeds.map((f) => [f.projector, f.applying])).to.deep.equal([
      ['payments-ipn-outbox', true],
      // The payment sessions' final notifications (docs/payments-sessions.md).
      ['payments-session-ipn-outbox', true],
    ]);
    expect(ready.roles.ipn.dispatchers[0]!.sending).to.be.a('number');
    up = true;
    const cancel = rows[1]!.notification_id;
    const one = await call<{ status: string; resentBy: string }>(
      app.baseUrl,
      'POST',
      `${base}/ipn-notifications/${cancel}/resend`,
      {
        headers: operatorHeaders(),
      },
    );
    expect(one.body!.data).to.include({ status: 'PENDING', resentBy: 'alice' });
    await until('the resent CANCEL delivered', async () =>
      (await notification(transactionId))[1]!.status === 'DELIVERED' ? true : undefined,
    );
    const resent = await call<{ resent: number }>(app.baseUrl, 'POST', `${base}/ipn-notifications/resend-exhausted`, {
      headers: operatorHeaders(),
    });
    expect(resent.body!.data!.resent).to.equal(1);
    const after = await ended(transactionId, 'DELIVERED');
    expect(after.map((x) => x.attempts)).to.deep.equal([4, 4]);
    const history = await call<{ items: { attemptNo: number; verdict: string }[] }>(
      app.baseUrl,
      'GET',
      `${base}/ipn-attempts?notificationId=${cancel}`,
      { headers: operatorHeaders() },
    );
    expect(history.body!.data!.items.map((i) => [i.attemptNo, i.verdict])).to.deep.equal([
      [4, 'DELIVERED'],
      [3, 'EXHAUSTED'],
      [2, 'RETRY'],
      [1, 'RETRY'],
    ]);
    const bad = await call(app.baseUrl, 'GET', `${base}/ipn-notifications?status=LOST`, { headers: operatorHeaders() });
    expect(bad.status).to.equal(400);
    const unknown = await call(app.baseUrl, 'POST', `${base}/ipn-notifications/${transactionId}/resend`, {
      headers: operatorHeaders(),
    });
    expect(unknown.status).to.equal(404);
  });

  it('keeps delivering to a healthy merchant while a dead one fails: no head-of-line blocking', async () => {
    const dead = await receiver(() => ({ hang: true }));
    const deadMerchant = code();
    await onboardIpnMerchant(payments(), deadMerchant, dead.url, 10);
    for (let i = 0; i < 20; i++) await appendTransaction(app.container.store, deadMerchant);
    const r = await receiver();
    const healthy = code();
    await onboardIpnMerchant(payments(), healthy, r.url);
    const started = Date.now();
    const txs = [];
    for (let i = 0; i < 5; i++) txs.push(await appendTransaction(app.container.store, healthy));
    for (const t of txs) await ended(t.transactionId, 'DELIVERED', 5_000);
    expect(Date.now() - started).to.be.below(3_000);
    // The dead merchant never had more than its 2 slots hanging at once.
    const inFlight = await app.db
      .knex('payments_ipn_attempts')
      .where({ merchant_code: deadMerchant })
      .whereNull('verdict')
      .count({ n: '*' });
    expect(Number(inFlight[0]!.n)).to.be.at.most(2);
  });
});
