/**
 * The newcomer's path (docs/ipn.md, "A receiver"; README, "Payments"): main.ts with the demo seed runs the sample
 * partner receiver and points the demo merchant's postback at it; a sandbox wallet payment's HOLDING notification
 * arrives there, verified (SUCCESS), and is logged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { freePort, startMain, until, type MainProcess } from '../../support/main-process.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

interface DemoCredentials {
  gateway: { payments: { clientId: string; clientSecret: string } };
  payments: { secretKey: string; terminals: { paymentApiKey: string }[] };
}

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
    const creds = await until('the demo credentials', () => {
      const file = path.join(dataDir, 'demo-credentials.json');
      if (!fs.existsSync(file)) return undefined;
      const c = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<DemoCredentials>;
      return c.payments && c.gateway?.payments ? (c as DemoCredentials) : undefined;
    });
    await until('the IPN postback in the banner', () =>
      service!.output().includes(`http://127.0.0.1:${receiverPort}/api/v1/payment-webhook`) ? true : undefined,
    );
    const base = `http://127.0.0.1:${service.port}`;
    const headers = {
      client_id: creds.gateway.payments.clientId,
      client_secret: creds.gateway.payments.clientSecret,
      'X-Payment-API-Key': creds.payments.terminals[0]!.paymentApiKey,
      'X-Request-ID': `ipn-demo-${Date.now()}`,
      'X-Timestamp': String(Math.floor(Date.now() / 1000)),
      'Content-Type': 'application/json',
    };
    const body = {
      orderId: 'IPN-DEMO',
      referenceId: 'REF-IPN-DEMO',
      amount: 150000,
      currency: 'VND',
      description: 'the demo IPN',
      paymentMethodCode: 'WALLET',
      providerId: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02',
      orderInfo: { orderCreatedAt: 1772359200000 },
    };
    const secureHash = hmacSha256Hex(creds.payments.secretKey, 'IPN-DEMO|REF-IPN-DEMO|150000|VND|1772359200000');
    const init = await fetch(`${base}/api/payments/v1/transactions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, secureHash }),
    });
    const data = (
      (await init.json()) as { data: { transaction: { id: string }; paymentInfo: { redirectUrl: string } } }
    ).data;
    const page = new URL(data.paymentInfo.redirectUrl);
    await fetch(`${base}${page.pathname}`, {
      method: 'POST',
      body: new URLSearchParams({ token: page.searchParams.get('token')!, action: 'approve' }),
    });
    const line = await until(
      'the IPN in the demo receiver’s log',
      () =>
        service!
          .output()
          .split('\n')
          .filter((l) => l.includes('IPN received by the demo receiver'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.transactionId === data.transaction.id),
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
