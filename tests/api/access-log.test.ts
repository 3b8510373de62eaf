/**
 * Secrets and tokens never in logs (docs/operations.md, "Logs"): the access log at LOG_LEVEL=http, captured from the
 * whole service, records the sandbox payment page's address and the consent page's without their credentials.
 */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import winston from 'winston';
import { fixedClock } from '../../application/shared/clock.js';
import { createLogger } from '../../infrastructure/shared/logger.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { IdentityApi } from './identity/support.js';
import { expectHubOk, hub, hubHeaders, initBody, nowSeconds, onboardMerchant } from './payments/support.js';
import { call } from './support.js';

describe('the access log at LOG_LEVEL=http records no credential', () => {
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  let app: TestApp;
  const written: string[] = [];
  before(async () => {
    const logger = createLogger('http');
    const out = new PassThrough();
    out.on('data', (chunk: Buffer) => written.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    logger.clear();
    logger.add(new winston.transports.Stream({ stream: out }));
    app = await startTestApp({ clock, background: false, logger });
  });
  after(() => app?.stop());

  const accessLines = async (pathStart: string) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return written
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.message === 'request' && String(line.path).startsWith(pathStart));
  };

  it("logs the sandbox payment page's address without its token, and the token appears nowhere in the log", async () => {
    const m = await onboardMerchant(app.baseUrl, 'log-shop');
    const data = expectHubOk(
      await hub(
        app.baseUrl,
        'POST',
        '/transactions',
        hubHeaders(m.keys.T1!.paymentApiKey, nowSeconds(clock)),
        initBody(m.secretKey, 'ORD-LOG-1'),
      ),
    ) as { paymentInfo: { redirectUrl: string } };
    const url = new URL(data.paymentInfo.redirectUrl);
    const token = url.searchParams.get('token')!;
    expect(token).to.match(/^[0-9a-f]{32}$/);
    const page = await call(app.baseUrl, 'GET', `${url.pathname}${url.search}`);
    expect(page.status).to.equal(200);
    const [line] = await accessLines(url.pathname);
    expect(line, 'the page request was logged').to.deep.include({
      method: 'GET',
      status: 200,
      path: `${url.pathname}?token=[redacted]`,
    });
    expect(written.join('\n')).not.to.include(token);
    expect(written.join('\n')).not.to.include(m.secretKey);
  });

  it("logs the consent page's address without its state, keeping the ids that are no credential", async () => {
    const api = new IdentityApi(app.baseUrl);
    const user = await api.createUser();
    const { miniAppId } = await api.createMiniApp();
    const state = 'csrf-state-4f9a1c7e2b';
    const path = `/sandbox/identity/consent?miniapp_id=${miniAppId}&user_id=${user}&scope=profile&state=${state}`;
    expect((await call(app.baseUrl, 'GET', path)).status).to.equal(200);
    const [line] = await accessLines('/sandbox/identity/consent');
    expect(line!.path).to.equal(
      `/sandbox/identity/consent?miniapp_id=${miniAppId}&user_id=${user}&scope=profile&state=[redacted]`,
    );
    expect(written.join('\n')).not.to.include(state);
  });
});
