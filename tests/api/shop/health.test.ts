import { expect } from 'chai';
import { gatewayHeaders } from '../../support/gateway.js';
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

  it('GET /ready answers 200 READY with the database check and what the relay and projectors report', async () => {
    const res = await call(app.baseUrl, 'GET', '/ready');
    expect(res.status, res.text).to.equal(200);
    const body = JSON.parse(res.text) as {
      status: string;
      checks: unknown;
      roles: { relay?: { active: boolean }; projectors?: Array<{ projector: string; applying: boolean }> };
    };
    expect(body).to.deep.include({ status: 'READY', checks: { database: true } });
    expect(body.roles.relay).to.have.property('active').that.is.a('boolean');
    expect(body.roles.projectors!.map((p) => p.projector)).to.include('shop-reservations');
  });

  it('GET /ready tells, for each projector it applies, how far behind it is and how fast that closes', async () => {
    const reservations = async () => {
      const body = JSON.parse((await call(app.baseUrl, 'GET', '/ready')).text) as {
        roles: { projectors: Array<Record<string, unknown>> };
      };
      return body.roles.projectors.find((p) => p.projector === 'shop-reservations')!;
    };
    // The rate needs two looks at the lag; every /ready is one.
    await reservations();
    const seen = await reservations();
    expect(seen).to.include({ applying: true, catchingUp: false });
    expect(seen).to.have.property('lagEvents').that.is.a('number');
    expect(seen).to.have.property('lagSeconds').that.is.a('number');
    expect(seen).to.have.property('lagClosingPerSecond').that.is.a('number');
  });

  it('GET /metrics serves Prometheus text with the projection lag metrics', async () => {
    const res = await call(app.baseUrl, 'GET', '/metrics');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    for (const name of [
      'projection_lag_events',
      'projection_lag_seconds',
      'projection_lag_closing_events_per_second',
      'projection_catching_up',
      'projection_events_applied_total',
      'relay_events_published_total',
    ]) {
      expect(res.text).to.match(new RegExp(`^# TYPE ${name} (gauge|counter)$`, 'm'));
    }
  });

  it('GET /metrics times every answer per route pattern and status, ids left out', async () => {
    const { merchant } = await shopScene(app.baseUrl);
    expectRefusal(
      await call(app.baseUrl, 'GET', '/api/v1/vouchers/987654321', { headers: shopHeaders(merchant, undefined) }),
      404,
      'SHOP-VOU-001',
    );
    await call(app.baseUrl, 'GET', '/api/v1/no-such-thing-either', { headers: gatewayHeaders() });
    const { text } = await call(app.baseUrl, 'GET', '/metrics');
    expect(text).to.match(/^# TYPE http_request_duration_seconds histogram$/m);
    const count = (labels: string) =>
      Number(new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(count('method="GET",route="/api/v1/vouchers/:id\\(.*\\)",status_code="404"')).to.be.at.least(1);
    expect(count('method="GET",route="unmatched",status_code="404"')).to.be.at.least(1);
    expect(text).not.to.contain('987654321');
    expect(text).not.to.contain('no-such-thing-either');
  });

  it('answers an unknown /api/v1 path with 404 SHOP-REQ-404 in the shop envelope, behind the gateway', async () => {
    // The gateway stands before the whole interface: without its credentials, no path is told apart (docs/gateway.md).
    expectRefusal(await call(app.baseUrl, 'GET', '/api/v1/no-such-thing'), 401, 'SHOP-AUTH-001');
    expectRefusal(
      await call(app.baseUrl, 'GET', '/api/v1/no-such-thing', { headers: gatewayHeaders() }),
      404,
      'SHOP-REQ-404',
      /no-such-thing/,
    );
    const { merchant } = await shopScene(app.baseUrl);
    expectRefusal(
      await call(app.baseUrl, 'POST', '/api/v1/vouchers/refund', { headers: shopHeaders(merchant, 'u1'), json: {} }),
      404,
      'SHOP-REQ-404',
    );
    expectRefusal(
      await call(app.baseUrl, 'DELETE', '/api/v1/vouchers/reserve', { headers: shopHeaders(merchant, 'u1') }),
      404,
      'SHOP-REQ-404',
    );
  });
});
