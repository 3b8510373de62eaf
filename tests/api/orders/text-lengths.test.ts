import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { issueTestAccessToken } from '../../support/access-tokens.js';
import { eventually } from '../../support/eventually.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call, expectEnvelope, expectOk, operatorHeaders, type HttpResult } from '../support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook } from './support.js';

interface Page {
  orders: { order_id: string; status: string }[];
}

/**
 * The order view's reads count lengths as its webhooks do, in characters (code points; docs/orders-fields.md, "Field
 * rules"; docs/conventions.md, "Text lengths"): an order whose id and status are 64 emoji each is found by the portal's
 * path and by both listings' status filter; 65 emoji are refused with each interface's own code. Through the
 * projection, so over PostgreSQL (the fast app has no read model).
 */
describe('Order view: query lengths in characters (HTTP, PostgreSQL, projector)', () => {
  let app: TestApp;
  let token: string;
  const emoji = (n: number) => '😀'.repeat(n);
  const orderId = emoji(64);
  const status = emoji(64);

  before(async () => {
    app = await startTestApp();
    const keys = await merchantWithKey(app, 'TL');
    token = await issueTestAccessToken(app, { userId: 'tl-user', scopes: ['profile'] });
    const body = createdBody(
      orderId,
      { event_timestamp: Date.now() - 60_000 },
      { status, customer: { customer_id: 'tl-user', name: emoji(128) } },
    );
    expectOrders(await sendWebhook(app, 'created', body, { keys }), 200, 0);
  });
  after(() => app?.stop());

  /** The operator API's refusal: its code, the message, and the field when one is named. */
  const refused = (res: HttpResult<unknown>, message: string, field?: string) => {
    expect(expectEnvelope(res, 400, 'OPS-REQ-001')).to.deep.equal(field ? { field } : null);
    expect(res.body!.message).to.equal(message);
  };
  const portal = <T = Page>(path: string) =>
    call<T>(app.baseUrl, 'GET', `/operator/v1/orders${path}`, { headers: operatorHeaders() });
  const customer = (query: string) =>
    call<Page>(app.baseUrl, 'GET', `/order/cov/app/v1/orders${query}`, {
      headers: { ...gatewayHeaders(), Authorization: `Bearer ${token}` },
    });

  it("the portal's detail takes an orderId of 64 emoji in its path; 65 are OPS-REQ-001", async () => {
    await eventually(async () => {
      const detail = expectOk(await portal<{ order_id: string }>(`/TL/${encodeURIComponent(orderId)}`));
      expect(detail.order_id).to.equal(orderId);
    });
    refused(await portal(`/TL/${encodeURIComponent(emoji(65))}`), 'orderId must be at most 64 characters');
  });

  it("the portal's listing filters by a status of 64 emoji; 65 are OPS-REQ-001 naming status", async () => {
    await eventually(async () => {
      const page = expectOk(await portal(`?merchant_id=TL&status=${encodeURIComponent(status)}`));
      expect(page.orders.map((o) => o.order_id)).to.deep.equal([orderId]);
    });
    refused(
      await portal(`?merchant_id=TL&status=${encodeURIComponent(emoji(65))}`),
      'status: must be at most 64 characters',
      'status',
    );
  });

  it("the customer's listing filters by a status of 64 emoji; 65 are 4001 naming status", async () => {
    await eventually(async () => {
      const page = expectOrders(await customer(`?status=${encodeURIComponent(status)}`), 200, 0);
      expect(page.orders.map((o) => o.order_id)).to.deep.equal([orderId]);
    });
    expectOrders(
      await customer(`?status=${encodeURIComponent(emoji(65))}`),
      400,
      4001,
      /^status: must be at most 64 characters$/,
    );
  });
});
