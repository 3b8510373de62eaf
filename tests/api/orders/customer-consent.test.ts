/**
 * The customer queries and the user's consent (docs/orders.md, "The customer's consent"; spec README, contradiction
 * 7): an `auth`-only token reads no orders (403 4203, as user info refuses it 4201); `profile` reads them, and the
 * customer's phone and e-mail come back only with `phone` / `email` granted and still consented to; a withdrawn
 * `profile` is 403 4204 at once; a host-app audience needs no consent.
 */
import { expect } from 'chai';
import { issueTestAccessToken } from '../../support/access-tokens.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call, expectOk, operatorHeaders } from '../support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook } from './support.js';

interface Detail {
  customer_id: string;
  order: { customer: Record<string, unknown> };
}

describe('Order view customer queries: scope and consent (HTTP, PostgreSQL, projector)', () => {
  let app: TestApp;
  const customer = { customer_id: 'cons-1', name: 'Trần Thị Bình', phone: '0912345678', email: 'binh@example.vn' };

  const asCustomer = <T>(path: string, token: string) =>
    call<T>(app.baseUrl, 'GET', `/order/cov/app/v1/orders${path}`, {
      headers: { ...gatewayHeaders(), Authorization: `Bearer ${token}` },
    });
  const consent = async (scopes: string[], miniAppId = 'test-miniapp') =>
    expectOk(
      await call(app.baseUrl, 'PUT', `/operator/v1/identity/users/${customer.customer_id}/consents/${miniAppId}`, {
        headers: operatorHeaders(),
        json: { scopes },
      }),
    );
  const detail = async (token: string) =>
    expectOrders(await asCustomer<Detail>('/CONS_A/cons-o1', token), 200, 0).order.customer;

  before(async () => {
    app = await startTestApp({ env: { ORDERS_HOST_APP_AUDIENCES: 'host-app' } });
    const keys = await merchantWithKey(app, 'CONS_A');
    expectOrders(await sendWebhook(app, 'created', createdBody('cons-o1', {}, { customer }), { keys }), 200, 0);
    const token = await issueTestAccessToken(app, { userId: customer.customer_id, scopes: ['profile'] });
    await eventually(async () => expectOrders(await asCustomer('/CONS_A/cons-o1', token), 200, 0));
  });
  after(() => app?.stop());

  it('an auth-only token reads neither the list nor an order: 403 4203, insufficient_scope', async () => {
    const authOnly = await issueTestAccessToken(app, { userId: customer.customer_id, scopes: ['auth'] });
    for (const path of ['', '/CONS_A/cons-o1', '/CONS_A/nope']) {
      const res = await asCustomer(path, authOnly);
      expect(expectOrders(res, 403, 4203, /profile/), path).to.equal(null);
      expect(res.headers.get('www-authenticate')).to.equal(
        'Bearer realm="orders", error="insufficient_scope", scope="profile"',
      );
      expect(res.text).to.not.include(customer.phone).and.not.include(customer.email);
    }
  });

  it('profile reads the orders without phone and e-mail; each comes with its own scope and consent', async () => {
    await consent(['profile', 'phone', 'email']);
    const list = await asCustomer<{ orders: { order_id: string }[] }>('', await tokenWith(['profile']));
    expect(expectOrders(list, 200, 0).orders.map((o) => o.order_id)).to.deep.equal(['cons-o1']);
    expect(list.text).to.not.include(customer.phone).and.not.include(customer.email);

    expect(await detail(await tokenWith(['profile']))).to.deep.equal({ customer_id: 'cons-1', name: customer.name });
    expect(await detail(await tokenWith(['profile', 'phone']))).to.deep.equal({
      customer_id: 'cons-1',
      name: customer.name,
      phone: customer.phone,
    });
    expect(await detail(await tokenWith(['profile', 'phone', 'email']))).to.deep.equal(customer);
  });

  it('a withdrawal holds at once for tokens issued before it: phone gone, then profile refused 403 4204', async () => {
    const full = await tokenWith(['profile', 'phone', 'email']);
    expect(await detail(full)).to.deep.equal(customer);
    await consent(['profile', 'email']);
    expect(await detail(full)).to.deep.equal({ customer_id: 'cons-1', name: customer.name, email: customer.email });
    await consent([]);
    const res = await asCustomer('/CONS_A/cons-o1', full);
    expectOrders(res, 403, 4204, /withdrew/);
    expect(res.text).to.not.include(customer.email);
    expectOrders(await asCustomer('', full), 403, 4204);
  });

  it("the host app's own audience (ORDERS_HOST_APP_AUDIENCES) reads every field without consent", async () => {
    const host = await issueTestAccessToken(app, { userId: customer.customer_id, miniAppId: 'host-app' });
    expect(await detail(host)).to.deep.equal(customer);
    // Another mini-app's auth-only token is still refused.
    const other = await issueTestAccessToken(app, { userId: customer.customer_id, miniAppId: 'other-app' });
    expectOrders(await asCustomer('', other), 403, 4203);
  });

  /** A token of test-miniapp with `scopes`, the user's consent set to them first (issueTestAccessToken does). */
  const tokenWith = (scopes: string[]) => issueTestAccessToken(app, { userId: customer.customer_id, scopes });
});
