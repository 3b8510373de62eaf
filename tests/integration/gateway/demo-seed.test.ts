import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { gatewayInterfaces } from '../../../application/shared/gateway.js';
import { seedGatewayDemo } from '../../../infrastructure/gateway/index.js';
import { expectRefusal } from '../../api/support.js';
import { shopProbe } from '../../api/gateway/support.js';
import { startTestApp, type TestApp } from '../../support/app.js';

describe('Demo seed: a gateway party per interface for npm start', () => {
  let app: TestApp;
  let dataDir: string;
  const file = () => path.join(dataDir, 'demo-credentials.json');
  const saved = () => JSON.parse(fs.readFileSync(file(), 'utf8')) as Record<string, unknown>;

  before(async () => {
    app = await startTestApp({ background: false });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-demo-'));
    // The shop's seed keeps its key in the same file: the gateway's seed leaves it there.
    fs.writeFileSync(file(), JSON.stringify({ merchantId: 'DEMO', apiKey: 'pk_live_kept' }));
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const gateway = () => app.container.services.gateway;

  it('creates one INTERNAL party per interface, granted that interface, with a dev/sit/uat pair kept in the file', async () => {
    const demo = await seedGatewayDemo(gateway(), dataDir);
    expect(Object.keys(demo)).to.deep.equal([...gatewayInterfaces]);
    for (const name of gatewayInterfaces) {
      const party = await gateway().parties.get(`demo-${name}`);
      expect(party).to.deep.include({ kind: 'INTERNAL', interfaces: [name], ipAllowlist: [] });
      expect(party.credentials.map((c) => c.clientId)).to.deep.equal([demo[name].clientId]);
      expect(demo[name]).to.include({ partyId: `demo-${name}`, clientId: `demo-${name}` });
      expect(demo[name].environments).to.deep.equal(['dev', 'sit', 'uat']);
    }
    expect(saved()).to.deep.equal({ merchantId: 'DEMO', apiKey: 'pk_live_kept', gateway: demo });
    const shop = { client_id: demo.shop.clientId, client_secret: demo.shop.clientSecret };
    expectRefusal(await shopProbe(app.baseUrl, shop), 404, 'SHOP-REQ-404');
    const checkoutPair = { client_id: demo.checkout.clientId, client_secret: demo.checkout.clientSecret };
    expectRefusal(await shopProbe(app.baseUrl, checkoutPair), 403, 'SHOP-AUTH-006');
  });

  it('on a restart, answers the kept pairs and issues nothing', async () => {
    const before = saved().gateway;
    expect(await seedGatewayDemo(gateway(), dataDir)).to.deep.equal(before);
    expect((await gateway().parties.get('demo-shop')).credentials).to.have.length(1);
  });

  it('replaces a pair the file lost (its secret was shown once) with a new one', async () => {
    const { gateway: kept, ...others } = saved();
    fs.writeFileSync(file(), JSON.stringify(others));
    const demo = await seedGatewayDemo(gateway(), dataDir);
    expect(demo.shop.clientId).not.to.equal((kept as typeof demo).shop.clientId);
    expect(demo.shop.clientId).to.match(/^demo-shop-[0-9a-f]{8}$/);
    const shop = { client_id: demo.shop.clientId, client_secret: demo.shop.clientSecret };
    expectRefusal(await shopProbe(app.baseUrl, shop), 404, 'SHOP-REQ-404');
  });
});
