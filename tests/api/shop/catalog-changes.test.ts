import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import type { ShopCampaignResponse, ShopVoucherResponse } from '../../../application/shop/catalog-queries.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { natsTestApp } from '../../support/nats.js';
import {
  expectOk,
  expectRefusal,
  OperatorApi,
  reserveBody,
  Shopper,
  type CampaignData,
  type PoolData,
  type ShopMerchant,
} from '../support.js';
import { banner, CatalogClient, campaignIn, live, poolIn, projectionsCaughtUp } from './catalog-support.js';

/** The catalog following what happens after a pool is listed: purchases, lifecycle, operator changes, time, rebuilds. */
describe('Shop catalog over HTTP: following purchases and changes', () => {
  const start = '2026-06-01T00:00:00.000Z'; // 07:00 on 2026-06-01 in the shop's day zone (UTC+7)
  const clock = fixedClock(start);
  let app: TestApp;
  let operator: OperatorApi;
  let merchant: ShopMerchant;
  let shop: CatalogClient;

  before(async () => {
    app = await startTestApp({ clock });
    operator = new OperatorApi(app.baseUrl);
    merchant = await operator.createMerchant();
    shop = new CatalogClient(app, merchant);
  });
  afterEach(() => clock.set(start));
  after(() => app?.stop());

  const voucher = (pool: PoolData, userId?: string) => shop.ok<ShopVoucherResponse>(`/vouchers/${pool.poolId}`, userId);
  const campaign = (c: CampaignData) => shop.ok<ShopCampaignResponse>(`/campaigns/${c.id}`);

  it('orders vouchers by campaign displayPriority, then campaign id, then pool id', async () => {
    const first = await campaignIn(operator, live, { campaignTag: 'ORDER', displayPriority: 7 });
    const second = await campaignIn(operator, live, { campaignTag: 'ORDER', displayPriority: 7 });
    const ahead = await campaignIn(operator, live, { campaignTag: 'ORDER', displayPriority: 6 });
    const a = await poolIn(operator, first.id);
    const b = await poolIn(operator, second.id);
    const c = await poolIn(operator, first.id);
    const d = await poolIn(operator, ahead.id);
    expect(await shop.voucherIds('?tag=ORDER')).to.deep.equal([d.poolId, a.poolId, c.poolId, b.poolId]);
    expect(await shop.voucherIds('?tag=ORDER&size=2&page=1')).to.deep.equal([c.poolId, b.poolId]);
  });

  it('inventory and voucherSummary follow reserves, releases, commits and restocks', async () => {
    const c = await campaignIn(operator, live);
    const pool = await poolIn(operator, c.id, { totalQuantity: 5 });
    const buyer = new Shopper(app.baseUrl, merchant);

    const first = await buyer.reserved(reserveBody([{ pool, quantity: 3 }]));
    expect((await voucher(pool)).inventory).to.deep.equal({
      totalQuantity: 5,
      remainingQuantity: 2,
      isOutOfStock: false,
    });
    const second = await buyer.reserved(reserveBody([{ pool, quantity: 2 }]));
    expect((await voucher(pool)).inventory).to.deep.equal({
      totalQuantity: 5,
      remainingQuantity: 0,
      isOutOfStock: true,
    });
    expect((await campaign(c)).voucherSummary).to.deep.equal({
      totalCount: 1,
      availableCount: 0,
      soldCount: 0,
      displayedCount: 1,
    });

    expectOk(await buyer.release(first.reservationKey, 'USER_CANCELLED'));
    expectOk(await buyer.commit(second.reservationKey));
    expect((await shop.vouchers(`?campaignIds=${c.id}`)).content[0]!.inventory).to.deep.equal({
      totalQuantity: 5,
      remainingQuantity: 3,
      isOutOfStock: false,
    });
    expect((await campaign(c)).voucherSummary).to.deep.equal({
      totalCount: 1,
      availableCount: 1,
      soldCount: 2,
      displayedCount: 1,
    });

    expectOk(await operator.call('POST', `/voucher-pools/${pool.poolId}/stock`, { json: { quantity: 4 } }));
    expect((await voucher(pool)).inventory).to.deep.equal({
      totalQuantity: 9,
      remainingQuantity: 7,
      isOutOfStock: false,
    });
  });

  it("userPurchaseUsage: the caller's vouchers of the pool today and in total, what the limits leave, per merchant and user", async () => {
    const c = await campaignIn(operator, live);
    const limited = await poolIn(operator, c.id, { terms: { maxPerDay: 3, usageLimit: 4 } });
    const unlimited = await poolIn(operator, c.id);
    const buyer = new Shopper(app.baseUrl, merchant);

    expect((await voucher(limited)).userPurchaseUsage).to.equal(null);
    expect((await voucher(limited, buyer.userId)).userPurchaseUsage).to.deep.equal({
      dailyPurchasedQty: 0,
      totalPurchasedQty: 0,
      dailyRemaining: 3,
      totalRemaining: 4,
    });
    expect((await voucher(unlimited, buyer.userId)).userPurchaseUsage).to.deep.equal({
      dailyPurchasedQty: 0,
      totalPurchasedQty: 0,
      dailyRemaining: null,
      totalRemaining: null,
    });

    const dayOne = await buyer.reserved(reserveBody([{ pool: limited, quantity: 2 }]));
    expect((await voucher(limited, buyer.userId)).userPurchaseUsage).to.deep.equal({
      dailyPurchasedQty: 2,
      totalPurchasedQty: 2,
      dailyRemaining: 1,
      totalRemaining: 2,
    });
    const listed = (await shop.vouchers(`?campaignIds=${c.id}`, buyer.userId)).content;
    expect(listed.map((v) => v.userPurchaseUsage!.totalPurchasedQty)).to.deep.equal([2, 0]);
    expect((await voucher(limited, 'someone-else')).userPurchaseUsage!.totalPurchasedQty).to.equal(0);
    const otherMerchant = new CatalogClient(app, await operator.createMerchant());
    expect(
      (await otherMerchant.ok<ShopVoucherResponse>(`/vouchers/${limited.poolId}`, buyer.userId)).userPurchaseUsage!
        .totalPurchasedQty,
    ).to.equal(0);

    // The next day in UTC+7 starts at 17:00 UTC: the daily count starts again; the day's allowance is capped by what the total leaves.
    clock.set('2026-06-01T17:00:00.000Z');
    expect((await voucher(limited, buyer.userId)).userPurchaseUsage).to.deep.equal({
      dailyPurchasedQty: 0,
      totalPurchasedQty: 2,
      dailyRemaining: 2,
      totalRemaining: 2,
    });
    await buyer.reserved(reserveBody([{ pool: limited, quantity: 1 }]));
    expect((await voucher(limited, buyer.userId)).userPurchaseUsage).to.deep.equal({
      dailyPurchasedQty: 1,
      totalPurchasedQty: 3,
      dailyRemaining: 1,
      totalRemaining: 1,
    });

    expectOk(await buyer.release(dayOne.reservationKey));
    expect((await voucher(limited, buyer.userId)).userPurchaseUsage).to.deep.equal({
      dailyPurchasedQty: 1,
      totalPurchasedQty: 1,
      dailyRemaining: 2,
      totalRemaining: 3,
    });
  });

  it('follows the campaign lifecycle: PAUSED hides, ACTIVE again shows, ENDED hides for good', async () => {
    const c = await campaignIn(operator, live);
    const pool = await poolIn(operator, c.id);
    const status = async (to: string) =>
      expectOk(await operator.call('POST', `/campaigns/${c.id}/status`, { json: { status: to } }));
    const shown = async () => {
      const listed = (await shop.voucherIds(`?campaignIds=${c.id}`)).length === 1;
      const detail = (await shop.get(`/vouchers/${pool.poolId}`)).status === 200;
      const campaignShown = (await shop.get(`/campaigns/${c.id}`)).status === 200;
      expect(detail, 'voucher detail agrees with the list').to.equal(listed);
      expect(campaignShown, 'campaign detail agrees with the list').to.equal(listed);
      return listed;
    };

    expect(await shown()).to.equal(true);
    await status('PAUSED');
    expect(await shown()).to.equal(false);
    expectRefusal(await shop.get(`/vouchers/${pool.poolId}`), 404, 'SHOP-VOU-001');
    expectRefusal(await shop.get(`/campaigns/${c.id}`), 404, 'SHOP-CAM-001');
    await status('ACTIVE');
    expect(await shown()).to.equal(true);
    await status('ENDED');
    expect(await shown()).to.equal(false);
  });

  it('shows a campaign only inside its window, read against the clock at each request', async () => {
    const c = await campaignIn(operator, live, { startAt: '2026-06-02T00:00:00Z', endAt: '2026-06-03T00:00:00Z' });
    const pool = await poolIn(operator, c.id);
    await projectionsCaughtUp(app);
    expectRefusal(await shop.get(`/vouchers/${pool.poolId}`), 404, 'SHOP-VOU-001');
    clock.set('2026-06-02T00:00:00.000Z');
    expect((await voucher(pool)).id).to.equal(pool.poolId);
    clock.set('2026-06-02T23:59:59.999Z');
    expect((await campaign(c)).id).to.equal(c.id);
    clock.set('2026-06-03T00:00:00.000Z');
    expectRefusal(await shop.get(`/vouchers/${pool.poolId}`), 404, 'SHOP-VOU-001');
    expectRefusal(await shop.get(`/campaigns/${c.id}`), 404, 'SHOP-CAM-001');
  });

  it("follows the operator's changes to campaign details, banners and pools", async () => {
    const first = await campaignIn(operator, live, {
      campaignTag: 'EARLY',
      displayPriority: 1,
      banners: [banner('APP', 'CAROUSEL', 1)],
    });
    const second = await campaignIn(operator, live, { campaignTag: 'EARLY', displayPriority: 2 });
    const a = await poolIn(operator, first.id, { categoryId: 21 });
    const b = await poolIn(operator, second.id, { categoryId: 21 });
    expect(await shop.voucherIds('?tag=EARLY')).to.deep.equal([a.poolId, b.poolId]);

    // Details: the second campaign moves ahead and changes tag; its vouchers follow.
    expectOk(
      await operator.call('PATCH', `/campaigns/${second.id}`, {
        json: { displayPriority: 1, name: 'Renamed', campaignTag: 'LATE' },
      }),
    );
    expectOk(await operator.call('PATCH', `/campaigns/${first.id}`, { json: { displayPriority: 3 } }));
    expect(await shop.voucherIds('?tags=EARLY,LATE')).to.deep.equal([b.poolId, a.poolId]);
    expect((await voucher(b)).campaign).to.deep.include({ name: 'Renamed', tag: 'LATE', displayPriority: 1 });
    expect(await shop.voucherIds('?tag=EARLY')).to.deep.equal([a.poolId]);

    // Banners.
    const added = expectOk(
      await operator.call<{ banners: { id: number }[] }>('POST', `/campaigns/${first.id}/banners`, {
        json: banner('WEB', 'CAROUSEL', 5),
      }),
      201,
    );
    const webBanner = added.banners.find((x) => !(first.banners.map((f) => f.id) as number[]).includes(x.id))!;
    expect(
      (await shop.ok<ShopCampaignResponse>(`/campaigns/${first.id}?channel=WEB`)).banners.map((x) => x.id),
    ).to.deep.equal([webBanner.id]);
    expectOk(
      await operator.call('PATCH', `/campaigns/${first.id}/banners/${webBanner.id}`, {
        json: { altText: 'Đổi', displayOrder: 9 },
      }),
    );
    expect((await shop.ok<ShopCampaignResponse>(`/campaigns/${first.id}?channel=WEB`)).banners[0]).to.deep.include({
      altText: 'Đổi',
      displayOrder: 9,
    });
    expect((await shop.carousel('?channel=WEB')).content.map((x) => x.id)).to.include(first.id);
    expectOk(await operator.call('DELETE', `/campaigns/${first.id}/banners/${webBanner.id}`));
    expect((await shop.ok<ShopCampaignResponse>(`/campaigns/${first.id}?channel=WEB`)).banners).to.deep.equal([]);
    expect((await shop.carousel('?channel=WEB')).content.map((x) => x.id)).not.to.include(first.id);

    // Pools: display, terms, category, mini-apps, validity, pricing, deletion.
    expectOk(
      await operator.call('PATCH', `/voucher-pools/${a.poolId}`, {
        json: {
          display: { title: 'Trà sữa' },
          terms: { maxPerDay: 2 },
          categoryId: 22,
          miniAppIds: ['tea'],
          validity: { startAt: '2026-06-01T00:00:00Z', endAt: '2026-07-01T00:00:00Z' },
        },
      }),
    );
    expectOk(
      await operator.call('POST', `/voucher-pools/${a.poolId}/pricing`, {
        json: { faceValue: 50_000, sellingPrice: 40_000, discountedPrice: null, currency: 'VND' },
      }),
    );
    const changed = await voucher(a);
    expect(changed).to.deep.include({
      categoryId: 22,
      miniAppIds: ['tea'],
      validity: { startAt: '2026-06-01T00:00:00.000Z', endAt: '2026-07-01T00:00:00.000Z' },
    });
    expect(changed.display.title).to.equal('Trà sữa');
    expect(changed.terms.maxPerDay).to.equal(2);
    expect(changed.pricing).to.deep.equal({
      faceValue: 50_000,
      sellingPrice: 40_000,
      discountedPrice: 40_000, // what the buyer pays, derived from the selling price
      currency: 'VND',
      discountPercentage: 20,
    });
    expect(await shop.voucherIds('?categoryIds=22')).to.deep.equal([a.poolId]);
    expect((await shop.vouchers('?categoryIds=21&tags=EARLY,LATE')).page.totalElements).to.equal(1);

    expectOk(await operator.call('DELETE', `/voucher-pools/${a.poolId}`));
    expect((await campaign(first)).voucherSummary).to.deep.equal({
      totalCount: 0,
      availableCount: 0,
      soldCount: 0,
      displayedCount: 0,
    });
    expect(await shop.voucherIds('?categoryIds=22')).to.deep.equal([]);
    expectRefusal(await shop.get(`/vouchers/${a.poolId}`), 404, 'SHOP-VOU-001');
  });

  it('answers the same after the catalog projection is rebuilt from the event store', async () => {
    const queries = [
      '/vouchers?size=50',
      '/campaigns?size=50&includeVouchers=true',
      '/campaigns/carousel?size=50&channel=WEB',
    ];
    const before = await Promise.all(queries.map((q) => shop.ok(q)));
    await app.container.projections.rebuild('shop-catalog');
    const after = await Promise.all(queries.map((q) => shop.ok(q)));
    expect(after).to.deep.equal(before);
    expect((before[0] as { page: { totalElements: number } }).page.totalElements).to.be.greaterThan(0);
  });

  it('comments every table, view and column of the catalog read models', async () => {
    const { rows } = await app.container.knex.raw<{
      rows: { relation: string; column: string | null; comment: string | null }[];
    }>(
      `SELECT c.relname AS relation, NULL AS column, obj_description(c.oid) AS comment FROM pg_class c
         WHERE c.relname ~ '^shop_(campaigns|campaign_banners|voucher_listings|campaign_pool_counts|campaign_category_pool_counts|catalog_counts_version)(_g[0-9]+){0,1}$'
       UNION ALL
       SELECT c.relname, a.attname, col_description(c.oid, a.attnum) FROM pg_class c
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
         WHERE c.relname ~ '^shop_(campaigns|campaign_banners|voucher_listings|campaign_pool_counts|campaign_category_pool_counts|catalog_counts_version)(_g[0-9]+){0,1}$'`,
    );
    // Six views and the six tables behind them, each with its columns.
    expect(rows.filter((r) => r.column === null)).to.have.length(12);
    expect(rows.length).to.be.greaterThan(100);
    expect(rows.filter((r) => !r.comment)).to.deep.equal([]);
  });
});

describe('Shop catalog over HTTP with NATS JetStream: operator → store → relay → NATS → catalog projector → GET', () => {
  const running = natsTestApp();

  it('lists a new pool and follows its reservation', async () => {
    const operator = new OperatorApi(running().baseUrl);
    const merchant = await operator.createMerchant();
    const shop = new CatalogClient(running(), merchant);
    const c = await campaignIn(operator, live);
    const pool = await poolIn(operator, c.id, { totalQuantity: 4 });
    expect(await shop.voucherIds(`?campaignIds=${c.id}`)).to.deep.equal([pool.poolId]);
    const buyer = new Shopper(running().baseUrl, merchant);
    await buyer.reserved(reserveBody([{ pool, quantity: 3 }]));
    const v = await shop.ok<ShopVoucherResponse>(`/vouchers/${pool.poolId}`, buyer.userId);
    expect(v.inventory).to.deep.equal({ totalQuantity: 4, remainingQuantity: 1, isOutOfStock: false });
    expect(v.userPurchaseUsage!.totalPurchasedQty).to.equal(3);
  });
});
