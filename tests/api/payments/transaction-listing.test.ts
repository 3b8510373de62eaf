import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { call, expectOk, operatorHeaders } from '../support.js';
import { expectHubOk, hub, hubHeaders, initBody, onboardMerchant, sign, type Onboarded } from './support.js';

interface Listed {
  items: { transactionId: string; orderId: string; status: string; endedBy: string | null; terminalId: string }[];
}

/** The operators' transaction list over the payments_transactions projection (docs/payments.md, "Read models"). */
describe('Payment hub transaction list (operator API, projection)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let m: Onboarded;
  before(async () => {
    app = await startTestApp({ env: process.env.NATS_URL ? { NATS_URL: process.env.NATS_URL } : {} });
    m = await onboardMerchant(app.baseUrl, 'listed', ['T1', 'T2']);
    await onboardMerchant(app.baseUrl, 'other');
  });
  after(() => app?.stop());

  const ts = () => String(Math.floor(Date.now() / 1000));
  const init = async (orderId: string, terminal = 'T1') => {
    const res = await hub(
      app.baseUrl,
      'POST',
      '/transactions',
      hubHeaders(m.keys[terminal]!.paymentApiKey, ts()),
      initBody(m.secretKey, orderId),
    );
    return expectHubOk(res) as { transaction: { id: string }; paymentInfo: { redirectUrl: string } };
  };
  const list = (query = '', merchant = 'listed') =>
    call<Listed>(app.baseUrl, 'GET', `/operator/v1/payment-merchants/${merchant}/transactions${query}`, {
      headers: operatorHeaders(),
    });

  it("lists the merchant's transactions newest first with their current status, filtered", async () => {
    const processing = await init('L-1');
    const held = await init('L-2', 'T2');
    const url = new URL(held.paymentInfo.redirectUrl);
    await fetch(`${app.baseUrl}${url.pathname}`, {
      method: 'POST',
      body: new URLSearchParams({ token: url.searchParams.get('token')!, action: 'approve' }),
    });
    const cancelled = await init('L-3');
    const id = cancelled.transaction.id;
    expectHubOk(
      await hub(app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(m.keys.T1!.paymentApiKey, ts()), {
        transactionId: id,
        secureHash: sign(m.secretKey, `${id}|${ts()}`),
      }),
    );

    const all = await eventually(async () => {
      const items = expectOk(await list()).items;
      expect(items.map((i) => [i.orderId, i.status])).to.have.deep.members([
        ['L-1', 'PROCESSING'],
        ['L-2', 'HOLDING'],
        ['L-3', 'CANCELLED'],
      ]);
      return items;
    });
    expect(all.find((i) => i.orderId === 'L-3')).to.deep.include({ endedBy: 'MERCHANT', transactionId: id });
    expect(all.find((i) => i.orderId === 'L-1')!.transactionId).to.equal(processing.transaction.id);
    expect(expectOk(await list('?status=HOLDING')).items.map((i) => i.orderId)).to.deep.equal(['L-2']);
    expect(expectOk(await list('?terminalId=T2')).items.map((i) => i.orderId)).to.deep.equal(['L-2']);
    expect(expectOk(await list('?limit=1')).items).to.have.length(1);
    expect(expectOk(await list('', 'other')).items).to.deep.equal([]);
    expect((await list('', 'nobody')).status).to.equal(404);
  });

  it('refuses malformed filters with 400 naming the field', async () => {
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?status=DONE', 'status'],
      ['?color=red', 'color'],
    ]) {
      const res = await list(query);
      expect(res.status, query).to.equal(400);
      expect(res.body!.data, query).to.deep.equal({ field });
    }
  });
});
