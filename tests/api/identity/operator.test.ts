import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { call, expectOk, operatorHeaders, type HttpResult } from '../support.js';
import { IdentityApi, basic, expectOAuthError } from './support.js';

/** The operator envelope's refusal: status, code and (optionally) message; data may name a field. */
function expectRefusal(res: HttpResult<unknown>, status: number, code: string, message?: RegExp): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.body, res.text).to.have.all.keys('code', 'message', 'data');
  expect(res.body!.code, res.text).to.equal(code);
  if (message) expect(res.body!.message).to.match(message);
}

describe('identity: operator endpoints', () => {
  let app: TestApp;
  let api: IdentityApi;
  before(async () => {
    app = await startTestApp({ background: false });
    api = new IdentityApi(app.baseUrl);
  });
  after(() => app?.stop());

  const op = (method: string, path: string, json?: unknown, headers = {}) =>
    call<Record<string, unknown>>(app.baseUrl, method, `/operator/v1/identity${path}`, {
      headers: { ...operatorHeaders(), ...headers },
      json,
    });

  describe('users', () => {
    it('registers, reads and changes a user; null clears a field', async () => {
      const created = expectOk(await op('POST', '/users', { user_id: 'u-crud-1', name: '  Đỗ Hùng  ' }), 201);
      expect(created).to.include({ user_id: 'u-crud-1', name: 'Đỗ Hùng', phone_number: null, gender: null });
      expect(created.consents).to.deep.equal([]);
      const changed = expectOk(await op('PATCH', '/users/u-crud-1', { phone_number: '0912345678', gender: 'MALE' }));
      expect(changed).to.include({ phone_number: '0912345678', gender: 'MALE' });
      expect(expectOk(await op('PATCH', '/users/u-crud-1', { phone_number: null }))).to.include({ phone_number: null });
      expect(expectOk(await op('GET', '/users/u-crud-1'))).to.include({ name: 'Đỗ Hùng', gender: 'MALE' });
    });

    it('refuses a taken id, bad fields (naming them), an unknown user and a malformed id', async () => {
      await api.createUser({ user_id: 'u-taken' });
      expectRefusal(await op('POST', '/users', { user_id: 'u-taken', name: 'X' }), 409, 'OPS-CONFLICT');
      const bad: [Record<string, unknown>, string][] = [
        [{ user_id: 'bad id', name: 'X' }, 'user_id'],
        [{ user_id: 'u-2', name: '' }, 'name'],
        [{ user_id: 'u-2', name: 'X', phone_number: '12345' }, 'phone_number'],
        [{ user_id: 'u-2', name: 'X', email: 'not-mail' }, 'email'],
        [{ user_id: 'u-2', name: 'X', date_of_birth: '2001-02-30' }, 'date_of_birth'],
        [{ user_id: 'u-2', name: 'X', date_of_birth: '2999-01-01' }, 'date_of_birth'],
        [{ user_id: 'u-2', name: 'X', gender: 'M' }, 'gender'],
        [{ user_id: 'u-2', name: 'X', avatar_url: 'javascript:alert(1)' }, 'avatar_url'],
        [{ user_id: 'u-2', name: 'X', extra: 1 }, 'extra'],
      ];
      for (const [body, field] of bad) {
        const res = await op('POST', '/users', body);
        expectRefusal(res, 400, 'OPS-REQ-001');
        expect(res.body!.data, JSON.stringify(body)).to.deep.equal({ field });
      }
      expectRefusal(await op('PATCH', '/users/u-taken', { name: null }), 400, 'OPS-REQ-001');
      expectRefusal(await op('PATCH', '/users/u-taken', {}), 400, 'OPS-REQ-001');
      expectRefusal(await op('GET', '/users/nobody'), 404, 'OPS-NOT-FOUND');
      expectRefusal(await op('PATCH', '/users/nobody', { name: 'X' }), 404, 'OPS-NOT-FOUND');
      expectRefusal(await op('GET', '/users/%20bad'), 400, 'OPS-REQ-001');
    });

    it('sets consent per mini-app: listed scopes granted, others withdrawn', async () => {
      const user = await api.createUser();
      const { miniAppId } = await api.createMiniApp();
      const granted = expectOk(
        await op('PUT', `/users/${user}/consents/${miniAppId}`, { scopes: ['email', 'profile'] }),
      );
      expect(granted.consents).to.deep.equal([{ miniapp_id: miniAppId, scopes: ['profile', 'email'] }]);
      const narrowed = expectOk(await op('PUT', `/users/${user}/consents/${miniAppId}`, { scopes: ['phone'] }));
      expect(narrowed.consents).to.deep.equal([{ miniapp_id: miniAppId, scopes: ['phone'] }]);
      expectRefusal(await op('PUT', `/users/${user}/consents/nope`, { scopes: [] }), 404, 'OPS-NOT-FOUND');
      expectRefusal(await op('PUT', `/users/nobody/consents/${miniAppId}`, { scopes: [] }), 404, 'OPS-NOT-FOUND');
      expectRefusal(await op('PUT', `/users/${user}/consents/${miniAppId}`, { scopes: ['auth'] }), 400, 'OPS-REQ-001');
      expectRefusal(
        await op('PUT', `/users/${user}/consents/${miniAppId}`, { scopes: ['phone', 'phone'] }),
        400,
        'OPS-REQ-001',
      );
    });
  });

  describe('mini-apps', () => {
    it('shows the secret once, never again; rotating replaces it at once', async () => {
      const created = expectOk(
        await op('POST', '/mini-apps', { miniapp_id: 'app-rot', name: 'Rotating', redirect_uris: ['https://a.vn/cb'] }),
        201,
      );
      const first = created.client_secret as string;
      expect(first).to.match(/^mas_[A-Za-z0-9_-]{43}$/);
      const read = expectOk(await op('GET', '/mini-apps/app-rot'));
      expect(read).to.deep.equal({
        miniapp_id: 'app-rot',
        name: 'Rotating',
        redirect_uris: ['https://a.vn/cb'],
        registered_at: created.registered_at,
        secret_rotated_at: null,
      });
      const user = await api.createUser();
      const rotated = expectOk(await op('POST', '/mini-apps/app-rot/secret'));
      expect(rotated.client_secret).to.match(/^mas_/).and.not.equal(first);
      const code = await api.issueCode(user, 'app-rot', ['auth']);
      expectOAuthError(
        await api.tokenRaw({ grant_type: 'authorization_code', code }, { miniAppId: 'app-rot', secret: first }),
        401,
        'invalid_client',
      );
      const ok = await api.tokenRaw({ grant_type: 'authorization_code', code }, undefined, {
        Authorization: basic('app-rot', rotated.client_secret as string),
      });
      expect(ok.status, ok.text).to.equal(200);
    });

    it('answers a resend under its X-Idempotency-Key without the secret, which is never kept', async () => {
      const body = { miniapp_id: 'app-idem', name: 'Idem' };
      const headers = { 'X-Idempotency-Key': 'idem-app-1' };
      expect(expectOk(await op('POST', '/mini-apps', body, headers), 201).client_secret).to.be.a('string');
      expect(expectOk(await op('POST', '/mini-apps', body, headers), 201).client_secret).to.equal(null);
      expectRefusal(await op('POST', '/mini-apps', { ...body, name: 'Other' }, headers), 409, 'OPS-CONFLICT');
    });

    it('refuses a taken id, bad redirect URIs, an unknown mini-app', async () => {
      await api.createMiniApp();
      expectOk(await op('POST', '/mini-apps', { miniapp_id: 'app-dup', name: 'A' }), 201);
      expectRefusal(await op('POST', '/mini-apps', { miniapp_id: 'app-dup', name: 'A' }), 409, 'OPS-CONFLICT');
      for (const uris of [['not a url'], ['https://a.vn/cb#frag'], ['https://a.vn/x', 'https://a.vn/x']])
        expectRefusal(
          await op('POST', '/mini-apps', { miniapp_id: 'app-bad', name: 'A', redirect_uris: uris }),
          400,
          'OPS-REQ-001',
        );
      expectRefusal(await op('GET', '/mini-apps/nope'), 404, 'OPS-NOT-FOUND');
      expectRefusal(await op('POST', '/mini-apps/nope/secret'), 404, 'OPS-NOT-FOUND');
    });
  });

  describe('auth codes (sandbox)', () => {
    it('issues auth without consent and consent scopes only once consented', async () => {
      const user = await api.createUser();
      const { miniAppId } = await api.createMiniApp();
      const code = expectOk(await api.issueCodeRaw(user, miniAppId, ['auth']), 201);
      expect(code).to.include.keys('code', 'expires_in', 'expires_at');
      expect(code.scopes).to.deep.equal(['auth']);
      const refused = await api.issueCodeRaw(user, miniAppId, ['auth', 'phone']);
      expectRefusal(refused, 409, 'OPS-CONFLICT', /phone/);
      await api.consent(user, miniAppId, ['phone']);
      expect(expectOk(await api.issueCodeRaw(user, miniAppId, ['phone', 'auth']), 201).scopes).to.deep.equal([
        'auth',
        'phone',
      ]);
    });

    it('refuses an unknown user or mini-app, no scope, an unknown scope, an idempotency key', async () => {
      const user = await api.createUser();
      const { miniAppId } = await api.createMiniApp();
      expectRefusal(await api.issueCodeRaw('nobody', miniAppId, ['auth']), 404, 'OPS-NOT-FOUND');
      expectRefusal(await api.issueCodeRaw(user, 'nope', ['auth']), 404, 'OPS-NOT-FOUND');
      expectRefusal(await api.issueCodeRaw(user, miniAppId, []), 400, 'OPS-REQ-001');
      expectRefusal(await api.issueCodeRaw(user, miniAppId, ['openid']), 400, 'OPS-REQ-001');
      const keyed = await op(
        'POST',
        '/auth-codes',
        { user_id: user, miniapp_id: miniAppId, scopes: ['auth'] },
        {
          'X-Idempotency-Key': 'k-1',
        },
      );
      expectRefusal(keyed, 400, 'OPS-REQ-001');
    });
  });
});

describe('identity: the sandbox switched off (IDENTITY_SANDBOX=false)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ background: false, env: { IDENTITY_SANDBOX: 'false' } });
  });
  after(() => app?.stop());

  it('issues no code through the operator API and shows no consent page', async () => {
    const api = new IdentityApi(app.baseUrl);
    const user = await api.createUser();
    const { miniAppId } = await api.createMiniApp();
    expectRefusal(await api.issueCodeRaw(user, miniAppId, ['auth']), 404, 'OPS-NOT-FOUND', /sandbox is off/);
    const page = await call(app.baseUrl, 'GET', `/sandbox/identity/consent?miniapp_id=${miniAppId}&user_id=${user}`);
    expect(page.status).to.equal(404);
    expect(page.text).to.include('sandbox_disabled');
  });
});
