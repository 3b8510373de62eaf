import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { IdentityApi, expectInfoCode } from './support.js';

/**
 * The seed's login flow as README.md ("Login flow") and docs/identity.md show it with curl: a silent login with
 * `auth`, then consent for profile/phone/email, a new code, its exchange and user info.
 */
describe('identity: the login flow of the README', () => {
  let app: TestApp;
  let api: IdentityApi;
  before(async () => {
    app = await startTestApp({ background: false });
    api = new IdentityApi(app.baseUrl);
  });
  after(() => app?.stop());

  it('silent login learns the user id; consent, exchange and user info give the profile with phone and e-mail', async () => {
    const userId = await api.createUser();
    const miniApp = await api.createMiniApp();

    // 3-6: silent login: a code with `auth` only, no consent asked; the exchange names the user.
    const silent = await api.exchange(miniApp, await api.issueCode(userId, miniApp.miniAppId, ['auth']));
    expect(silent).to.include({ token_type: 'Bearer', scope: 'auth', user_id: userId });
    expectInfoCode(await api.userInfo(silent.access_token), 403, 4201);

    // 3b: profile/phone/email need consent first.
    expect((await api.issueCodeRaw(userId, miniApp.miniAppId, ['profile'])).status).to.equal(409);
    await api.consent(userId, miniApp.miniAppId, ['profile', 'phone', 'email']);
    const code = await api.issueCode(userId, miniApp.miniAppId, ['profile', 'phone', 'email']);

    // 4b-7b: exchange, then the detailed info.
    const tokens = await api.exchange(miniApp, code);
    expect(tokens).to.include({ scope: 'profile phone email', user_id: userId });
    const info = expectInfoCode(await api.userInfo(tokens.access_token), 200, 0);
    expect(info.message).to.equal('Success');
    expect(info.data).to.deep.equal({
      user_id: userId,
      name: 'Nguyễn Thị Hoa',
      date_of_birth: '1992-05-17',
      gender: 'FEMALE',
      avatar_url: 'https://cdn.example.vn/a/hoa.png',
      phone_number: '0901112233',
      email: 'hoa@example.vn',
    });
  });
});
