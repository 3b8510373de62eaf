import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  call,
  expectOk,
  expectRefusal,
  isoInstant,
  reserveBody,
  shopScene,
  Shopper,
  type OperatorApi,
  type PoolData,
  type ShopMerchant,
} from '../support.js';

describe('Shop API over HTTP: commit, release and reservation lookup', () => {
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

  async function reserved(
    quantity = 2,
  ): Promise<{ buyer: Shopper; pool: PoolData; reservation: Awaited<ReturnType<Shopper['reserved']>> }> {
    const pool = await operator.createPool(campaignId, { totalQuantity: 10 });
    const buyer = new Shopper(app.baseUrl, merchant);
    return { buyer, pool, reservation: await buyer.reserved(reserveBody([{ pool, quantity }])) };
  }

  it('looks a reservation up: status RESERVED, times, and the vouchers the reserve returned', async () => {
    const { buyer, reservation } = await reserved();
    const data = expectOk(await buyer.lookup(reservation.reservationKey));
    // As the seed's Reservation table: committedAt and releasedAt are absent until they apply, never null.
    expect(data).to.deep.equal({ ...reservation, status: 'RESERVED' });
    // Keys are compared case-insensitively.
    expect(expectOk(await buyer.lookup(reservation.reservationKey.toUpperCase())).reservationKey).to.equal(
      reservation.reservationKey,
    );
  });

  it('commits: COMMITTED with committedAt and the items; the held stock is sold', async () => {
    const { buyer, pool, reservation } = await reserved();
    const data = expectOk(await buyer.commit(reservation.reservationKey));
    expect(data).to.have.all.keys('reservationKey', 'orderId', 'committedAt', 'items');
    expect(data).to.deep.include({
      reservationKey: reservation.reservationKey,
      orderId: reservation.orderId,
      items: reservation.items,
    });
    expect(data.committedAt).to.match(isoInstant);
    expect(Date.parse(data.committedAt!)).to.be.at.least(Date.parse(reservation.reservedAt));
    expect(await operator.pool(pool.poolId)).to.include({ remainingQuantity: 8, reservedQuantity: 0, soldQuantity: 2 });

    const looked = expectOk(await buyer.lookup(reservation.reservationKey));
    expect(looked).to.include({ status: 'COMMITTED', committedAt: data.committedAt });
    expect(looked).not.to.have.property('releasedAt');
    expect(looked.items).to.deep.equal(reservation.items); // the buyer's codes, still shown
  });

  it('refuses a second commit with 400 SHOP-PUR-006 and a release after commit with 400 SHOP-PUR-007, changing nothing', async () => {
    const { buyer, pool, reservation } = await reserved();
    expectOk(await buyer.commit(reservation.reservationKey));
    expectRefusal(await buyer.commit(reservation.reservationKey), 400, 'SHOP-PUR-006', /COMMITTED/);
    expectRefusal(await buyer.release(reservation.reservationKey, 'USER_CANCELLED'), 400, 'SHOP-PUR-007', /COMMITTED/);
    expect(await operator.pool(pool.poolId)).to.include({ remainingQuantity: 8, soldQuantity: 2 });
    expect(expectOk(await buyer.lookup(reservation.reservationKey)).status).to.equal('COMMITTED');
  });

  it('releases: RELEASED with releasedAt, the stock goes back; a second release is SHOP-PUR-007 and a commit after it SHOP-PUR-006', async () => {
    const { buyer, pool, reservation } = await reserved();
    const data = expectOk(await buyer.release(reservation.reservationKey, 'PAYMENT_FAILED'));
    expect(data).to.have.all.keys('reservationKey', 'orderId', 'releasedAt');
    expect(data).to.include({ reservationKey: reservation.reservationKey, orderId: reservation.orderId });
    expect(data.releasedAt).to.match(isoInstant);
    expect(await operator.pool(pool.poolId)).to.include({
      remainingQuantity: 10,
      reservedQuantity: 0,
      soldQuantity: 0,
    });

    expectRefusal(await buyer.release(reservation.reservationKey), 400, 'SHOP-PUR-007', /RELEASED/);
    expectRefusal(await buyer.commit(reservation.reservationKey), 400, 'SHOP-PUR-006', /RELEASED/);
    expect(await operator.pool(pool.poolId)).to.include({ remainingQuantity: 10, soldQuantity: 0 });
    const looked = expectOk(await buyer.lookup(reservation.reservationKey));
    expect(looked).to.include({ status: 'RELEASED', releasedAt: data.releasedAt });
    expect(looked).not.to.have.property('committedAt');
    // The released vouchers went back to stock: their codes are void and never shown again.
    expect(looked.items).to.deep.equal(reservation.items.map((item) => ({ ...item, vouchers: [] })));
    expect(JSON.stringify(looked)).not.to.include(reservation.items[0]!.vouchers[0]!.voucherCode);
  });

  it('releases without a reason; refuses a reason that is not a short string with 400 SHOP-REQ-001', async () => {
    const { buyer, reservation } = await reserved(1);
    const send = (json: unknown) =>
      call(app.baseUrl, 'POST', '/api/v1/vouchers/release', { json, headers: buyer.headers() });
    expectRefusal(
      await send({ reservationKey: reservation.reservationKey, reason: 42 }),
      400,
      'SHOP-REQ-001',
      /reason/,
    );
    expectRefusal(
      await send({ reservationKey: reservation.reservationKey, reason: 'x'.repeat(300) }),
      400,
      'SHOP-REQ-001',
      /reason/,
    );
    expectOk(await send({ reservationKey: reservation.reservationKey }));
  });

  it("answers another user's or another merchant's reservation with 404 SHOP-PUR-003 on commit, release and lookup", async () => {
    const { buyer, pool, reservation } = await reserved();
    const otherMerchant = await operator.createMerchant();
    const strangers = [new Shopper(app.baseUrl, merchant), new Shopper(app.baseUrl, otherMerchant, buyer.userId)];
    for (const stranger of strangers) {
      expectRefusal(await stranger.lookup(reservation.reservationKey), 404, 'SHOP-PUR-003');
      expectRefusal(await stranger.commit(reservation.reservationKey), 404, 'SHOP-PUR-003');
      expectRefusal(await stranger.release(reservation.reservationKey), 404, 'SHOP-PUR-003');
    }
    expect(expectOk(await buyer.lookup(reservation.reservationKey)).status).to.equal('RESERVED');
    expect(await operator.pool(pool.poolId)).to.include({ reservedQuantity: 2, soldQuantity: 0 });
  });

  it('answers an unknown key with 404 SHOP-PUR-003 and a key that is not a UUID with 400 SHOP-REQ-001', async () => {
    const buyer = new Shopper(app.baseUrl, merchant);
    const unknown = randomUUID();
    expectRefusal(await buyer.lookup(unknown), 404, 'SHOP-PUR-003');
    expectRefusal(await buyer.commit(unknown), 404, 'SHOP-PUR-003');
    expectRefusal(await buyer.release(unknown), 404, 'SHOP-PUR-003');

    for (const bad of ['not-a-uuid', '12345', "1' OR '1'='1"]) {
      expectRefusal(await buyer.lookup(bad), 400, 'SHOP-REQ-001', /UUID/);
      expectRefusal(await buyer.commit(bad), 400, 'SHOP-REQ-001', /reservationKey/);
      expectRefusal(await buyer.release(bad), 400, 'SHOP-REQ-001', /reservationKey/);
    }
    const malformedPath = await call(app.baseUrl, 'GET', '/api/v1/vouchers/reservation/%ZZ', {
      headers: buyer.headers(),
    });
    expectRefusal(malformedPath, 400, 'SHOP-REQ-001', /path/);
    expectRefusal(await buyer.commit(undefined), 400, 'SHOP-REQ-001', /reservationKey is required/);
    expectRefusal(await buyer.commit(42), 400, 'SHOP-REQ-001', /reservationKey/);
  });

  it('answers concurrent commit and release of one reservation with exactly one success', async () => {
    const { buyer, pool, reservation } = await reserved();
    const [commit, release] = await Promise.all([
      buyer.commit(reservation.reservationKey),
      buyer.release(reservation.reservationKey),
    ]);
    const outcomes = [commit.status, release.status].sort();
    expect(outcomes).to.deep.equal([200, 400]);
    const state = await operator.pool(pool.poolId);
    if (commit.status === 200) {
      expectRefusal(release, 400, 'SHOP-PUR-007');
      expect(state).to.include({ soldQuantity: 2, remainingQuantity: 8 });
    } else {
      expectRefusal(commit, 400, 'SHOP-PUR-006');
      expect(state).to.include({ soldQuantity: 0, remainingQuantity: 10 });
    }
    expect(state.reservedQuantity).to.equal(0);
  });
});

describe('Shop API over HTTP: reservation expiry with SHOP_RESERVATION_AUTO_EXPIRY=true (spec README, contradiction 2)', () => {
  const clock = fixedClock('2026-03-01T03:00:00.000Z');
  let app: TestApp;
  let operator: OperatorApi;
  let merchant: ShopMerchant;
  let campaignId: number;

  before(async () => {
    app = await startTestApp({
      clock,
      env: { SHOP_RESERVATION_AUTO_EXPIRY: 'true', SHOP_RESERVATION_TTL_SECONDS: '60' },
    });
    const scene = await shopScene(app.baseUrl);
    ({ operator, merchant } = scene);
    campaignId = scene.campaign.id;
  });
  after(() => app?.stop());

  it('reports expiresAt = reservedAt + TTL; after it, release is 400 SHOP-PUR-006 and the stock is back', async () => {
    const pool = await operator.createPool(campaignId, { totalQuantity: 5 });
    const buyer = new Shopper(app.baseUrl, merchant);
    const reservation = await buyer.reserved(reserveBody([{ pool, quantity: 3 }]));
    expect(reservation.reservedAt).to.equal(clock.now().toISOString());
    expect(Date.parse(reservation.expiresAt) - Date.parse(reservation.reservedAt)).to.equal(60_000);
    expect(await operator.pool(pool.poolId)).to.include({ remainingQuantity: 2 });

    clock.advance(60_000);
    expectRefusal(await buyer.release(reservation.reservationKey, 'TIMEOUT'), 400, 'SHOP-PUR-006', /expired/);
    expectRefusal(await buyer.commit(reservation.reservationKey), 400, 'SHOP-PUR-006', /expired/);
    expect(await operator.pool(pool.poolId)).to.include({ remainingQuantity: 5, reservedQuantity: 0, soldQuantity: 0 });
    expect(expectOk(await buyer.lookup(reservation.reservationKey))).to.include({
      status: 'RELEASED',
      releasedAt: clock.now().toISOString(),
    });
  });

  it('commits a reservation still inside its TTL', async () => {
    const pool = await operator.createPool(campaignId, { totalQuantity: 5 });
    const buyer = new Shopper(app.baseUrl, merchant);
    const reservation = await buyer.reserved(reserveBody([{ pool }]));
    clock.advance(59_999);
    expect(expectOk(await buyer.commit(reservation.reservationKey)).committedAt).to.equal(clock.now().toISOString());
    clock.advance(10 * 60_000);
    expect(expectOk(await buyer.lookup(reservation.reservationKey)).status).to.equal('COMMITTED');
    expect(await operator.pool(pool.poolId)).to.include({ remainingQuantity: 4, soldQuantity: 1 });
  });
});
