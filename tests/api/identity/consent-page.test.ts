import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { call } from '../support.js';
import { IdentityApi, expectInfoCode, form, type MiniApp } from './support.js';

/** The consent page over plain HTTP: CSRF, redirects, escaping, refusals. The browser test drives it for real. */
describe('identity: the sandbox consent page over HTTP', () => {
  let app: TestApp;
  let api: IdentityApi;
  let miniApp: MiniApp;
  before(async () => {
    app = await startTestApp({ background: false });
    api = new IdentityApi(app.baseUrl);
    miniApp = await api.createMiniApp(['https://mini.example.vn/cb']);
  });
  after(() => app?.stop());

  const page = (query: Record<string, string>) =>
    call(app.baseUrl, 'GET', `/sandbox/identity/consent?${new URLSearchParams(query).toString()}`);

  /** The form's CSRF token and its cookie, as a browser would hold them. */
  async function open(userId: string, extra: Record<string, string> = {}) {
    const res = await page({ miniapp_id: miniApp.miniAppId, user_id: userId, ...extra });
    expect(res.status, res.text).to.equal(200);
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(res.text)![1]!;
    return { res, cookie, csrf };
  }

  const submit = (fields: Record<string, string>, grants: string[], cookie?: string) =>
    fetch(`${app.baseUrl}/sandbox/identity/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie && { Cookie: cookie }) },
      body: [form(fields), ...grants.map((g) => `grant=${g}`)].join('&'),
    });

  it('renders a checkbox per scope, escaped, framed by nobody, with a SameSite=Strict CSRF cookie', async () => {
    const userId = await api.createUser({ name: '<script>alert("x")</script>' });
    const { res } = await open(userId, { state: '"><img src=x>' });
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.headers.get('x-frame-options')).to.equal('DENY');
    expect(res.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
    expect(res.headers.get('set-cookie')).to.match(/HttpOnly; SameSite=Strict/);
    expect(res.text).not.to.include('<script>alert');
    expect(res.text).to.include('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(res.text).to.include('value="&quot;&gt;&lt;img src=x&gt;"');
    for (const scope of ['profile', 'phone', 'email']) expect(res.text).to.include(`value="${scope}"`);
  });

  it('refuses a form without the CSRF token of its cookie', async () => {
    const userId = await api.createUser();
    const { cookie, csrf } = await open(userId);
    const fields = { user_id: userId, miniapp_id: miniApp.miniAppId, scope: 'profile', decision: 'allow' };
    expect((await submit({ ...fields, csrf }, ['profile'])).status).to.equal(403);
    expect((await submit(fields, ['profile'], cookie)).status).to.equal(403);
    expect((await submit({ ...fields, csrf: 'x'.repeat(43) }, ['profile'], cookie)).status).to.equal(403);
    expect((await submit({ ...fields, csrf }, ['profile'], cookie)).status).to.equal(200);
  });

  it('redirects to a registered redirect_uri with the code and state, which exchanges', async () => {
    const userId = await api.createUser();
    const extra = { redirect_uri: 'https://mini.example.vn/cb', state: 's-1', scope: 'auth profile email' };
    const { cookie, csrf } = await open(userId, extra);
    const res = await submit(
      { csrf, user_id: userId, miniapp_id: miniApp.miniAppId, decision: 'allow', ...extra },
      ['profile'],
      cookie,
    );
    expect(res.status).to.equal(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).to.equal('https://mini.example.vn/cb');
    expect(location.searchParams.get('state')).to.equal('s-1');
    const tokens = await api.exchange(miniApp, location.searchParams.get('code')!);
    expect(tokens.scope).to.equal('auth profile');
    const info = expectInfoCode(await api.userInfo(tokens.access_token), 200, 0);
    expect(info.data).not.to.have.property('email');
  });

  it('denies with error=access_denied, issuing nothing', async () => {
    const userId = await api.createUser();
    const extra = { redirect_uri: 'https://mini.example.vn/cb', state: 's-2', scope: 'profile' };
    const { cookie, csrf } = await open(userId, extra);
    const fields = { csrf, user_id: userId, miniapp_id: miniApp.miniAppId, ...extra };
    const res = await submit({ ...fields, decision: 'deny' }, ['profile'], cookie);
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal('https://mini.example.vn/cb?error=access_denied&state=s-2');
    const none = await submit({ ...fields, decision: 'allow' }, [], cookie);
    expect(none.headers.get('location')).to.equal('https://mini.example.vn/cb?error=access_denied&state=s-2');
  });

  it('refuses an unregistered redirect_uri, unknown parties, bad scopes and bad ids with an HTML page', async () => {
    const userId = await api.createUser();
    const cases: [Record<string, string>, number][] = [
      [{ miniapp_id: miniApp.miniAppId, user_id: userId, redirect_uri: 'https://evil.example/cb' }, 400],
      [{ miniapp_id: miniApp.miniAppId, user_id: 'nobody' }, 404],
      [{ miniapp_id: 'nope', user_id: userId }, 404],
      [{ miniapp_id: miniApp.miniAppId, user_id: userId, scope: 'openid' }, 400],
      [{ miniapp_id: miniApp.miniAppId, user_id: userId, scope: 'auth' }, 400],
      [{ miniapp_id: miniApp.miniAppId, user_id: '<b>' }, 400],
      [{ miniapp_id: miniApp.miniAppId }, 400],
    ];
    for (const [query, status] of cases) {
      const res = await page(query);
      expect(res.status, JSON.stringify(query)).to.equal(status);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      expect(res.text).not.to.include('<b>');
    }
    const repeated = await call(
      app.baseUrl,
      'GET',
      `/sandbox/identity/consent?miniapp_id=${miniApp.miniAppId}&user_id=${userId}&user_id=x`,
    );
    expect(repeated.status).to.equal(400);
  });
});
