import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { call, expectRefusal, shopScene, shopHeaders } from '../support.js';

describe('HTTP API: health, readiness, metrics and unknown shop paths', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(() => app?.stop());

  it('GET /health answers 200 UP', async () => {
    const res = await call(app.baseUrl, 'GET', '/health');
    expect(res.status).to.equal(200);
    expect(JSON.parse(res.text)).to.deep.equal({ status: 'UP' });
  });

  it('GET /ready answers 200 READY with the database check', async () => {
    const res = await call(app.baseUrl, 'GET', '/ready');
    expect(res.status, res.text).to.equal(200);
    expect(JSON.parse(res.text)).to.deep.equal({ status: 'READY', checks: { database: true } });
  });

  it('GET /metrics serves Prometheus text with the projection lag metrics', async () => {
    const res = await call(app.baseUrl, 'GET', '/metrics');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    for (const name of ['projection_lag_events', 'projection_lag_seconds', 'projection_events_applied_total', 'relay_events_published_total']) {
      expect(res.text).to.match(new RegExp(`^# TYPE ${name} (gauge|counter)$`, 'm'));
    }
  });

  it('answers an unknown /api/v1 path with 404 SHOP-REQ-404 in the shop envelope, credentials or not', async () => {
    expectRefusal(await call(app.baseUrl, 'GET', '/api/v1/no-such-thing'), 404, 'SHOP-REQ-404', /no-such-thing/);
    const { merchant } = await shopScene(app.baseUrl);
    expectRefusal(await call(app.baseUrl, 'POST', '/api/v1/vouchers/refund', { headers: shopHeaders(merchant, 'u1'), json: {} }), 404, 'SHOP-REQ-404');
    expectRefusal(await call(app.baseUrl, 'DELETE', '/api/v1/vouchers/reserve', { headers: shopHeaders(merchant, 'u1') }), 404, 'SHOP-REQ-404');
  });
});
