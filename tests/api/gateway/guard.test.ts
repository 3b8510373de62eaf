import { expect } from 'chai';
import express from 'express';
import { gatewayGuard } from '../../../api/gateway/index.js';
import { listen } from '../../../api/shared/http-app.js';
import type { GatewayFront } from '../../../api/shared/gateway-front.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { gatewayHeaders } from '../../support/gateway.js';
import {
  call,
  expectRefusal,
  reserveBody,
  shopHeaders,
  shopScene,
  Shopper,
  type HeaderSet,
  type OperatorApi,
  type ShopMerchant,
} from '../support.js';
import { GatewayOperator, shopProbe } from './support.js';

/**
 * Every event committed to the store, to tell that a refused request appended none (counted in its table: the global
 * log's reads stop below the oldest transaction still open on the server, which other suites' may hold).
 */
const eventCount = async (app: TestApp) => Number((await app.db.knex('events').count<{ n: string }[]>('* as n'))[0]!.n);

describe('Gateway in front of the shop over HTTP (dev deployment)', () => {
  let app: TestApp;
  let gateway: GatewayOperator;
  let operator: OperatorApi;
  let merchant: ShopMerchant;

  before(async () => {
    app = await startTestApp({ background: false });
    gateway = new GatewayOperator(app.baseUrl);
    ({ operator, merchant } = await shopScene(app.baseUrl));
  });
  after(() => app?.stop());

  it('never lets a reserve without gateway credentials reach the shop: 401, stock untouched, nothing appended', async () => {
    const campaign = await operator.createActiveCampaign();
    const pool = await operator.createPool(campaign.id, { totalQuantity: 5 });
    const before = await eventCount(app);
    const shopper = new Shopper(app.baseUrl, merchant);
    for (const missing of [
      { client_id: undefined },
      { client_secret: undefined },
      { client_id: undefined, client_secret: undefined },
    ]) {
      const res = await shopper.reserve(reserveBody([{ pool, quantity: 2 }]), { headers: missing });
      expectRefusal(res, 401, 'SHOP-AUTH-001', /client_id and client_secret headers are required/);
    }
    const wrong = await shopper.reserve(reserveBody([{ pool }]), { headers: { client_secret: 'x'.repeat(40) } });
    expectRefusal(wrong, 401, 'SHOP-AUTH-001', /invalid/);
    expect(await eventCount(app)).to.equal(before);
    expect(await operator.pool(pool.poolId)).to.include({ remainingQuantity: 5, reservedQuantity: 0 });
    // The same request with the credentials goes through, and the count sees what it appends.
    expect((await shopper.reserve(reserveBody([{ pool, quantity: 2 }]))).status).to.equal(200);
    expect(await eventCount(app)).to.be.above(before);
  });

  it('refuses a wrong secret, an unknown client id, an absurd secret and a malformed client id alike', async () => {
    for (const headers of [
      { ...gatewayHeaders(), client_secret: 'test-client-secret-0123456780' },
      { ...gatewayHeaders(), client_id: 'unknown-client' },
      { ...gatewayHeaders(), client_secret: 's'.repeat(10_000) },
      { ...gatewayHeaders(), client_id: 'bad client id!' },
    ])
      expectRefusal(
        await shopProbe(app.baseUrl, headers),
        401,
        'SHOP-AUTH-001',
        /client_id or client_secret is invalid/,
      );
  });

  it('refuses a pair not issued for this deployment’s environment (dev)', async () => {
    const { headers } = await gateway.partyWithClient({}, ['uat']);
    expectRefusal(
      await shopProbe(app.baseUrl, headers),
      401,
      'SHOP-AUTH-001',
      /not issued for this environment \(dev\)/,
    );
  });

  it('checks the env header where it is sent (the shop: optional), case-insensitively', async () => {
    expectRefusal(await shopProbe(app.baseUrl, gatewayHeaders()), 404, 'SHOP-REQ-404');
    expectRefusal(await shopProbe(app.baseUrl, { ...gatewayHeaders(), env: 'dev' }), 404, 'SHOP-REQ-404');
    expectRefusal(await shopProbe(app.baseUrl, { ...gatewayHeaders(), env: 'DEV' }), 404, 'SHOP-REQ-404');
    for (const env of ['uat', 'prod', 'staging'])
      expectRefusal(await shopProbe(app.baseUrl, { ...gatewayHeaders(), env }), 403, 'SHOP-AUTH-005', /\(dev\)/);
  });

  it('refuses a party not granted the shop with 403 SHOP-AUTH-006', async () => {
    const { headers } = await gateway.partyWithClient({ interfaces: ['checkout', 'payments'] });
    expectRefusal(await shopProbe(app.baseUrl, headers), 403, 'SHOP-AUTH-006', /not granted the shop interface/);
  });

  it('answers refusals in the shop envelope before the shop’s own checks, which still run behind it', async () => {
    const shopper = new Shopper(app.baseUrl, merchant);
    const noKey = await call(app.baseUrl, 'GET', '/api/v1/vouchers/reservation/x', {
      headers: shopHeaders(merchant, 'u1', { 'X-Promotion-Api-Key': undefined }),
    });
    expectRefusal(noKey, 401, 'SHOP-AUTH-002');
    expectRefusal(await shopper.lookup('00000000-0000-4000-8000-000000000000'), 404, 'SHOP-PUR-003');
  });

  describe('an interface that requires the env header, and one that ignores it', () => {
    /** A stand-in interface behind the test app's gateway: answers who the gateway let through. */
    async function frontedBy(envHeader: GatewayFront['envHeader']) {
      const front: GatewayFront = {
        interface: 'checkout',
        envHeader,
        routes: [{ method: 'post', path: '/promotion/reserve' }],
        refusals: {
          CREDENTIALS_MISSING: [401, '4010'],
          CREDENTIALS_INVALID: [401, '4011'],
          ENVIRONMENT_MISSING: [400, '4001'],
          ENVIRONMENT_MISMATCH: [400, '4002'],
          INTERFACE_NOT_GRANTED: [403, '4030'],
          IP_NOT_ALLOWED: [403, '4031'],
          RATE_LIMITED: [429, '4290'],
        },
        send: (res, status, code, message, data) => res.status(status).json({ code, message, data }),
      };
      const stub = express();
      stub.use(gatewayGuard(front, app.container.services.gateway, { logger: console as never }));
      stub.post('/promotion/reserve', (_req, res) => res.json({ code: 'OK', message: 'ok', data: res.locals.gateway }));
      const server = await listen(stub, 0, '127.0.0.1');
      return {
        call: (headers: HeaderSet) =>
          call(`http://127.0.0.1:${server.port}`, 'POST', '/promotion/reserve', { headers }),
        close: () => server.close(1000),
      };
    }

    it('required: refuses a missing env and another environment, and passes the caller on', async () => {
      const stub = await frontedBy('required');
      try {
        expectRefusal(await stub.call(gatewayHeaders()), 400, '4001', /env header is required/);
        expectRefusal(await stub.call({ ...gatewayHeaders(), env: 'sit' }), 400, '4002', /\(dev\)/);
        const ok = await stub.call({ ...gatewayHeaders(), env: 'dev' });
        expect(ok.status).to.equal(200);
        expect(ok.body!.data).to.deep.equal({ partyId: 'test-party', clientId: 'test-client', environment: 'dev' });
        expectRefusal(await stub.call({}), 401, '4010');
      } finally {
        await stub.close();
      }
    });

    it('ignored: an env header naming another environment changes nothing', async () => {
      const stub = await frontedBy('ignored');
      try {
        expect((await stub.call({ ...gatewayHeaders(), env: 'prod' })).status).to.equal(200);
      } finally {
        await stub.close();
      }
    });
  });

  it('without a trusted proxy, reads the socket’s address: X-Forwarded-For cannot pass an allowlist', async () => {
    const { headers } = await gateway.partyWithClient({ ipAllowlist: ['203.0.113.0/24'] });
    const spoofed = await shopProbe(app.baseUrl, { ...headers, 'X-Forwarded-For': '203.0.113.9' });
    expectRefusal(spoofed, 403, 'SHOP-AUTH-007');
  });
});

describe('Gateway IP allowlist for an external party (uat deployment behind a proxy on loopback)', () => {
  let app: TestApp;
  let gateway: GatewayOperator;

  before(async () => {
    app = await startTestApp({
      background: false,
      env: { GATEWAY_ENVIRONMENT: 'uat', GATEWAY_TRUST_PROXY: 'loopback' },
    });
    gateway = new GatewayOperator(app.baseUrl);
  });
  after(() => app?.stop());

  it('lets the partner in from an allowlisted address only, IPv4 and IPv6', async () => {
    const { headers } = await gateway.partyWithClient(
      { kind: 'EXTERNAL', ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'] },
      ['uat'],
    );
    const from = (address?: string) => shopProbe(app.baseUrl, { ...headers, 'X-Forwarded-For': address });
    expectRefusal(await from('203.0.113.9'), 404, 'SHOP-REQ-404');
    expectRefusal(await from('2001:db8::7'), 404, 'SHOP-REQ-404');
    // The proxy appends the address it saw: the rightmost untrusted one is the caller's.
    expectRefusal(await from('198.51.100.1, 203.0.113.9'), 404, 'SHOP-REQ-404');
    expectRefusal(await from('203.0.113.9, 198.51.100.1'), 403, 'SHOP-AUTH-007', /allowlist/);
    expectRefusal(await from('198.51.100.1'), 403, 'SHOP-AUTH-007');
    expectRefusal(await from(undefined), 403, 'SHOP-AUTH-007');
  });

  it('takes the test pair issued for uat, and refuses a dev pair here', async () => {
    expectRefusal(await shopProbe(app.baseUrl, gatewayHeaders()), 404, 'SHOP-REQ-404');
    const { headers } = await gateway.partyWithClient({}, ['dev', 'sit']);
    expectRefusal(await shopProbe(app.baseUrl, headers), 401, 'SHOP-AUTH-001', /\(uat\)/);
  });
});
