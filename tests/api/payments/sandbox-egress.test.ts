/**
 * The sandbox payment page is no way out (docs/payments-sandbox.md, "Callbacks"; docs/outbound.md): the provider
 * callback a page action makes goes where configuration says, never to the request's Host, and over HTTP it follows
 * no redirect. Local sinks stand for the hosts an attacker would aim at; they must receive nothing.
 */
import http from 'node:http';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { startSink, type Sink } from '../../support/sink.js';
import { expectHubOk, hub, hubHeaders, initBody, onboardMerchant, type Onboarded } from './support.js';

/** Posts a page form as a browser would, but with the Host header an attacker chooses. */
function submitWithHost(pageUrl: string, form: Record<string, string>, host: string) {
  const url = new URL(pageUrl);
  const body = new URLSearchParams(form).toString();
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { Host: host, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': body.length },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.end(body);
  });
}

async function walletPayment(app: TestApp, m: Onboarded, orderId: string) {
  const ts = String(Math.floor(Date.now() / 1000));
  const data = expectHubOk(
    await hub(
      app.baseUrl,
      'POST',
      '/transactions',
      hubHeaders(m.keys.T1!.paymentApiKey, ts),
      initBody(m.secretKey, orderId),
    ),
  ) as { transaction: { id: string }; paymentInfo: { redirectUrl: string } };
  const redirect = new URL(data.paymentInfo.redirectUrl);
  return {
    id: data.transaction.id,
    page: `${app.baseUrl}${redirect.pathname}`,
    token: redirect.searchParams.get('token')!,
  };
}

describe('Sandbox payment page: the provider callback target (HTTP, PostgreSQL)', () => {
  describe('PAYMENTS_SANDBOX_CALLBACK_BASE_URL unset: the callback stays in the process', () => {
    let app: TestApp;
    let m: Onboarded;
    let sink: Sink;
    before(async () => {
      sink = await startSink();
      app = await startTestApp({ background: false });
      m = await onboardMerchant(app.baseUrl, 'egress1', ['T1']);
    });
    after(async () => {
      await app?.stop();
      await sink?.close();
    });

    it('a forged Host header makes the service send nothing to that host; the payment completes all the same', async () => {
      const p = await walletPayment(app, m, 'EGRESS-HOST');
      const answer = await submitWithHost(p.page, { token: p.token, action: 'approve' }, `127.0.0.1:${sink.port}`);
      expect(answer.status).to.equal(200);
      expect(sink.received).to.deep.equal([]);
      expect((await app.container.services.payments.transactions.load(p.id)).status).to.equal('HOLDING');
    });

    it('a Host naming the metadata address or a closed port answers as any other page: nothing is probed', async () => {
      const hosts = ['169.254.169.254', '127.0.0.1:1', `127.0.0.1:${sink.port}`];
      const pages: string[] = [];
      for (const host of hosts) {
        const p = await walletPayment(app, m, `EGRESS-PROBE-${pages.length}`);
        const answer = await submitWithHost(p.page, { token: p.token, action: 'decline' }, host);
        expect(answer.status, host).to.equal(200);
        pages.push(answer.text.replaceAll(p.id, 'ID').replace(/EGRESS-PROBE-\d/g, 'ORDER'));
      }
      expect(new Set(pages).size).to.equal(1);
      expect(sink.received).to.deep.equal([]);
    });
  });

  describe('PAYMENTS_SANDBOX_CALLBACK_BASE_URL set: over HTTP, through the outbound client', () => {
    let app: TestApp;
    let m: Onboarded;
    let hostSink: Sink;
    let redirectTarget: Sink;
    let redirecting: Sink;
    before(async () => {
      hostSink = await startSink();
      redirectTarget = await startSink();
      redirecting = await startSink(() => ({ status: 307, headers: { Location: `${redirectTarget.origin}/stolen` } }));
      app = await startTestApp({ background: false, env: { PAYMENTS_SANDBOX_CALLBACK_BASE_URL: redirecting.origin } });
      m = await onboardMerchant(app.baseUrl, 'egress2', ['T1']);
    });
    after(async () => {
      await app?.stop();
      await Promise.all([hostSink, redirectTarget, redirecting].map((s) => s?.close()));
    });

    it('posts to the configured base, not the Host; a redirect there is not followed and the page says nothing of it', async () => {
      const p = await walletPayment(app, m, 'EGRESS-REDIRECT');
      const answer = await submitWithHost(p.page, { token: p.token, action: 'approve' }, `127.0.0.1:${hostSink.port}`);
      expect(hostSink.received).to.deep.equal([]);
      expect(redirecting.received.map((r) => [r.method, r.path])).to.deep.equal([
        ['POST', '/payment-providers/v1/SANDBOX_WALLET/callbacks'],
      ]);
      expect(redirectTarget.received).to.deep.equal([]);
      // The hub never got the callback: the page answers its one generic error, naming neither host nor status.
      expect(answer.status).to.equal(500);
      expect(answer.text).not.to.include(String(redirecting.port));
      expect(answer.text).not.to.include('307');
      expect((await app.container.services.payments.transactions.load(p.id)).status).to.equal('PROCESSING');
    });
  });
});
