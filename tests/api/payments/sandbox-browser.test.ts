import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { newCommandContext } from '../../../application/shared/command-context.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { cardProviderId, expectHubOk, hub, hubHeaders, initBody, onboardMerchant, type Onboarded } from './support.js';

/** Debian's chromium (`apt-get install chromium`), or CHROMIUM_PATH. */
const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && fs.existsSync(p),
);

/**
 * The sandbox card page in headless Chromium, as a payer: open paymentInfo.redirectUrl, pay with the approving test
 * card and the 3-D Secure OTP, ticking "save this card", land on the merchant's returnURL; the transaction reads
 * COMPLETED and the card is saved. Then pay with the saved card: only its 3-D Secure step. Without a browser
 * the suite is skipped with a notice, except under CI=true, where it fails (as the identity consent page's test).
 */
describe('Payment hub: the sandbox card page in headless Chromium', function () {
  let app: TestApp;
  let browser: Browser;
  let m: Onboarded;
  let shop: http.Server;
  let shopOrigin: string;

  before(async function () {
    if (!executablePath) {
      if (process.env.CI === 'true')
        throw new Error('no Chromium found (apt-get install -y chromium): required under CI');
      console.log('    (skipped: no Chromium at /usr/bin/chromium; apt-get install chromium, or set CHROMIUM_PATH)');
      this.skip();
    }
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
    app = await startTestApp({ background: false });
    m = await onboardMerchant(app.baseUrl, 'browser');
    await app.container.services.identity.users.register(newCommandContext({ actor: { operator: 'tests' } }), 'u-br', {
      name: 'Browser User',
    } as never);
    // The merchant's frontend: the page returnURL names.
    shop = http.createServer((req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<h1 id="order">${req.url}</h1>`),
    );
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  });
  after(async () => {
    await browser?.close();
    shop?.close();
    await app?.stop();
  });

  /** An init of the card method for host-app user u-br, its page's address as served by this app. */
  async function initCard(orderId: string, returnURL: string, extra: Record<string, unknown> = {}) {
    const body = initBody(m.secretKey, orderId, {
      paymentMethodCode: 'CREDIT_CARD',
      providerId: cardProviderId,
      returnURL,
      ...extra,
    });
    const headers = {
      ...hubHeaders(m.keys.T1!.paymentApiKey, String(Math.floor(Date.now() / 1000))),
      'X-MiniApp-User-ID': 'u-br',
    };
    const res = await hub(app.baseUrl, 'POST', '/transactions', headers, body);
    const data = expectHubOk(res) as { transaction: { id: string }; paymentInfo: { redirectUrl: string } };
    const redirect = new URL(data.paymentInfo.redirectUrl);
    return { id: data.transaction.id, url: `${app.baseUrl}${redirect.pathname}${redirect.search}` };
  }

  it('pays with 4111 1111 1111 1111 and OTP 123456, saving the card, lands on returnURL: COMPLETED', async () => {
    const returnURL = `${shopOrigin}/orders/BR-1/REF-BR-1`;
    const data = await initCard('BR-1', returnURL);

    const page = await browser.newPage();
    await page.goto(data.url);
    expect(await page.textContent('#amount')).to.include('150,000 VND');
    await page.fill('#card-number', '4111 1111 1111 1111');
    await page.check('#save-card');
    await Promise.all([page.waitForNavigation(), page.click('#pay')]);
    expect(await page.textContent('#three-ds')).to.equal('3-D Secure');
    await page.fill('#otp', '123456');
    await Promise.all([page.waitForURL(returnURL), page.click('#confirm-otp')]);
    expect(await page.textContent('#order')).to.equal('/orders/BR-1/REF-BR-1');
    await page.close();

    const t = await app.container.services.payments.transactions.load(data.id);
    expect(t.status).to.equal('COMPLETED');
    expect(t.payment?.cardNo).to.equal('411111******1111');
    const caller = { merchantCode: 'browser', terminalId: 'T1', apiKeyId: m.keys.T1!.apiKeyId };
    const saved = await app.container.services.payments.savedMethods.list(caller, 'u-br');
    expect(saved.map((s) => [s.cardNo, s.expiry, s.sourceTransactionId])).to.deep.equal([
      ['411111******1111', '12/30', data.id],
    ]);
  });

  it('pays again with the saved card (userPaymentMethodId): only the OTP, back on returnURL, COMPLETED', async () => {
    const caller = { merchantCode: 'browser', terminalId: 'T1', apiKeyId: m.keys.T1!.apiKeyId };
    const [saved] = await app.container.services.payments.savedMethods.list(caller, 'u-br');
    const returnURL = `${shopOrigin}/orders/BR-2/REF-BR-2`;
    const data = await initCard('BR-2', returnURL, { userPaymentMethodId: saved!.userPaymentMethodId });

    const page = await browser.newPage();
    await page.goto(data.url);
    expect(await page.textContent('#saved-card')).to.equal('411111******1111');
    expect(await page.$('#card-number')).to.equal(null);
    await Promise.all([page.waitForNavigation(), page.click('#pay-saved')]);
    await page.fill('#otp', '123456');
    await Promise.all([page.waitForURL(returnURL), page.click('#confirm-otp')]);
    await page.close();

    const t = await app.container.services.payments.transactions.load(data.id);
    expect(t).to.deep.include({ status: 'COMPLETED', userPaymentMethodId: saved!.userPaymentMethodId });
  });
});
