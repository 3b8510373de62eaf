/**
 * IPNs under the egress policy (docs/ipn.md, "Operations"; docs/outbound.md), the whole service on PostgreSQL with its
 * ipn role and EGRESS_ALLOW_LOOPBACK off, as in production: a postback stored before the policy existed that leads to
 * a refused address is not sent to (the attempt is REJECTED, saying why) and the receiver there gets nothing; what the
 * attempt log keeps of a partner's answer is a short excerpt without control characters.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { until } from '../../support/main-process.js';
import { appendTransaction, onboardIpnMerchant, startReceiver, type Receiver } from '../../support/ipn.js';
import { startSink, type Sink } from '../../support/sink.js';

describe('payment hub: IPN delivery under the egress policy (PostgreSQL)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let n = 0;
  const code = () => `egress-${process.pid}-${++n}`;
  const closing: { close(): Promise<void> }[] = [];

  before(async () => {
    app = await startTestApp({
      env: {
        EGRESS_ALLOW_LOOPBACK: 'false',
        PAYMENTS_IPN_TIMEOUT_MS: '500',
        PAYMENTS_IPN_FIRST_RETRY_MS: '100',
        PAYMENTS_IPN_POLL_MS: '50',
      },
    });
  });
  after(async () => {
    for (const c of closing) await c.close();
    await app?.stop();
  });

  const attempts = (transactionId: string) =>
    until(
      `the attempt of ${transactionId} recorded`,
      async () => {
        const rows = (await app.db
          .knex('payments_ipn_attempts')
          .where({ transaction_id: transactionId })
          .whereNotNull('verdict')) as Record<string, unknown>[];
        return rows.length > 0 ? rows : undefined;
      },
      20_000,
    );

  /** A merchant onboarded with a public postback, whose stored postback then became `ipnUrl` (as before the policy). */
  async function merchantPostingTo(ipnUrl: string): Promise<string> {
    const merchant = code();
    await onboardIpnMerchant(app.container.services.payments, merchant, 'https://partner.example/ipn');
    const now = new Date().toISOString();
    await app.container.store.append(
      `paymentMerchant-${merchant}`,
      [
        {
          id: randomUUID(),
          type: 'PaymentMerchantIpnChanged',
          data: { merchantCode: merchant, ipnUrl, maxIpnRetries: 5, changedBy: 'before-the-policy', changedAt: now },
          metadata: { occurredAt: now, actor: { operator: 'before-the-policy' } },
        },
      ],
      'any',
    );
    return merchant;
  }

  it('refuses to post to a stored loopback postback: REJECTED, the reason recorded, the receiver gets nothing', async () => {
    const r: Receiver = await startReceiver();
    closing.push(r);
    const merchant = await merchantPostingTo(r.url);
    const { transactionId } = await appendTransaction(app.container.store, merchant);
    const [attempt] = await attempts(transactionId);
    expect(attempt).to.include({ verdict: 'REJECTED', http_status: null });
    expect(attempt!.error).to.include('egress policy').and.include('loopback');
    expect(r.received).to.deep.equal([]);
  });

  it('keeps of an answer 160 characters at most, control characters made spaces', async () => {
    const answer = `{"status":"SUCCESS","message":"ok\u001b[2J\u0000\r\nforged log line\u202e"}${'x'.repeat(5000)}`;
    const sink: Sink = await startSink(() => ({ status: 200, body: answer }));
    closing.push(sink);
    // Loopback is refused here: the sink is reached as the development setting would, in an app of its own.
    const dev = await startTestApp({
      env: { PAYMENTS_IPN_TIMEOUT_MS: '500', PAYMENTS_IPN_FIRST_RETRY_MS: '100', PAYMENTS_IPN_POLL_MS: '50' },
    });
    try {
      const merchant = code();
      await onboardIpnMerchant(dev.container.services.payments, merchant, `${sink.origin}/ipn`);
      const { transactionId } = await appendTransaction(dev.container.store, merchant);
      const [attempt] = await until(
        'the attempt recorded',
        async () => {
          const rows = (await dev.db
            .knex('payments_ipn_attempts')
            .where({ transaction_id: transactionId })
            .whereNotNull('verdict')) as Record<string, unknown>[];
          return rows.length > 0 ? rows : undefined;
        },
        20_000,
      );
      expect(sink.received).to.have.length(1);
      const head = attempt!.response_head as string;
      expect(Array.from(head)).to.have.length(161);
      expect(head.endsWith('…')).to.equal(true);
      expect(head).to.match(/^\{"status":"SUCCESS","message":"ok \[2J {3}forged log line "\}x+…$/);
    } finally {
      await dev.stop();
    }
  });
});
