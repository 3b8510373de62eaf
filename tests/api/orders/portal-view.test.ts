import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { issueTestAccessToken } from '../../support/access-tokens.js';
import { eventually } from '../../support/eventually.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call, expectOk, operatorHeaders } from '../support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook, type MerchantKeys } from './support.js';

type Row = Record<string, unknown> & { order_id: string };
interface Page {
  orders: Row[];
}
type Detail = Row & { order: { amounts: Record<string, unknown> } };

/**
 * What the order view shows, read from the seed (spec 002 part A, "Resources"; docs/orders-read-models.md, "Queries"):
 * - the envelope's `created_by`, `platform_code` and `miniapp_id` are required on order.created, and "the order view
 *   stores event snapshots and shows them in an internal portal": the portal's detail and listing show them, next to
 *   the order as the envelope has them;
 * - amounts are numbers the sender sends: every view (listing and detail, portal and customer app) returns them as
 *   sent, not rounded;
 * - `amounts.paid_amount` and `amounts.refunded_amount` are "no, >= 0, default 0": not sent, they read back 0.
 */
describe('Order view: what the portal and the customer app show (HTTP, PostgreSQL, projector)', () => {
  let app: TestApp;
  let keys: MerchantKeys;
  let token: string;
  const at = Date.now() - 3_600_000;
  const envelope = { created_by: 'staff-007', platform_code: 'SUPERAPP-VN', miniapp_id: 'vinfast-cars' };
  const customer = { customer: { customer_id: 'pv-user', name: 'Trần Thị Bình' } };
  const precise = { currency: 'VND', total_amount: 12345678.123456, grand_total: 12345678.123456 };

  const portalList = async () =>
    expectOk(await call<Page>(app.baseUrl, 'GET', '/operator/v1/orders?merchant_id=PV', { headers: operatorHeaders() }))
      .orders;
  const portalDetail = async (orderId: string) =>
    expectOk(
      await call<Detail>(app.baseUrl, 'GET', `/operator/v1/orders/PV/${orderId}`, { headers: operatorHeaders() }),
    );
  const customerHeaders = () => ({ ...gatewayHeaders(), Authorization: `Bearer ${token}` });
  const customerList = async () =>
    expectOrders(
      await call<Page>(app.baseUrl, 'GET', '/order/cov/app/v1/orders', { headers: customerHeaders() }),
      200,
      0,
    ).orders;
  const customerDetail = async (orderId: string) =>
    expectOrders(
      await call<Detail>(app.baseUrl, 'GET', `/order/cov/app/v1/orders/PV/${orderId}`, { headers: customerHeaders() }),
      200,
      0,
    );
  const rowOf = (rows: Row[], orderId: string) => {
    const row = rows.find((r) => r.order_id === orderId);
    expect(row, orderId).to.not.equal(undefined);
    return row!;
  };

  before(async () => {
    app = await startTestApp();
    keys = await merchantWithKey(app, 'PV');
    token = await issueTestAccessToken(app, { userId: 'pv-user', scopes: ['profile'] });
    const created = (orderId: string, ts: number, order: Record<string, unknown>) =>
      sendWebhook(
        app,
        'created',
        createdBody(orderId, { event_timestamp: ts, ...envelope }, { ...customer, ...order }),
        {
          keys,
        },
      );
    expectOrders(await created('pv-precise', at, { amounts: { ...precise, paid_amount: 0.000123 } }), 200, 0);
    expectOrders(await created('pv-defaults', at + 1000, {}), 200, 0);
    expectOrders(await created('pv-updated', at + 2000, {}), 200, 0);
    expectOrders(
      await sendWebhook(
        app,
        'updated',
        {
          event_timestamp: at + 3000,
          order: {
            order_id: 'pv-updated',
            amounts: { total_amount: 9876543.987654, grand_total: 9876543.987654, refunded_amount: 1234.56789 },
          },
        },
        { keys },
      ),
      200,
      0,
    );
    await eventually(async () => {
      expect(await portalList()).to.have.length(3);
      expect((await portalDetail('pv-updated')).order.amounts.total_amount).to.equal(9876543.987654);
    });
  });
  after(() => app?.stop());

  it("the portal's detail and listing show created_by, platform_code and miniapp_id as order.created sent them", async () => {
    expect(await portalDetail('pv-precise')).to.include(envelope);
    for (const id of ['pv-precise', 'pv-defaults', 'pv-updated'])
      expect(rowOf(await portalList(), id)).to.include(envelope);
    // The customer app is not the portal: created_by may name a staff user of the host platform (a decision,
    // docs/orders-read-models.md, "Queries").
    expect(rowOf(await customerList(), 'pv-precise')).to.not.have.any.keys(Object.keys(envelope));
    expect(await customerDetail('pv-precise')).to.not.have.any.keys(Object.keys(envelope));
  });

  it('every view returns amounts exactly as sent (12345678.123456, not 12345678.1235)', async () => {
    const exact = { total_amount: 12345678.123456, grand_total: 12345678.123456 };
    expect(rowOf(await portalList(), 'pv-precise')).to.include({ ...exact, paid_amount: 0.000123 });
    expect(rowOf(await customerList(), 'pv-precise')).to.include({ ...exact, paid_amount: 0.000123 });
    for (const detail of [await portalDetail('pv-precise'), await customerDetail('pv-precise')]) {
      expect(detail).to.include(exact);
      expect(detail.order.amounts).to.deep.equal({ ...precise, paid_amount: 0.000123, refunded_amount: 0 });
    }
    const updated = { total_amount: 9876543.987654, grand_total: 9876543.987654, refunded_amount: 1234.56789 };
    expect(rowOf(await portalList(), 'pv-updated')).to.include(updated);
    expect(rowOf(await customerList(), 'pv-updated')).to.include(updated);
    expect((await portalDetail('pv-updated')).order.amounts).to.include(updated);
  });

  it('paid_amount and refunded_amount not sent read back 0 ("default 0") in every view', async () => {
    const zero = { paid_amount: 0, refunded_amount: 0 };
    expect(rowOf(await portalList(), 'pv-defaults')).to.include(zero);
    expect(rowOf(await customerList(), 'pv-defaults')).to.include(zero);
    for (const detail of [await portalDetail('pv-defaults'), await customerDetail('pv-defaults')])
      expect(detail.order.amounts).to.deep.equal({
        currency: 'VND',
        total_amount: 10_000_000,
        grand_total: 9_500_000,
        ...zero,
      });
    expect((await customerDetail('pv-updated')).order.amounts).to.include({
      paid_amount: 0,
      refunded_amount: 1234.56789,
    });
  });
});
