/**
 * Production refuses the sandboxes (docs/operations.md, "Sandboxes in production"): the whole service built with
 * NODE_ENV=production registers no sandbox payment provider, mounts no sandbox page and issues no sandbox login, unless
 * SANDBOXES_ALLOWED names them (a staging deployment); main.ts itself refuses to start with a sandbox configured.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../application/shared/clock.js';
import { newSigningKeyJwk } from '../../infrastructure/identity/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { mainSuite } from '../support/main-suite.js';
import { IdentityApi } from './identity/support.js';
import {
  expectHubError,
  expectHubOk,
  hub,
  hubHeaders,
  initBody,
  nowSeconds,
  onboardMerchant,
} from './payments/support.js';
import { call } from './support.js';

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://db.internal/commerce',
  GATEWAY_ENVIRONMENT: 'dev',
};

describe('production without SANDBOXES_ALLOWED runs no sandbox', () => {
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ clock, background: false, env: production });
  });
  after(() => app?.stop());

  it('registers no sandbox provider: an init through one is refused 4001 naming providerId, nothing is created', async () => {
    const m = await onboardMerchant(app.baseUrl, 'prod-shop');
    const init = await hub(
      app.baseUrl,
      'POST',
      '/transactions',
      hubHeaders(m.keys.T1!.paymentApiKey, nowSeconds(clock)),
      initBody(m.secretKey, 'ORD-PROD-1'),
    );
    expect(expectHubError(init, 400, 4001)).to.match(/providerId.*not available in this deployment/);
    const initiated = await app.container.knex('events').where({ type: 'TransactionInitiated' }).count({ n: '*' });
    expect(Number(initiated[0]!.n)).to.equal(0);
  });

  it('mounts no sandbox payment page: /sandbox/payments/… is the service-wide 404, not the page', async () => {
    for (const method of ['GET', 'POST']) {
      const page = await call(app.baseUrl, method, `/sandbox/payments/${randomUUID()}?token=${'0'.repeat(32)}`);
      expect(page.status).to.equal(404);
      expect(page.body).to.deep.include({ code: 'NOT_FOUND' });
      expect(page.text).not.to.match(/<html/i);
    }
  });

  it('issues no sandbox login (POST /operator/v1/identity/auth-codes): 404, the sandbox is off', async () => {
    const api = new IdentityApi(app.baseUrl);
    const user = await api.createUser();
    const { miniAppId } = await api.createMiniApp();
    const refused = await api.issueCodeRaw(user, miniAppId, ['auth']);
    expect(refused.status).to.equal(404);
    expect(refused.text).to.match(/sandbox is off/);
  });
});

describe('staging: production with SANDBOXES_ALLOWED=payments,identity runs both, on its public origin', () => {
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  let app: TestApp;
  before(async () => {
    app = await startTestApp({
      clock,
      background: false,
      env: {
        ...production,
        SANDBOXES_ALLOWED: 'payments,identity',
        PAYMENTS_SANDBOX_BASE_URL: 'https://pay.staging.example',
      },
    });
  });
  after(() => app?.stop());

  it('completes the sandbox flow: init answers a page on the public origin, which is served', async () => {
    const m = await onboardMerchant(app.baseUrl, 'staging-shop');
    const data = expectHubOk(
      await hub(
        app.baseUrl,
        'POST',
        '/transactions',
        hubHeaders(m.keys.T1!.paymentApiKey, nowSeconds(clock)),
        initBody(m.secretKey, 'ORD-STG-1'),
      ),
    ) as { paymentInfo: { redirectUrl: string } };
    const url = new URL(data.paymentInfo.redirectUrl);
    expect(url.origin).to.equal('https://pay.staging.example');
    const page = await call(app.baseUrl, 'GET', `${url.pathname}${url.search}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.match(/<html/i);
  });

  it('issues sandbox logins', async () => {
    const api = new IdentityApi(app.baseUrl);
    const user = await api.createUser();
    const { miniAppId } = await api.createMiniApp();
    expect(await api.issueCode(user, miniAppId, ['auth'])).to.be.a('string');
  });
});

describe('main.ts with NODE_ENV=production and a sandbox configured', function () {
  this.timeout(90_000);
  const suite = mainSuite('production-sandboxes');
  /** Everything production asks for, strong: only the sandbox setting stands in the way. */
  const productionEnv = () => ({
    NODE_ENV: 'production',
    GATEWAY_ENVIRONMENT: 'dev',
    PORT: '0',
    OPERATOR_TOKENS: `ops=${randomBytes(24).toString('base64url')}`,
    VOUCHER_CODE_KEY: randomBytes(32).toString('hex'),
    CHECKOUT_CODE_KEY: randomBytes(32).toString('hex'),
    ORDERS_SECRET_KEY_KEY: randomBytes(32).toString('hex'),
    PAYMENTS_SECRETS_KEY: randomBytes(32).toString('hex'),
    IDENTITY_SIGNING_KEYS: JSON.stringify([newSigningKeyJwk()]),
  });

  for (const [setting, value, sandbox] of [
    ['IDENTITY_SANDBOX', 'true', 'identity'],
    ['PAYMENTS_SANDBOX', 'true', 'payments'],
    ['PAYMENTS_SANDBOX_BASE_URL', 'https://pay.example', 'payments'],
  ] as const) {
    it(`refuses to start with ${setting}=${value}, naming it and SANDBOXES_ALLOWED=${sandbox}`, async () => {
      const failure = await suite.start({ ...productionEnv(), [setting]: value }).then(
        () => undefined,
        (err: Error) => err.message,
      );
      expect(failure, 'main.ts started').to.be.a('string');
      expect(failure).to.match(/main\.ts exited with 2/);
      expect(failure).to.include(`${setting}: configures`);
      expect(failure).to.include(
        `refused in production; a staging deployment names it in SANDBOXES_ALLOWED=${sandbox}`,
      );
    });
  }

  it('starts with IDENTITY_SANDBOX=true when SANDBOXES_ALLOWED names identity', async () => {
    const main = await suite.start({ ...productionEnv(), IDENTITY_SANDBOX: 'true', SANDBOXES_ALLOWED: 'identity' });
    const health = await fetch(`http://127.0.0.1:${main.port}/health`);
    expect(health.status).to.equal(200);
  });
});
