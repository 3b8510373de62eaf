/**
 * The newcomer's path (docs/ipn.md, "A receiver"; README, "Payments"): main.ts with the demo seed runs the sample
 * partner receiver and points the demo merchant's postback at it; a sandbox wallet payment's HOLDING notification
 * arrives there, verified (SUCCESS), and is logged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort, startMain, until, type MainProcess } from '../../support/main-process.js';
import { demoCredentials, holdDemoWalletPayment } from '../../support/payments-demo.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

describe('payment hub: the demo IPN receiver of npm start (main.ts, PostgreSQL)', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let dataDir: string;
  let service: MainProcess | undefined;

  before(async () => {
    db = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipn-demo-'));
  });
  after(async () => {
    if (service && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await db?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers a sandbox payment’s IPN to the sample receiver, which verifies and logs it', async () => {
    const receiverPort = await freePort();
    service = await startMain({
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PORT: '0',
      SEED_DEMO: 'true',
      PAYMENTS_DEMO_RECEIVER_PORT: String(receiverPort),
    });
    const creds = await demoCredentials(dataDir);
    await until('the IPN postback in the banner', () =>
      service!.output().includes(`http://127.0.0.1:${receiverPort}/api/v1/payment-webhook`) ? true : undefined,
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
