import fs from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../../support/app.js';
import { IdentityApi, expectInfoCode, type MiniApp } from './support.js';

/** Debian's chromium (`apt-get install chromium`), or CHROMIUM_PATH. */
const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && fs.existsSync(p),
);

/**
 * The consent page driven in headless Chromium, as a user would: grant profile and phone (not e-mail), read the code
 * off the page, exchange it as the mini-app backend, and read user info: the phone number, no e-mail. Without a
 * browser the suite is skipped with a notice, except under CI=true, where it fails.
 */
describe('identity: the consent page in headless Chromium', function () {
  let app: TestApp;
  let browser: Browser;
  let api: IdentityApi;
  let miniApp: MiniApp;

  before(async function () {
    if (!executablePath) {
      if (process.env.CI === 'true')
        throw new Error('no Chromium found (apt-get install -y chromium): required under CI');
      console.log('    (skipped: no Chromium at /usr/bin/chromium; apt-get install chromium, or set CHROMIUM_PATH)');
      this.skip();
    }
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
    app = await startTestApp({ background: false });
    api = new IdentityApi(app.baseUrl);
    miniApp = await api.createMiniApp();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('grants profile and phone, shows a code that exchanges for user info with the phone number and no e-mail', async () => {
    const userId = await api.createUser({ name: 'Võ Thị Lan', phone_number: '0938123456', email: 'lan@example.vn' });
    const page = await browser.newPage();
    const query = new URLSearchParams({ miniapp_id: miniApp.miniAppId, user_id: userId, scope: 'profile phone email' });
    const response = await page.goto(`${app.baseUrl}/sandbox/identity/consent?${query.toString()}`);
    expect(response?.status()).to.equal(200);
    expect(await page.textContent('h1')).to.include(`Mini-app ${miniApp.miniAppId}`);

    await page.check('input[name="grant"][value="profile"]');
    await page.check('input[name="grant"][value="phone"]');
    expect(await page.isChecked('input[name="grant"][value="email"]')).to.equal(false);
    await Promise.all([page.waitForNavigation(), page.click('#allow')]);

    const code = (await page.textContent('#auth-code'))!.trim();
    expect(code).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.textContent('#scopes')).to.equal('profile phone');
    await page.close();

    const tokens = await api.exchange(miniApp, code);
    expect(tokens).to.include({ scope: 'profile phone', user_id: userId });
    const info = expectInfoCode(await api.userInfo(tokens.access_token), 200, 0);
    expect(info.data).to.include({ user_id: userId, name: 'Võ Thị Lan', phone_number: '0938123456' });
    expect(info.data).not.to.have.property('email');

    // The consent stands: the page shows it ticked next time.
    const again = await browser.newPage();
    await again.goto(`${app.baseUrl}/sandbox/identity/consent?${query.toString()}`);
    expect(await again.isChecked('input[name="grant"][value="phone"]')).to.equal(true);
    expect(await again.isChecked('input[name="grant"][value="email"]')).to.equal(false);
    await again.close();
  });
});
