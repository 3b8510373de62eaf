import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app.js';
import { call, operatorHeaders } from './support.js';

describe('/metrics, /openapi.json and /docs are not public unless configured so (docs/operations.md)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ background: false, env: { OPERATIONS_ENDPOINTS: 'operator' } });
  });
  after(() => app?.stop());

  for (const path of ['/metrics', '/openapi.json', '/docs/']) {
    it(`${path}: 401 OPS-AUTH-001 without an operator token or with a wrong one, 200 with one`, async () => {
      const anonymous = await call(app.baseUrl, 'GET', path);
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.include({ code: 'OPS-AUTH-001' });
      expect(anonymous.text).not.to.match(/process_cpu|openapi|swagger/i);
      const wrong = await call(app.baseUrl, 'GET', path, {
        headers: operatorHeaders('not-an-operator-token-0123456789'),
      });
      expect(wrong.status).to.equal(401);
      expect((await call(app.baseUrl, 'GET', path, { headers: operatorHeaders() })).status).to.equal(200);
    });
  }

  it('keeps /health and /ready open to load balancers', async () => {
    expect((await call(app.baseUrl, 'GET', '/health')).status).to.equal(200);
    expect((await call(app.baseUrl, 'GET', '/ready')).status).to.equal(200);
  });

  it("/ready: the status code and {status} to anyone; its checks, roles and lag only with an operator's token", async () => {
    for (const headers of [{}, operatorHeaders('not-an-operator-token-0123456789'), { Authorization: 'Basic x' }]) {
      const anonymous = await call(app.baseUrl, 'GET', '/ready', { headers });
      expect(anonymous.status).to.equal(200);
      expect(anonymous.body).to.deep.equal({ status: 'READY' });
    }
    const operator = await call(app.baseUrl, 'GET', '/ready', { headers: operatorHeaders() });
    expect(operator.status).to.equal(200);
    expect(operator.body).to.deep.include({ status: 'READY', checks: { database: true } });
  });
});

describe('/ready in production (NODE_ENV=production, operations endpoints left to their default)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({
      background: false,
      env: { NODE_ENV: 'production', DATABASE_URL: 'postgres://db.internal/commerce', GATEWAY_ENVIRONMENT: 'dev' },
    });
  });
  after(() => app?.stop());

  it('answers a load balancer {status} only, and an operator the details', async () => {
    const anonymous = await call(app.baseUrl, 'GET', '/ready');
    expect(anonymous.status).to.equal(200);
    expect(anonymous.body).to.deep.equal({ status: 'READY' });
    expect(anonymous.text).not.to.match(/roles|checks|projector|lag/);
    const operator = await call(app.baseUrl, 'GET', '/ready', { headers: operatorHeaders() });
    expect(operator.body).to.have.property('checks');
  });
});

describe('/ready where the operations endpoints are public (development)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ background: false });
  });
  after(() => app?.stop());

  it('shows its details to anyone', async () => {
    const ready = await call(app.baseUrl, 'GET', '/ready');
    expect(ready.body).to.deep.include({ status: 'READY', checks: { database: true } });
  });
});
