/**
 * The newcomer's path (docs/ipn.md, "A receiver"; README, "Payments"): main.ts with the demo seed runs the sample
 * partner receiver and points the demo merchant's postback at it; a sandbox wallet payment's HOLDING notification
 * arrives there, verified (SUCCESS), and is logged.
 */
import { expect } from 'chai';
import { freePort, until } from '../../support/main-process.js';
import { mainSuite } from '../../support/main-suite.js';
import { demoCredentials, holdDemoWalletPayment } from '../../support/payments-demo.js';

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
