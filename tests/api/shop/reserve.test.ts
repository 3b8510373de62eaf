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
  unique,
  uuidPattern,
  type OperatorApi,
  type PoolData,
  type ShopMerchant,
} from '../support.js';

const day = 86_400_000;

describe('Shop API over HTTP: POST /api/v1/vouchers/reserve', () => {
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

  const shopper = () => new Shopper(app.baseUrl, merchant);
  const pool = (overrides: Parameters<OperatorApi['createPool']>[1] = {}) => operator.createPool(campaignId, overrides);

  it('reserves: a UUID key, the order, times, and vouchers with codes and prices; the stock is held', async () => {
    const p = await pool({ totalQuantity: 50, terms: { validityDays: 30 } });
    const body = reserveBody([{ pool: p, quantity: 2 }]);
    const res = await shopper().reserve(body);
    const data = expectOk(res);

    expect(data).to.have.all.keys('reservationKey', 'orderId', 'reservedAt', 'expiresAt', 'items');
    expect(data.reservationKey).to.match(uuidPattern);
    expect(data.orderId).to.equal(body.orderId);
    expect(data.reservedAt).to.match(isoInstant);
    expect(Date.parse(data.expiresAt) - Date.parse(data.reservedAt)).to.equal(900_000);
    expect(data.items).to.have.length(1);
    const [item] = data.items;
    expect(item).to.include({ voucherPoolId: p.poolId, quantity: 2 });
    expect(item!.vouchers).to.have.length(2);
    for (const v of item!.vouchers) {
      expect(v).to.have.all.keys(
        'issuedPromotionId',
        'voucherCode',
        'faceValue',
        'sellingPrice',
        'currency',
        'purchasedAt',
        'expiresAt',
      );
      expect(v.issuedPromotionId).to.be.a('number');
      expect(Number.isSafeInteger(v.issuedPromotionId)).to.equal(true);
      expect(v.voucherCode).to.be.a('string').with.length.greaterThan(5);
      expect(v).to.include({ faceValue: 100_000, sellingPrice: 90_000, currency: 'VND', purchasedAt: data.reservedAt });
      expect(Date.parse(v.expiresAt) - Date.parse(v.purchasedAt)).to.equal(30 * day);
    }
    expect(new Set(item!.vouchers.map((v) => v.voucherCode)).size).to.equal(2);
    expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 48, reservedQuantity: 2, soldQuantity: 0 });
  });

  it('reserves from several pools at once, one line per pool', async () => {
    const [a, b] = [await pool(), await pool({ pricing: { faceValue: 50_000, sellingPrice: 45_000 } })];
    const data = await shopper().reserved(
      reserveBody([
        { pool: a!, quantity: 1 },
        { pool: b!, quantity: 3 },
      ]),
    );
    expect(data.items.map((i) => [i.voucherPoolId, i.quantity, i.vouchers.length])).to.deep.equal([
      [a!.poolId, 1, 1],
      [b!.poolId, 3, 3],
    ]);
    expect(data.items[1]!.vouchers[0]).to.include({ faceValue: 50_000, sellingPrice: 45_000 });
  });

  describe('purchase rules', () => {
    it('refuses an amount that is not price × quantity with 400 SHOP-PUR-001', async () => {
      const p = await pool();
      const body = reserveBody([{ pool: p, quantity: 2 }]);
      expectRefusal(await shopper().reserve({ ...body, amount: body.amount - 1 }), 400, 'SHOP-PUR-001', /amount/);
      expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 100 });
    });

    it('refuses more than the remaining stock with 400 SHOP-PUR-012, and a sold-out pool likewise', async () => {
      const p = await pool({ totalQuantity: 2 });
      expectRefusal(await shopper().reserve(reserveBody([{ pool: p, quantity: 3 }])), 400, 'SHOP-PUR-012');
      expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 2 });
      await shopper().reserved(reserveBody([{ pool: p, quantity: 2 }]));
      expectRefusal(await shopper().reserve(reserveBody([{ pool: p, quantity: 1 }])), 400, 'SHOP-PUR-012');
    });

    it("refuses a unit price other than the pool's selling price with 400 SHOP-PUR-014", async () => {
      const p = await pool();
      const body = {
        orderId: unique('ORD-'),
        amount: 80_000,
        currency: 'VND',
        items: [{ voucherPoolId: p.poolId, unitPrice: 80_000, quantity: 1 }],
      };
      expectRefusal(await shopper().reserve(body), 400, 'SHOP-PUR-014');
      // After a reprice the old price is the wrong one.
      await operator.call('POST', `/voucher-pools/${p.poolId}/pricing`, {
        json: { ...p.pricing, sellingPrice: 85_000 },
      });
      expectRefusal(await shopper().reserve(reserveBody([{ pool: p }])), 400, 'SHOP-PUR-014');
      await shopper().reserved(reserveBody([{ pool: { ...p, pricing: { ...p.pricing, sellingPrice: 85_000 } } }]));
    });

    it("refuses a currency other than the pool's with 400 SHOP-PUR-015, also when currency is left to its VND default", async () => {
      const p = await pool();
      expectRefusal(
        await shopper().reserve({ ...reserveBody([{ pool: p }]), currency: 'VPOINT' }),
        400,
        'SHOP-PUR-015',
      );
      const points = await pool({ pricing: { currency: 'VPOINT', faceValue: 100, sellingPrice: 90 } });
      const { currency: _, ...withoutCurrency } = reserveBody([{ pool: points }]);
      expectRefusal(await shopper().reserve(withoutCurrency), 400, 'SHOP-PUR-015');
      expect(expectOk(await shopper().reserve(reserveBody([{ pool: points }]))).items[0]!.vouchers[0]).to.include({
        currency: 'VPOINT',
      });
    });

    it('answers a missing pool and a deleted pool with 404 SHOP-VOU-001', async () => {
      const body = {
        orderId: unique('ORD-'),
        amount: 90_000,
        currency: 'VND',
        items: [{ voucherPoolId: 987654321, unitPrice: 90_000, quantity: 1 }],
      };
      expectRefusal(await shopper().reserve(body), 404, 'SHOP-VOU-001');
      const p = await pool();
      expectOk(await operator.call('DELETE', `/voucher-pools/${p.poolId}`));
      expectRefusal(await shopper().reserve(reserveBody([{ pool: p }])), 404, 'SHOP-VOU-001');
    });

    it("undoes a multi-pool reserve when one pool lacks stock: 400 SHOP-PUR-012 and the first pool's stock unchanged", async () => {
      const [plenty, scarce] = [await pool({ totalQuantity: 10 }), await pool({ totalQuantity: 1 })];
      const res = await shopper().reserve(
        reserveBody([
          { pool: plenty!, quantity: 2 },
          { pool: scarce!, quantity: 2 },
        ]),
      );
      expectRefusal(res, 400, 'SHOP-PUR-012');
      expect(await operator.pool(plenty!.poolId)).to.include({ remainingQuantity: 10, reservedQuantity: 0 });
      expect(await operator.pool(scarce!.poolId)).to.include({ remainingQuantity: 1, reservedQuantity: 0 });
    });

    it('gives every voucher its own code and id across many reservations', async () => {
      const p = await pool({ totalQuantity: 200 });
      const reservations = await Promise.all(
        Array.from({ length: 40 }, () => shopper().reserved(reserveBody([{ pool: p, quantity: 3 }]))),
      );
      const vouchers = reservations.flatMap((r) => r.items.flatMap((i) => i.vouchers));
      expect(vouchers).to.have.length(120);
      expect(new Set(vouchers.map((v) => v.voucherCode)).size).to.equal(120);
      expect(new Set(vouchers.map((v) => v.issuedPromotionId)).size).to.equal(120);
      expect(new Set(reservations.map((r) => r.reservationKey)).size).to.equal(40);
      expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 80, reservedQuantity: 120 });
    });
  });

  describe('order ids and idempotency (spec README, contradiction 1: replay mode)', () => {
    it('refuses an order id already used, under a new idempotency key, with 409 SHOP-PUR-011', async () => {
      const p = await pool();
      const body = reserveBody([{ pool: p }]);
      await shopper().reserved(body);
      expectRefusal(await shopper().reserve(body), 409, 'SHOP-PUR-011', /order id/);
      expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 99 });
    });

    it('requires X-Idempotency-Key as a UUID: 400 SHOP-REQ-001', async () => {
      const p = await pool();
      const s = shopper();
      const without = await call(app.baseUrl, 'POST', '/api/v1/vouchers/reserve', {
        headers: s.headers(),
        json: reserveBody([{ pool: p }]),
      });
      expectRefusal(without, 400, 'SHOP-REQ-001', /X-Idempotency-Key header is required/);
      expectRefusal(
        await s.reserve(reserveBody([{ pool: p }]), { idempotencyKey: 'retry-1' }),
        400,
        'SHOP-REQ-001',
        /X-Idempotency-Key must be a UUID/,
      );
      expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 100 });
    });

    it('answers an identical resend under the same key with 200 and the identical body, reserving once', async () => {
      const [a, b] = [await pool(), await pool()];
      const s = shopper();
      const key = randomUUID();
      const body = reserveBody([{ pool: a!, quantity: 2 }, { pool: b! }]);
      const first = await s.reserve(body, { idempotencyKey: key });
      expectOk(first);
      const again = await s.reserve(body, { idempotencyKey: key.toUpperCase() });
      expectOk(again);
      expect(again.body).to.deep.equal(first.body);
      // Lines in another order are the same request.
      const reordered = await s.reserve({ ...body, items: [...body.items].reverse() }, { idempotencyKey: key });
      expect(reordered.body).to.deep.equal(first.body);
      expect(await operator.pool(a!.poolId)).to.include({ remainingQuantity: 98, reservedQuantity: 2 });
      expect(await operator.pool(b!.poolId)).to.include({ remainingQuantity: 99, reservedQuantity: 1 });
    });

    it('refuses another body, or another user, under a used key with 409 SHOP-PUR-011', async () => {
      const p = await pool();
      const s = shopper();
      const key = randomUUID();
      const body = reserveBody([{ pool: p, quantity: 1 }]);
      expectOk(await s.reserve(body, { idempotencyKey: key }));
      expectRefusal(
        await s.reserve(reserveBody([{ pool: p, quantity: 2 }], body.orderId), { idempotencyKey: key }),
        409,
        'SHOP-PUR-011',
        /X-Idempotency-Key/,
      );
      expectRefusal(
        await s.reserve({ ...body, orderId: unique('ORD-') }, { idempotencyKey: key }),
        409,
        'SHOP-PUR-011',
      );
      expectRefusal(await shopper().reserve(body, { idempotencyKey: key }), 409, 'SHOP-PUR-011');
      expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 99 });
    });

    it('answers concurrent identical resends of one key with the same reservation', async () => {
      const p = await pool();
      const s = shopper();
      const key = randomUUID();
      const body = reserveBody([{ pool: p }]);
      const answers = await Promise.all(Array.from({ length: 10 }, () => s.reserve(body, { idempotencyKey: key })));
      for (const a of answers) expectOk(a);
      expect(new Set(answers.map((a) => a.text)).size).to.equal(1);
      expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 99 });
    });
  });

  describe('malformed requests: 4xx SHOP-REQ-001 naming the field, never a 500', () => {
    let p: PoolData;
    before(async () => {
      p = await pool();
    });

    const valid = () => reserveBody([{ pool: p }]);
    const withItem = (item: Record<string, unknown>) => ({ ...valid(), items: [{ ...valid().items[0], ...item }] });

    it('refuses bodies that break the schema, naming the field', async () => {
      const cases: [string, unknown, RegExp][] = [
        ['amount negative', { ...valid(), amount: -1 }, /amount/],
        ['amount fractional', { ...valid(), amount: 90_000.5 }, /amount.*integer/],
        ['amount a string', { ...valid(), amount: '90000' }, /amount.*number/],
        ['amount huge', { ...valid(), amount: 1e300 }, /amount/],
        ['amount missing', { ...valid(), amount: undefined }, /amount is required/],
        ['orderId missing', { ...valid(), orderId: undefined }, /orderId is required/],
        ['orderId empty', { ...valid(), orderId: '   ' }, /orderId/],
        ['orderId a number', { ...valid(), orderId: 42 }, /orderId/],
        ['orderId too long', { ...valid(), orderId: 'o'.repeat(500) }, /orderId/],
        ['currency unknown', { ...valid(), currency: 'USD' }, /currency/],
        ['items empty', { ...valid(), items: [] }, /items/],
        ['items not an array', { ...valid(), items: { voucherPoolId: p.poolId } }, /items/],
        ['items missing', { ...valid(), items: undefined }, /items is required/],
        ['quantity 0', withItem({ quantity: 0 }), /items\.0\.quantity/],
        ['quantity fractional', withItem({ quantity: 1.5 }), /items\.0\.quantity/],
        ['quantity huge', withItem({ quantity: 1e12 }), /items\.0\.quantity/],
        ['unitPrice negative', withItem({ unitPrice: -90_000 }), /items\.0\.unitPrice/],
        ['unitPrice a string', withItem({ unitPrice: '90000' }), /items\.0\.unitPrice/],
        ['voucherPoolId huge', withItem({ voucherPoolId: 2 ** 60 }), /items\.0\.voucherPoolId/],
        ['voucherPoolId 0', withItem({ voucherPoolId: 0 }), /items\.0\.voucherPoolId/],
        ['voucherPoolId missing', withItem({ voucherPoolId: undefined }), /items\.0\.voucherPoolId is required/],
        [
          'one pool on two lines',
          { ...valid(), amount: 180_000, items: [valid().items[0], valid().items[0]] },
          /items\[1\]\.voucherPoolId/,
        ],
        ['a JSON array', [valid()], /body/],
        ['a JSON string', 'reserve please', /body/],
        ['JSON null', null, /body/],
      ];
      for (const [name, json, message] of cases) {
        const res = await shopper().reserve(json);
        expect(res.status, `${name}: ${res.text}`).to.equal(400);
        expectRefusal(res, 400, 'SHOP-REQ-001', message);
      }
      expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 100 });
    });

    it('refuses a body that is not JSON (or empty) with 400 SHOP-REQ-001', async () => {
      const s = shopper();
      const cases: [string, RegExp][] = [
        ['{"orderId": "A", ', /not valid JSON/],
        ['orderId=A&amount=1', /not valid JSON/],
        ['', /orderId is required/],
      ];
      for (const [rawBody, message] of cases) {
        const res = await call(app.baseUrl, 'POST', '/api/v1/vouchers/reserve', {
          headers: s.headers({ 'X-Idempotency-Key': randomUUID(), 'Content-Type': 'application/json' }),
          rawBody,
        });
        expectRefusal(res, 400, 'SHOP-REQ-001', message);
      }
    });

    it('refuses a Content-Type other than JSON with 415 SHOP-REQ-415', async () => {
      const s = shopper();
      const send = (contentType: string | undefined) =>
        call(app.baseUrl, 'POST', '/api/v1/vouchers/reserve', {
          headers: s.headers({ 'X-Idempotency-Key': randomUUID(), 'Content-Type': contentType }),
          rawBody: JSON.stringify(valid()),
        });
      expectRefusal(await send('text/plain'), 415, 'SHOP-REQ-415', /application\/json/);
      expectRefusal(await send('application/x-www-form-urlencoded'), 415, 'SHOP-REQ-415');
      expectRefusal(await send('application/json; charset=latin1'), 415, 'SHOP-REQ-415');
      expectOk(await send('application/json; charset=utf-8'));
    });

    it('refuses a body over the size limit with 413, in the shop envelope', async () => {
      const res = await shopper().reserve({ ...valid(), padding: 'x'.repeat(100_000) });
      expectRefusal(res, 413, 'SHOP-REQ-413');
    });
  });
});

describe('Shop API over HTTP: reserve with SHOP_IDEMPOTENCY_MODE=reject', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ background: false, env: { SHOP_IDEMPOTENCY_MODE: 'reject' } });
  });
  after(() => app?.stop());

  it('refuses even an identical resend under a used key with 409 SHOP-PUR-011, reserving once', async () => {
    const { operator, merchant, campaign } = await shopScene(app.baseUrl);
    const p = await operator.createPool(campaign.id);
    const s = new Shopper(app.baseUrl, merchant);
    const key = randomUUID();
    const body = reserveBody([{ pool: p }]);
    expectOk(await s.reserve(body, { idempotencyKey: key }));
    expectRefusal(await s.reserve(body, { idempotencyKey: key }), 409, 'SHOP-PUR-011', /X-Idempotency-Key/);
    expect(await operator.pool(p.poolId)).to.include({ remainingQuantity: 99 });
  });
});

describe('Shop API over HTTP: purchase limits per user (daily and total)', () => {
  // 03:00 UTC is 10:00 in Vietnam (SHOP_DAY_UTC_OFFSET_MINUTES=420): the purchase day is 2026-03-01.
  const clock = fixedClock('2026-03-01T03:00:00.000Z');
  let app: TestApp;
  let operator: OperatorApi;
  let merchant: ShopMerchant;
  let campaignId: number;

  before(async () => {
    app = await startTestApp({ background: false, clock });
    const scene = await shopScene(app.baseUrl);
    ({ operator, merchant } = scene);
    campaignId = scene.campaign.id;
  });
  after(() => app?.stop());

  it('refuses past maxPerDay with 400 SHOP-PUR-016 until the next day, and past usageLimit for good', async () => {
    const p = await operator.createPool(campaignId, { terms: { maxPerDay: 2, usageLimit: 3 } });
    const buyer = new Shopper(app.baseUrl, merchant);
    await buyer.reserved(reserveBody([{ pool: p, quantity: 2 }]));
    expectRefusal(await buyer.reserve(reserveBody([{ pool: p, quantity: 1 }])), 400, 'SHOP-PUR-016');
    // Another user has a quota of their own.
    await new Shopper(app.baseUrl, merchant).reserved(reserveBody([{ pool: p, quantity: 2 }]));

    clock.advance(day);
    await buyer.reserved(reserveBody([{ pool: p, quantity: 1 }]));
    expectRefusal(await buyer.reserve(reserveBody([{ pool: p, quantity: 1 }])), 400, 'SHOP-PUR-016');
    clock.advance(day);
    expectRefusal(await buyer.reserve(reserveBody([{ pool: p, quantity: 1 }])), 400, 'SHOP-PUR-016');
    expect(await operator.pool(p.poolId)).to.include({ reservedQuantity: 5 });
  });

  it('counts the day in the configured zone: 16:59 and 17:00 UTC are different days in Vietnam', async () => {
    clock.set('2026-04-01T16:59:00.000Z');
    const p = await operator.createPool(campaignId, { terms: { maxPerDay: 1 } });
    const buyer = new Shopper(app.baseUrl, merchant);
    await buyer.reserved(reserveBody([{ pool: p }]));
    expectRefusal(await buyer.reserve(reserveBody([{ pool: p }])), 400, 'SHOP-PUR-016');
    clock.set('2026-04-01T17:00:00.000Z');
    await buyer.reserved(reserveBody([{ pool: p }]));
  });

  it('gives released vouchers back to the quota', async () => {
    const p = await operator.createPool(campaignId, { terms: { maxPerDay: 2 } });
    const buyer = new Shopper(app.baseUrl, merchant);
    const first = await buyer.reserved(reserveBody([{ pool: p, quantity: 2 }]));
    expectRefusal(await buyer.reserve(reserveBody([{ pool: p }])), 400, 'SHOP-PUR-016');
    expectOk(await buyer.release(first.reservationKey, 'USER_CANCELLED'));
    await buyer.reserved(reserveBody([{ pool: p, quantity: 2 }]));
  });

  it('refuses more than maxPerOrder in one reservation with 400 SHOP-PUR-016', async () => {
    const p = await operator.createPool(campaignId, { terms: { maxPerOrder: 2 } });
    const buyer = new Shopper(app.baseUrl, merchant);
    expectRefusal(await buyer.reserve(reserveBody([{ pool: p, quantity: 3 }])), 400, 'SHOP-PUR-016', /maxPerOrder/);
    await buyer.reserved(reserveBody([{ pool: p, quantity: 2 }]));
  });
});
