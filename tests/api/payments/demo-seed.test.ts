import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { seedPaymentsDemo } from '../../../infrastructure/payments/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { expectHubOk, hub, hubHeaders, initBody } from './support.js';

/** The payment hub's demo for `npm start`: idempotent, its printed credentials work (README, "Payments"). */
describe('Payment hub demo seed (PostgreSQL)', () => {
  let app: TestApp;
  let dataDir: string;
  before(async () => {
    app = await startTestApp({ background: false });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-demo-'));
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeds a merchant, two terminals with keys, a secret and four methods; a restart keeps them', async () => {
    const first = await seedPaymentsDemo(app.container.services.payments, dataDir);
    const events = (await app.container.store.readStream('paymentMerchant-demo-shop')).length;
    const again = await seedPaymentsDemo(app.container.services.payments, dataDir);
    expect(again).to.deep.equal(first);
    expect((await app.container.store.readStream('paymentMerchant-demo-shop')).length).to.equal(events);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')).payments).to.deep.equal(
      first,
    );

    for (const t of first.terminals) {
      const res = await fetch(`${app.baseUrl}/api/payments/v1/payment-methods?amount=20000&currency=VND`, {
        headers: { ...gatewayHeaders(), 'X-Payment-API-Key': t.paymentApiKey },
      });
      const body = (await res.json()) as { items: { code: string }[] };
      expect(body.items.map((i) => i.code)).to.deep.equal(['CREDIT_CARD', 'WALLET', 'BANK_TRANSFER', 'QR_CODE']);
    }
    const key = first.terminals[0]!.paymentApiKey;
    const ts = String(Math.floor(Date.now() / 1000));
    expectHubOk(
      await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key, ts), initBody(first.secretKey, 'DEMO-1')),
    );
  });

  it('replaces credentials the kept file lost: a new key and a rotated secret', async () => {
    fs.writeFileSync(path.join(dataDir, 'demo-credentials.json'), '{}');
    const fresh = await seedPaymentsDemo(app.container.services.payments, dataDir);
    const ts = String(Math.floor(Date.now() / 1000));
    const key = fresh.terminals[1]!.paymentApiKey;
    expectHubOk(
      await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key, ts), initBody(fresh.secretKey, 'DEMO-2')),
    );
  });
});
