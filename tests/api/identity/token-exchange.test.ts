import { expect } from 'chai';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { fixedClock } from '../../../application/shared/clock.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call } from '../support.js';
import { IdentityApi, basic, expectInfoCode, expectOAuthError, form, type MiniApp, type TokenBody } from './support.js';

describe('identity: POST /oauth2/token/exchange and /oauth2/token/revoke', () => {
  let app: TestApp;
  let api: IdentityApi;
  let miniApp: MiniApp;
  let userId: string;
  before(async () => {
    app = await startTestApp({ background: false });
    api = new IdentityApi(app.baseUrl);
    miniApp = await api.createMiniApp();
    userId = await api.createUser();
    await api.consent(userId, miniApp.miniAppId, ['profile', 'phone', 'email']);
  });
  after(() => app?.stop());

  const code = (scopes = ['profile']) => api.issueCode(userId, miniApp.miniAppId, scopes);

  describe('authorization codes', () => {
    it('answers RFC 6749 §5.1 with the user id, uncached', async () => {
      const res = await api.tokenRaw(
        { grant_type: 'authorization_code', code: await code(['auth', 'profile']) },
        miniApp,
      );
      expect(res.status, res.text).to.equal(200);
      const body = res.body as TokenBody;
      expect(body).to.have.all.keys('access_token', 'token_type', 'expires_in', 'refresh_token', 'scope', 'user_id');
      expect(body).to.include({ token_type: 'Bearer', expires_in: 1800, scope: 'auth profile', user_id: userId });
      expect(body.refresh_token).to.match(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.headers.get('pragma')).to.equal('no-cache');
    });

    it('gives exactly one token when the same code is exchanged by parallel requests', async () => {
      for (let round = 0; round < 4; round++) {
        const c = await code();
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => api.tokenRaw({ grant_type: 'authorization_code', code: c }, miniApp)),
        );
        const won = answers.filter((a) => a.status === 200);
        expect(won, answers.map((a) => a.text).join('\n')).to.have.length(1);
        for (const lost of answers.filter((a) => a.status !== 200)) expectOAuthError(lost, 400, 'invalid_grant');
        // The losers presented a used code: the grant it opened is revoked (RFC 6749 §4.1.2).
        expectInfoCode(await api.userInfo((won[0]!.body as TokenBody).access_token), 401, 4113);
      }
    });

    it('refuses a replayed code and revokes the tokens the first exchange gave', async () => {
      const c = await code();
      const first = await api.exchange(miniApp, c);
      expectInfoCode(await api.userInfo(first.access_token), 200, 0);
      const again = expectOAuthError(
        await api.tokenRaw({ grant_type: 'authorization_code', code: c }, miniApp),
        400,
        'invalid_grant',
      );
      expect(again.error_description).to.match(/already exchanged/);
      expectInfoCode(await api.userInfo(first.access_token), 401, 4113);
      expectOAuthError(
        await api.tokenRaw({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, miniApp),
        400,
        'invalid_grant',
      );
    });

    it('refuses a code presented by another mini-app, which learns nothing and uses nothing up', async () => {
      const other = await api.createMiniApp();
      const c = await code();
      expectOAuthError(await api.tokenRaw({ grant_type: 'authorization_code', code: c }, other), 400, 'invalid_grant');
      expect((await api.exchange(miniApp, c)).user_id).to.equal(userId);
    });

    it('refuses an unknown code', async () => {
      expectOAuthError(
        await api.tokenRaw({ grant_type: 'authorization_code', code: 'no-such-code' }, miniApp),
        400,
        'invalid_grant',
      );
    });
  });

  describe('client authentication', () => {
    const exchange = async (headers: Record<string, string>, extra: Record<string, string> = {}) =>
      api.tokenRaw({ grant_type: 'authorization_code', code: await code(), ...extra }, undefined, headers);

    it('takes client_id and client_secret as parameters instead of HTTP Basic', async () => {
      const res = await exchange({}, { client_id: miniApp.miniAppId, client_secret: miniApp.secret });
      expect(res.status, res.text).to.equal(200);
    });

    it('refuses a wrong secret or an unknown mini-app with 401 invalid_client and a Basic challenge', async () => {
      for (const authorization of [basic(miniApp.miniAppId, 'mas_wrong'), basic('no-such-app', miniApp.secret)]) {
        const res = await exchange({ Authorization: authorization });
        expectOAuthError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).to.match(/^Basic realm="oauth2"/);
      }
      const inBody = await exchange({}, { client_id: miniApp.miniAppId, client_secret: 'mas_wrong' });
      expectOAuthError(inBody, 401, 'invalid_client');
      expect(inBody.headers.get('www-authenticate')).to.equal(null);
    });

    it('refuses no authentication, half of it, a malformed one or two at once', async () => {
      const none = await exchange({});
      expectOAuthError(none, 401, 'invalid_client');
      expect(none.headers.get('www-authenticate')).to.match(/^Basic/);
      expectOAuthError(await exchange({}, { client_id: miniApp.miniAppId }), 401, 'invalid_client');
      expectOAuthError(await exchange({ Authorization: 'Bearer abc' }), 401, 'invalid_client');
      expectOAuthError(await exchange({ Authorization: 'Basic bm9jb2xvbg==' }), 401, 'invalid_client');
      expectOAuthError(
        await exchange(
          { Authorization: basic(miniApp.miniAppId, miniApp.secret) },
          { client_id: miniApp.miniAppId, client_secret: miniApp.secret },
        ),
        400,
        'invalid_request',
      );
    });
  });

  describe('refresh tokens', () => {
    const refresh = (token: string, extra: Record<string, string> = {}, client = miniApp) =>
      api.tokenRaw({ grant_type: 'refresh_token', refresh_token: token, ...extra }, client);

    it('rotates: a refresh answers new tokens and the used refresh token stops working; reusing it revokes the grant', async () => {
      const first = await api.exchange(miniApp, await code(['profile', 'phone']));
      const res = await refresh(first.refresh_token);
      expect(res.status, res.text).to.equal(200);
      const second = res.body as TokenBody;
      expect(second).to.include({ scope: 'profile phone', user_id: userId, token_type: 'Bearer' });
      expect(second.refresh_token).not.to.equal(first.refresh_token);
      expect(second.refresh_token.split('.')[0]).to.equal(first.refresh_token.split('.')[0]);
      expectInfoCode(await api.userInfo(second.access_token), 200, 0);

      const reuse = expectOAuthError(await refresh(first.refresh_token), 400, 'invalid_grant');
      expect(reuse.error_description).to.match(/already used/);
      expectInfoCode(await api.userInfo(second.access_token), 401, 4113);
      expectInfoCode(await api.userInfo(first.access_token), 401, 4113);
      expectOAuthError(await refresh(second.refresh_token), 400, 'invalid_grant');
    });

    it('narrows the scope on request, and refuses one the grant does not hold or does not know', async () => {
      const first = await api.exchange(miniApp, await code(['profile', 'phone']));
      const narrowed = await refresh(first.refresh_token, { scope: 'profile' });
      expect(narrowed.status, narrowed.text).to.equal(200);
      expect((narrowed.body as TokenBody).scope).to.equal('profile');
      const next = (narrowed.body as TokenBody).refresh_token;
      expectOAuthError(await refresh(next, { scope: 'profile email' }), 400, 'invalid_scope');
      expectOAuthError(await refresh(next, { scope: 'openid' }), 400, 'invalid_scope');
      // The refused requests rotated nothing: the token still works, with the grant's full scope.
      expect(((await refresh(next)).body as TokenBody).scope).to.equal('profile phone');
    });

    it("refuses an unknown refresh token and another mini-app's, without revoking its grant", async () => {
      const first = await api.exchange(miniApp, await code());
      expectOAuthError(await refresh('not-a-refresh-token'), 400, 'invalid_grant');
      expectOAuthError(await refresh(`${first.refresh_token.split('.')[0]}.forged`), 400, 'invalid_grant');
      expectOAuthError(await refresh(first.refresh_token, {}, await api.createMiniApp()), 400, 'invalid_grant');
      expect((await refresh(first.refresh_token)).status).to.equal(200);
    });
  });

  describe('revocation (RFC 7009)', () => {
    const revoke = (token: string, client = miniApp) =>
      call(app.baseUrl, 'POST', '/oauth2/token/revoke', {
        headers: {
          ...gatewayHeaders(),
          Authorization: basic(client.miniAppId, client.secret),
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        rawBody: form({ token }),
      });

    it('revokes the grant of a refresh token or an access token: its tokens stop working', async () => {
      for (const which of ['refresh_token', 'access_token'] as const) {
        const tokens = await api.exchange(miniApp, await code());
        const res = await revoke(tokens[which]);
        expect(res.status, res.text).to.equal(200);
        expect(res.headers.get('cache-control')).to.equal('no-store');
        expectInfoCode(await api.userInfo(tokens.access_token), 401, 4113);
        expectOAuthError(
          await api.tokenRaw({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, miniApp),
          400,
          'invalid_grant',
        );
      }
    });

    it("answers 200 for an unknown token and leaves another mini-app's alone", async () => {
      expect((await revoke('no-such-token')).status).to.equal(200);
      const tokens = await api.exchange(miniApp, await code());
      expect((await revoke(tokens.refresh_token, await api.createMiniApp())).status).to.equal(200);
      expectInfoCode(await api.userInfo(tokens.access_token), 200, 0);
    });

    it('refuses a missing token or a failed client authentication', async () => {
      expectOAuthError(await revoke(''), 400, 'invalid_request');
      expectOAuthError(await revoke('x', { ...miniApp, secret: 'mas_wrong' }), 401, 'invalid_client');
    });
  });

  describe('bad input', () => {
    const post = (body: string | undefined, contentType?: string) =>
      call(app.baseUrl, 'POST', '/oauth2/token/exchange', {
        headers: {
          ...gatewayHeaders(),
          Authorization: basic(miniApp.miniAppId, miniApp.secret),
          ...(contentType && { 'Content-Type': contentType }),
        },
        rawBody: body,
      });

    it('answers each malformed request with its RFC 6749 error, never a 500', async () => {
      const form = 'application/x-www-form-urlencoded';
      expectOAuthError(await post(undefined), 400, 'invalid_request');
      expectOAuthError(await post('grant_type=authorization_code&code=x', 'text/plain'), 415, 'invalid_request');
      expectOAuthError(await post('{"grant_type":', 'application/json'), 400, 'invalid_request');
      expectOAuthError(await post('[1,2]', 'application/json'), 400, 'invalid_request');
      expectOAuthError(await post('code=abc', form), 400, 'invalid_request');
      expectOAuthError(await post('grant_type=password&username=a', form), 400, 'unsupported_grant_type');
      expectOAuthError(await post('grant_type=authorization_code', form), 400, 'invalid_request');
      expectOAuthError(await post('grant_type=authorization_code&code=a&code=b', form), 400, 'invalid_request');
      expectOAuthError(await post('grant_type=refresh_token', form), 400, 'invalid_request');
      expectOAuthError(
        await post('{"grant_type":"authorization_code","code":7}', 'application/json'),
        400,
        'invalid_request',
      );
      expectOAuthError(
        await post(`grant_type=authorization_code&code=${'x'.repeat(20_000)}`, form),
        413,
        'invalid_request',
      );
      const unknown = await call(app.baseUrl, 'GET', '/oauth2/nothing-here', { headers: gatewayHeaders() });
      expectOAuthError(unknown, 404, 'not_found');
    });

    it('takes the parameters as JSON too', async () => {
      const res = await post(
        JSON.stringify({ grant_type: 'authorization_code', code: await code() }),
        'application/json',
      );
      expect(res.status, res.text).to.equal(200);
    });
  });

  describe('GET /oauth2/jwks', () => {
    it('serves the public keys (no private part), which verify an access token with jose', async () => {
      const res = await call<unknown>(app.baseUrl, 'GET', '/oauth2/jwks');
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('public, max-age=300');
      const jwks = res.body as unknown as { keys: Record<string, string>[] };
      expect(jwks.keys).to.have.length(1);
      expect(jwks.keys[0]).to.include({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
      expect(jwks.keys[0]).not.to.have.property('d');

      const tokens = await api.exchange(miniApp, await code(['profile', 'email']));
      const { payload, protectedHeader } = await jwtVerify(tokens.access_token, createLocalJWKSet(jwks as never), {
        issuer: 'superapp-identity',
        audience: miniApp.miniAppId,
      });
      expect(protectedHeader).to.include({ alg: 'EdDSA', typ: 'at+jwt', kid: jwks.keys[0]!.kid });
      expect(payload).to.include({
        sub: userId,
        aud: miniApp.miniAppId,
        client_id: miniApp.miniAppId,
        scope: 'profile email',
      });
      expect(payload.sid).to.match(/^[0-9a-f-]{36}$/);
      expect(payload.exp! - payload.iat!).to.equal(1800);
    });
  });
});

describe('identity: lifetimes on an injected clock', () => {
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  let app: TestApp;
  let api: IdentityApi;
  let miniApp: MiniApp;
  let userId: string;
  before(async () => {
    app = await startTestApp({
      background: false,
      clock,
      env: {
        IDENTITY_AUTH_CODE_TTL_SECONDS: '60',
        IDENTITY_ACCESS_TOKEN_TTL_SECONDS: '600',
        IDENTITY_REFRESH_TOKEN_TTL_SECONDS: '3600',
      },
    });
    api = new IdentityApi(app.baseUrl);
    miniApp = await api.createMiniApp();
    userId = await api.createUser();
    await api.consent(userId, miniApp.miniAppId, ['profile']);
  });
  after(() => app?.stop());

  it('takes a code until it expires, and refuses it from then on', async () => {
    const fresh = await api.issueCode(userId, miniApp.miniAppId, ['profile']);
    const stale = await api.issueCode(userId, miniApp.miniAppId, ['profile']);
    clock.advance(59_000);
    expect((await api.exchange(miniApp, fresh)).expires_in).to.equal(600);
    clock.advance(1_000);
    const refused = expectOAuthError(
      await api.tokenRaw({ grant_type: 'authorization_code', code: stale }, miniApp),
      400,
      'invalid_grant',
    );
    expect(refused.error_description).to.match(/expired/);
  });

  it('answers 4112 for an expired access token and invalid_grant for an expired refresh token', async () => {
    const tokens = await api.exchange(miniApp, await api.issueCode(userId, miniApp.miniAppId, ['profile']));
    clock.advance(599_000);
    expectInfoCode(await api.userInfo(tokens.access_token), 200, 0);
    clock.advance(1_000);
    const expired = await api.userInfo(tokens.access_token);
    expectInfoCode(expired, 401, 4112);
    expect(expired.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
    clock.advance(3_000_000);
    expectOAuthError(
      await api.tokenRaw({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, miniApp),
      400,
      'invalid_grant',
    );
  });
});
