/**
 * The newcomer's path (docs/ipn.md, "A receiver"; README, "Payments"): main.ts with the demo seed runs the sample
 * partner receiver and points the demo merchant's postback at it; a sandbox wallet payment's HOLDING notification
 * arrives there, verified (SUCCESS), and is logged. When the receiver cannot take its port, the postback names no one.
 */
import { expect } from 'chai';
import { freePort, until } from '../../support/main-process.js';
import { mainSuite } from '../../support/main-suite.js';
import { demoCredentials, holdDemoWalletPayment } from '../../support/payments-demo.js';
import { startSink, type Sink } from '../../support/sink.js';

describe('payment hub: the demo IPN receiver of npm start (main.ts, PostgreSQL)', function () {
  this.timeout(180_000);
  const suite = mainSuite('ipn-demo');

  it('delivers a sandbox payment’s IPN to the sample receiver, which verifies and logs it', async () => {
    const receiverPort = await freePort();
    const service = await suite.start({
      PORT: '0',
      SEED_DEMO: 'true',
      PAYMENTS_DEMO_RECEIVER_PORT: String(receiverPort),
    });
    const creds = await demoCredentials(suite.dataDir);
    await until('the IPN postback in the banner', () =>
      service.output().includes(`http://127.0.0.1:${receiverPort}/api/v1/payment-webhook`) ? true : undefined,
    );
    const base = `http://127.0.0.1:${service.port}`;
    const { transactionId } = await holdDemoWalletPayment(base, creds, 'IPN-DEMO', 'the demo IPN');
    const line = await until(
      'the IPN in the demo receiver’s log',
      () =>
        service!
          .output()
          .split('\n')
          .filter((l) => l.includes('IPN received by the demo receiver'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.transactionId === transactionId),
      60_000,
    );
    expect(line).to.include({
      orderId: 'IPN-DEMO',
      status: 'HOLDING',
      transactionType: 'PAYMENT',
      answered: 'SUCCESS',
    });
  });
});

describe('payment hub: the demo IPN receiver’s port taken (main.ts, PostgreSQL)', function () {
  this.timeout(180_000);
  const suite = mainSuite('ipn-demo-taken');
  let squatter: Sink | undefined;
  after(() => squatter?.close());

  it('points the demo postback at no one when the receiver cannot listen: whatever holds the port gets nothing', async () => {
    squatter = await startSink();
    const service = await suite.start({
      PORT: '0',
      SEED_DEMO: 'true',
      PAYMENTS_DEMO_RECEIVER_PORT: String(squatter.port),
    });
    const creds = await demoCredentials(suite.dataDir);
    const banner = await until('the IPN postback in the banner', () =>
      service
        .output()
        .split('\n')
        .find((l) => l.includes('IPN postback:')),
    );
    expect(banner).to.include('https://demo-shop.example/ipn (no sample receiver');
    expect(banner).not.to.include(String(squatter.port));
    const { transactionId } = await holdDemoWalletPayment(
      `http://127.0.0.1:${service.port}`,
      creds,
      'IPN-DEMO-TAKEN',
      'the demo IPN, no receiver',
    );
    const attempt = await until(
      'the IPN attempt',
      async () =>
        ((await suite.db
          .knex('payments_ipn_attempts')
          .where({ transaction_id: transactionId })
          .whereNotNull('verdict')
          .first()) as Record<string, unknown> | undefined) ?? undefined,
      60_000,
    );
    expect(attempt.url).to.equal('https://demo-shop.example/ipn');
    expect(squatter.received).to.deep.equal([]);
  });
});
