import { expect } from 'chai';
import { SignJWT, generateKeyPair } from 'jose';
import { startTestApp, type TestApp } from '../../support/app.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call } from '../support.js';
import { IdentityApi, expectInfoCode, type MiniApp } from './support.js';

describe('identity: GET /open/identity/v1/userinfo', () => {
  let app: TestApp;
  let api: IdentityApi;
  let miniApp: MiniApp;
  let userId: string;
  before(async () => {
    app = await startTestApp({ background: false });
    api = new IdentityApi(app.baseUrl);
    miniApp = await api.createMiniApp();
    userId = await api.createUser({ name: 'Phạm Quốc Bảo', gender: 'MALE', avatar_url: null });
    await api.consent(userId, miniApp.miniAppId, ['profile', 'phone', 'email']);
  });
  after(() => app?.stop());

  const tokenFor = async (scopes: string[], user = userId, client = miniApp) =>
    (await api.exchange(client, await api.issueCode(user, client.miniAppId, scopes))).access_token;

  const base = {
    name: 'Phạm Quốc Bảo',
    date_of_birth: '1992-05-17',
    gender: 'MALE',
    avatar_url: null,
  };

  describe('every combination of scopes', () => {
    const cases: [string[], Record<string, unknown>][] = [
      [['profile'], {}],
      [['profile', 'phone'], { phone_number: '0901112233' }],
      [['profile', 'email'], { email: 'hoa@example.vn' }],
      [['profile', 'phone', 'email'], { phone_number: '0901112233', email: 'hoa@example.vn' }],
      [['auth', 'profile', 'phone'], { phone_number: '0901112233' }],
    ];
    for (const [scopes, extra] of cases)
      it(`${scopes.join(' ')}: the profile${Object.keys(extra).length ? ` with ${Object.keys(extra).join(', ')}` : ''}`, async () => {
        const res = await api.userInfo(await tokenFor(scopes));
        const body = expectInfoCode(res, 200, 0);
        expect(body.message).to.equal('Success');
        expect(body.data).to.deep.equal({ user_id: userId, ...base, ...extra });
        expect(res.headers.get('cache-control')).to.equal('no-store');
      });

    for (const scopes of [['auth'], ['phone'], ['email'], ['phone', 'email'], ['auth', 'phone', 'email']])
      it(`${scopes.join(' ')} (no profile): 403 4201 with an insufficient_scope challenge`, async () => {
        const res = await api.userInfo(await tokenFor(scopes));
        expectInfoCode(res, 403, 4201);
        expect(res.headers.get('www-authenticate')).to.match(/error="insufficient_scope", scope="profile"/);
      });
  });

  describe('consent withdrawn after the token was issued', () => {
    it('leaves out a field whose consent was withdrawn, and refuses all once profile is', async () => {
      const user = await api.createUser();
      await api.consent(user, miniApp.miniAppId, ['profile', 'phone', 'email']);
      const token = await tokenFor(['profile', 'phone', 'email'], user);
      await api.consent(user, miniApp.miniAppId, ['profile', 'email']);
      const withoutPhone = expectInfoCode(await api.userInfo(token), 200, 0);
      expect(withoutPhone.data).to.include.keys('email').and.not.to.have.property('phone_number');
      await api.consent(user, miniApp.miniAppId, []);
      expectInfoCode(await api.userInfo(token), 403, 4202);
    });

    it("answers null for a field the user's profile lacks", async () => {
      const user = await api.createUser({ phone_number: null });
      await api.consent(user, miniApp.miniAppId, ['profile', 'phone']);
      const info = expectInfoCode(await api.userInfo(await tokenFor(['profile', 'phone'], user)), 200, 0);
      expect(info.data).to.include({ phone_number: null });
    });
  });

  describe('refused tokens', () => {
    it('a missing or non-Bearer Authorization header: 401 4110 with a Bearer challenge', async () => {
      const missing = await api.userInfo(undefined);
      expectInfoCode(missing, 401, 4110);
      expect(missing.headers.get('www-authenticate')).to.equal('Bearer realm="identity"');
      expectInfoCode(await api.userInfo(undefined, { Authorization: 'Basic YTpi' }), 401, 4110);
      expectInfoCode(await api.userInfo(undefined, { Authorization: 'Bearer' }), 401, 4110);
    });

    it('garbage, a tampered token or one signed with another key: 401 4111', async () => {
      for (const garbage of ['garbage', 'a.b.c', 'x'.repeat(5000)])
        expectInfoCode(await api.userInfo(garbage), 401, 4111);
      const [header, payload, signature] = (await tokenFor(['profile'])).split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
      const tampered = Buffer.from(JSON.stringify({ ...claims, scope: 'profile phone email' })).toString('base64url');
      expectInfoCode(await api.userInfo(`${header}.${tampered}.${signature}`), 401, 4111);
      const { privateKey } = await generateKeyPair('EdDSA');
      const forged = await new SignJWT(claims)
        .setProtectedHeader({
          alg: 'EdDSA',
          typ: 'at+jwt',
          kid: JSON.parse(Buffer.from(header!, 'base64url').toString()).kid,
        })
        .sign(privateKey);
      const refused = await api.userInfo(forged);
      expectInfoCode(refused, 401, 4111);
      expect(refused.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
    });

    it('a revoked token: 401 4113', async () => {
      const tokens = await api.exchange(miniApp, await api.issueCode(userId, miniApp.miniAppId, ['profile']));
      await call(app.baseUrl, 'POST', '/oauth2/token/revoke', {
        headers: { ...gatewayHeaders(), 'Content-Type': 'application/x-www-form-urlencoded' },
        rawBody: new URLSearchParams({
          token: tokens.access_token,
          client_id: miniApp.miniAppId,
          client_secret: miniApp.secret,
        }).toString(),
      });
      expectInfoCode(await api.userInfo(tokens.access_token), 401, 4113);
    });

    it('without gateway credentials never reaches user info nor the token endpoint: the gateway answers', async () => {
      const token = await tokenFor(['profile']);
      const info = await api.userInfo(token, { client_id: '', client_secret: '' });
      expect(info.status, info.text).to.equal(401);
      expect(info.body).to.deep.include({ code: 4101, data: null });
      const wrong = await api.userInfo(token, { client_secret: 'not-the-secret-0123456789' });
      expect(wrong.status, wrong.text).to.equal(401);
      expect(wrong.body).to.deep.include({ code: 4100 });
      const code = await api.issueCode(userId, miniApp.miniAppId, ['auth']);
      const exchange = await api.tokenRaw({ grant_type: 'authorization_code', code }, miniApp, {
        client_id: '',
        client_secret: '',
      });
      expect(exchange.status, exchange.text).to.equal(401);
      expect(exchange.body).to.deep.include({ error: 'invalid_client' });
      // The code was never seen by the token endpoint: it is still good behind the gateway.
      expect((await api.exchange(miniApp, code)).access_token).to.be.a('string');
    });

    it('an unknown path: 404 4004 in the same envelope', async () => {
      expectInfoCode(await call(app.baseUrl, 'GET', '/open/identity/v1/me', { headers: gatewayHeaders() }), 404, 4004);
    });
  });
});
