import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { seedOrdersDemo } from '../../../infrastructure/orders/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { testGatewayClient } from '../../support/gateway.js';
import { call, expectOk, operatorHeaders } from '../support.js';

/** `npm start`'s order view demo: a merchant, its keys and orders sent through the webhooks (docs/orders.md, "Demo"). */
describe('Order view demo seed (HTTP, PostgreSQL)', () => {
  let app: TestApp;
  let dataDir: string;
  before(async () => {
    app = await startTestApp();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orders-demo-'));
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends 37 orders through the webhooks once; a restart keeps the keys and sends nothing again', async () => {
    const webhooks = { baseUrl: app.baseUrl, gateway: testGatewayClient };
    const first = await seedOrdersDemo(app.container.services.orders, dataDir, webhooks);
    expect(first.ordersSent).to.equal(37);
    expect(first.apiKey).to.match(/^ak_test_[A-Za-z0-9]{32}$/);
    const page = await eventually(async () => {
      const p = expectOk(
        await call<{ total: number; counts_by_status: Record<string, number> }>(
          app.baseUrl,
          'GET',
          '/operator/v1/orders?merchant_id=DEMO_AUTO',
          { headers: operatorHeaders() },
        ),
      );
      expect(p.total).to.equal(37);
      return p;
    });
    expect(Object.keys(page.counts_by_status)).to.include.members(['CANCELLED', 'COMPLETED', 'CONFIRMED', 'CREATED']);

    const again = await seedOrdersDemo(app.container.services.orders, dataDir, webhooks);
    expect(again).to.deep.include({ apiKey: first.apiKey, secretKey: first.secretKey, ordersSent: 0 });
    const kept = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
      orders: { apiKey: string; ordersSent: number };
    };
    expect(kept.orders).to.include({ apiKey: first.apiKey, ordersSent: 37 });

    // A lost file: the key pair shown once is gone, so it is rotated (the old one retired at once).
    fs.rmSync(path.join(dataDir, 'demo-credentials.json'));
    const rotated = await seedOrdersDemo(app.container.services.orders, dataDir, undefined);
    expect(rotated.apiKey).not.to.equal(first.apiKey);
  });
});
