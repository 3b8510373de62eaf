import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  expectOk,
  expectRefusal,
  reserveBody,
  shopScene,
  Shopper,
  type OperatorApi,
  type ShopMerchant,
} from '../support.js';

describe('Shop API over HTTP: concurrent reserves on one pool', () => {
  let app: TestApp;
  let operator: OperatorApi;
  let merchant: ShopMerchant;
  let campaignId: number;

  before(async () => {
    app = await startTestApp({ background: false });
    const scene = await shopScene(app.baseUrl);
    ({ operator, merchant } = scene);
    campaignId = scene.campaign.id;
  });
  after(() => app?.stop());

  it('300 parallel reserves (distinct users and orders) on a stock of 100: exactly 100 accepted, all readable, the rest SHOP-PUR-012', async () => {
    const pool = await operator.createPool(campaignId, { totalQuantity: 100 });
    const buyers = Array.from({ length: 300 }, () => new Shopper(app.baseUrl, merchant));
    const answers = await Promise.all(buyers.map((b) => b.reserve(reserveBody([{ pool }]))));

    const accepted = answers.flatMap((res, i) =>
      res.status === 200 ? [{ buyer: buyers[i]!, reservation: expectOk(res) }] : [],
    );
    expect(accepted).to.have.length(100);
    for (const res of answers) if (res.status !== 200) expectRefusal(res, 400, 'SHOP-PUR-012');
    expect(await operator.pool(pool.poolId)).to.include({
      totalQuantity: 100,
      remainingQuantity: 0,
      reservedQuantity: 100,
    });

    const codes = accepted.map((a) => a.reservation.items[0]!.vouchers[0]!.voucherCode);
    expect(new Set(codes).size).to.equal(100);
    const lookups = await Promise.all(
      accepted.map(({ buyer, reservation }) => buyer.lookup(reservation.reservationKey)),
    );
    lookups.forEach((res, i) => {
      const data = expectOk(res);
      expect(data).to.include({ reservationKey: accepted[i]!.reservation.reservationKey, status: 'RESERVED' });
      expect(data.items).to.deep.equal(accepted[i]!.reservation.items);
    });
  });

  it('one user firing 20 parallel reserves at a pool with maxPerDay 5: exactly 5 accepted, the rest SHOP-PUR-016', async () => {
    const pool = await operator.createPool(campaignId, { totalQuantity: 100, terms: { maxPerDay: 5 } });
    const buyer = new Shopper(app.baseUrl, merchant);
    const answers = await Promise.all(Array.from({ length: 20 }, () => buyer.reserve(reserveBody([{ pool }]))));

    expect(answers.filter((res) => res.status === 200)).to.have.length(5);
    for (const res of answers) if (res.status !== 200) expectRefusal(res, 400, 'SHOP-PUR-016');
    expect(await operator.pool(pool.poolId)).to.include({ remainingQuantity: 95, reservedQuantity: 5 });
  });
});
