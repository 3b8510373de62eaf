import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import type { ShopVoucherResponse } from '../../../application/shop/catalog-queries.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  call,
  expectRefusal,
  OperatorApi,
  shopHeaders,
  type CampaignData,
  type PoolData,
  type ShopMerchant,
} from '../support.js';
import { CatalogClient, campaignIn, live, poolIn } from './catalog-support.js';

/**
 * GET /api/v1/vouchers and /api/v1/vouchers/{id} on one catalog; the clock
 * stands at 2026-06-01T00:00:00Z. What is on sale:
 *   B  FLASH_SALE  priority 1, ends in one hour   pools b1 (cat 12), b2 (cat 13)
 *   A  HOT_DEAL    priority 2                     pools a1 (cat 11), a2 (cat 12), a3 (cat 11); a4 deleted
 *   C  TET_DEAL    priority 3                     pool c1 (cat 11)
 * and campaigns whose vouchers are not: DRAFT, APPROVED only, PAUSED, ENDED,
 * not started yet, already over, not of type SELL.
 */
describe('Shop catalog over HTTP: voucher list and detail', () => {
  const start = '2026-06-01T00:00:00.000Z';
  const clock = fixedClock(start);
  let app: TestApp;
  let merchant: ShopMerchant;
  let shop: CatalogClient;
  let a: CampaignData, b: CampaignData, c: CampaignData;
  let a1: PoolData, a2: PoolData, a3: PoolData, b1: PoolData, b2: PoolData, c1: PoolData;
  const hidden: Record<string, PoolData> = {};

  before(async () => {
    app = await startTestApp({ clock });
    const operator = new OperatorApi(app.baseUrl);
    merchant = await operator.createMerchant();
    shop = new CatalogClient(app, merchant);

    b = await campaignIn(operator, live, {
      name: 'Flash',
      campaignTag: 'FLASH_SALE',
      displayPriority: 1,
      endAt: '2026-06-01T01:00:00Z',
    });
    a = await campaignIn(operator, live, { name: 'Hot deals', campaignTag: 'HOT_DEAL', displayPriority: 2 });
    c = await campaignIn(operator, live, { name: 'Tết', campaignTag: 'TET_DEAL', displayPriority: 3 });
    // Pools are created out of display order, so the order comes from priority and pool id only.
    a1 = await poolIn(operator, a.id, {
      categoryId: 11,
      title: 'a1',
      miniAppIds: ['mini-1', 'mini-2'],
      validity: { startAt: '2026-06-01T00:00:00+07:00', endAt: '2026-12-31T23:59:59Z' },
      terms: {
        usageType: 'OFFLINE',
        termsAndConditions: 'Dùng tại quầy',
        validityDays: 45,
        usageLimit: 5,
        maxPerDay: 2,
        maxPerOrder: 1,
      },
    });
    c1 = await poolIn(operator, c.id, { categoryId: 11, title: 'c1', pricing: { faceValue: 0, sellingPrice: 0 } });
    a2 = await poolIn(operator, a.id, {
      categoryId: 12,
      title: 'a2',
      pricing: { faceValue: 200_000, sellingPrice: 150_000, discountedPrice: 150_000 },
    });
    b1 = await poolIn(operator, b.id, {
      categoryId: 12,
      title: 'b1',
      pricing: { faceValue: 300_000, sellingPrice: 200_000 },
    });
    a3 = await poolIn(operator, a.id, {
      categoryId: 11,
      title: 'a3',
      totalQuantity: 0,
      pricing: { currency: 'VPOINT', faceValue: 1000, sellingPrice: 995 },
    });
    b2 = await poolIn(operator, b.id, { categoryId: 13, title: 'b2' });
    const a4 = await poolIn(operator, a.id, { categoryId: 11, title: 'a4 deleted' });
    await operator.call('DELETE', `/voucher-pools/${a4.poolId}`);
    hidden['deleted pool'] = a4;

    const others: [string, string[], Record<string, unknown>][] = [
      ['DRAFT campaign', [], {}],
      ['APPROVED, not ACTIVE, campaign', ['APPROVED'], {}],
      ['PAUSED campaign', ['APPROVED', 'ACTIVE', 'PAUSED'], {}],
      ['ENDED campaign', ['APPROVED', 'ACTIVE', 'ENDED'], {}],
      ['campaign not started yet', live, { startAt: '2026-06-01T00:00:01Z' }],
      ['campaign already over', live, { startAt: '2026-01-01T00:00:00Z', endAt: '2026-06-01T00:00:00Z' }],
      ['campaign not of type SELL', live, { type: 'GIFT' }],
    ];
    for (const [why, statuses, overrides] of others) {
      const campaign = await campaignIn(operator, statuses, {
        campaignTag: 'HOT_DEAL',
        displayPriority: 1,
        ...overrides,
      });
      hidden[why] = await poolIn(operator, campaign.id, { categoryId: 11, title: why });
    }
  });
  after(() => app?.stop());

  it('lists what is on sale by campaign displayPriority, then pool id', async () => {
    const page = await shop.vouchers();
    expect(page.content.map((v) => v.id)).to.deep.equal([
      b1.poolId,
      b2.poolId,
      a1.poolId,
      a2.poolId,
      a3.poolId,
      c1.poolId,
    ]);
    expect(page.page).to.deep.equal({ size: 20, number: 0, totalElements: 6, totalPages: 1 });
  });

  it('answers every field of ShopVoucherResponse', async () => {
    const v = (await shop.vouchers(`?campaignIds=${a.id}`)).content.find((x) => x.id === a1.poolId);
    const expected: ShopVoucherResponse = {
      id: a1.poolId,
      categoryId: 11,
      miniAppIds: ['mini-1', 'mini-2'],
      campaign: {
        id: a.id,
        name: 'Hot deals',
        tag: 'HOT_DEAL',
        displayPriority: 2,
        validity: { startAt: '2026-01-01T00:00:00.000Z', endAt: '2027-12-31T00:00:00.000Z' },
        countdown: null,
      },
      display: {
        title: 'a1',
        shortTitle: 'Coffee 100k',
        brandName: 'Brew',
        logoUrl: 'https://cdn.example.vn/logo.png',
        bannerUrl: 'https://cdn.example.vn/banner.png',
        thumbnailUrl: 'https://cdn.example.vn/thumb.png',
        description: 'One coffee',
      },
      pricing: {
        faceValue: 100_000,
        sellingPrice: 90_000,
        discountedPrice: 90_000, // the price after discount the buyer pays: the selling price
        currency: 'VND',
        discountPercentage: 10,
      },
      inventory: { totalQuantity: 100, remainingQuantity: 100, isOutOfStock: false },
      userPurchaseUsage: null,
      validity: { startAt: '2026-05-31T17:00:00.000Z', endAt: '2026-12-31T23:59:59.000Z' },
      terms: {
        usageType: 'OFFLINE',
        termsAndConditions: 'Dùng tại quầy',
        validityDays: 45,
        usageLimit: 5,
        maxPerDay: 2,
        maxPerOrder: 1,
      },
    };
    expect(v).to.deep.equal(expected);
  });

  it('derives discountedPrice and discountPercentage from the selling price; 0 for a zero face value', async () => {
    const byId = new Map((await shop.vouchers()).content.map((v) => [v.id, v.pricing]));
    expect(byId.get(a1.poolId)!.discountPercentage).to.equal(10); // 90,000 of 100,000
    expect(byId.get(a2.poolId)).to.deep.equal({
      faceValue: 200_000,
      sellingPrice: 150_000,
      discountedPrice: 150_000,
      currency: 'VND',
      discountPercentage: 25,
    });
    expect(byId.get(b1.poolId)!.discountPercentage).to.equal(33); // 33.3 rounded
    expect(byId.get(a3.poolId)).to.deep.include({ currency: 'VPOINT', discountPercentage: 1 }); // 0.5 rounds up
    expect(byId.get(c1.poolId)!.discountPercentage).to.equal(0);
  });

  it('shows a sold-out pool with isOutOfStock', async () => {
    const v = await shop.ok<ShopVoucherResponse>(`/vouchers/${a3.poolId}`);
    expect(v.inventory).to.deep.equal({ totalQuantity: 0, remainingQuantity: 0, isOutOfStock: true });
  });

  it('gives FLASH_SALE vouchers a countdown to the campaign end computed at read time, floored; other tags none', async () => {
    const v = await shop.ok<ShopVoucherResponse>(`/vouchers/${b1.poolId}`);
    expect(v.campaign.countdown).to.deep.equal({ endAt: '2026-06-01T01:00:00.000Z', remainingSeconds: 3600 });
    clock.advance(10_500);
    try {
      const later = await shop.ok<ShopVoucherResponse>(`/vouchers/${b1.poolId}`);
      expect(later.campaign.countdown).to.deep.equal({ endAt: '2026-06-01T01:00:00.000Z', remainingSeconds: 3589 });
    } finally {
      clock.set(start);
    }
    expect((await shop.ok<ShopVoucherResponse>(`/vouchers/${a1.poolId}`)).campaign.countdown).to.equal(null);
  });

  it('hides the vouchers of campaigns not ACTIVE, not in their window or not SELL, and deleted pools; their detail is 404 SHOP-VOU-001', async () => {
    const listed = await shop.voucherIds('?size=50');
    for (const [why, pool] of Object.entries(hidden)) {
      expect(listed, why).not.to.include(pool.poolId);
      expectRefusal(await shop.get(`/vouchers/${pool.poolId}`), 404, 'SHOP-VOU-001');
    }
  });

  it('shows one voucher by id, as the list shows it', async () => {
    const listed = (await shop.vouchers()).content.find((v) => v.id === b2.poolId);
    expect(await shop.ok(`/vouchers/${b2.poolId}`)).to.deep.equal(listed);
    expect(await shop.ok(`/vouchers/${b2.poolId}?channel=WEB`)).to.deep.equal(listed);
  });

  it('answers 404 SHOP-VOU-001 for a pool that does not exist, 404 SHOP-REQ-404 for an id that is not a number', async () => {
    expectRefusal(await shop.get('/vouchers/999999'), 404, 'SHOP-VOU-001', /999999/);
    expectRefusal(await shop.get('/vouchers/0'), 404, 'SHOP-VOU-001');
    expectRefusal(await shop.get('/vouchers/123456789012345678901234567890'), 404, 'SHOP-VOU-001');
    expectRefusal(await shop.get('/vouchers/abc'), 404, 'SHOP-REQ-404');
  });

  describe('filters', () => {
    it('tag: one campaign tag', async () => {
      expect(await shop.voucherIds('?tag=HOT_DEAL')).to.deep.equal([a1.poolId, a2.poolId, a3.poolId]);
      expect(await shop.voucherIds('?tag=NO_SUCH_TAG')).to.deep.equal([]);
    });

    it('tags: comma-separated or repeated, any of them; tags wins over tag', async () => {
      expect(await shop.voucherIds('?tags=TET_DEAL,FLASH_SALE')).to.deep.equal([b1.poolId, b2.poolId, c1.poolId]);
      expect(await shop.voucherIds('?tags=TET_DEAL&tags=FLASH_SALE')).to.deep.equal([b1.poolId, b2.poolId, c1.poolId]);
      expect(await shop.voucherIds('?tag=HOT_DEAL&tags=TET_DEAL')).to.deep.equal([c1.poolId]);
      expect(await shop.voucherIds('?tags=&tag=TET_DEAL')).to.deep.equal([c1.poolId]);
      const page = await shop.vouchers('?tags=FLASH_SALE, HOT_DEAL');
      expect(page.page.totalElements).to.equal(5);
    });

    it('categoryIds: comma-separated or repeated', async () => {
      expect(await shop.voucherIds('?categoryIds=11')).to.deep.equal([a1.poolId, a3.poolId, c1.poolId]);
      expect(await shop.voucherIds('?categoryIds=12,13')).to.deep.equal([b1.poolId, b2.poolId, a2.poolId]);
      expect(await shop.voucherIds('?categoryIds=12&categoryIds=13')).to.deep.equal([b1.poolId, b2.poolId, a2.poolId]);
      expect((await shop.vouchers('?categoryIds=11')).page.totalElements).to.equal(3);
    });

    it('campaignIds and excludeCampaignIds', async () => {
      expect(await shop.voucherIds(`?campaignIds=${c.id},${b.id}`)).to.deep.equal([b1.poolId, b2.poolId, c1.poolId]);
      expect(await shop.voucherIds(`?campaignIds=${c.id}&campaignIds=${a.id}`)).to.deep.equal([
        a1.poolId,
        a2.poolId,
        a3.poolId,
        c1.poolId,
      ]);
      expect(await shop.voucherIds(`?excludeCampaignIds=${a.id},${b.id}`)).to.deep.equal([c1.poolId]);
      expect(await shop.voucherIds(`?excludeCampaignIds=${a.id}&excludeCampaignIds=${c.id}`)).to.deep.equal([
        b1.poolId,
        b2.poolId,
      ]);
      // A campaign that is not on sale lists nothing even when asked for by id.
      expect(await shop.voucherIds(`?campaignIds=${hidden['PAUSED campaign']!.campaignId}`)).to.deep.equal([]);
    });

    it('combines filters: all must hold, and the totals count the same set', async () => {
      const page = await shop.vouchers(`?tags=HOT_DEAL,FLASH_SALE&categoryIds=11,12&excludeCampaignIds=${b.id}&size=1`);
      expect(page.content.map((v) => v.id)).to.deep.equal([a1.poolId]);
      expect(page.page).to.deep.equal({ size: 1, number: 0, totalElements: 3, totalPages: 3 });
      const both = await shop.vouchers(`?campaignIds=${a.id},${b.id}&excludeCampaignIds=${a.id}&categoryIds=12`);
      expect(both.content.map((v) => v.id)).to.deep.equal([b1.poolId]);
      expect(both.page.totalElements).to.equal(1);
    });

    it('channel: APP by default, or WEB; the vouchers are the same', async () => {
      const app = await shop.vouchers('?channel=APP');
      expect(await shop.vouchers()).to.deep.equal(app);
      expect(await shop.vouchers('?channel=WEB')).to.deep.equal(app);
    });
  });

  describe('paging', () => {
    it('pages through the list: size, number, totalElements, totalPages; a page past the end is empty with the totals', async () => {
      const all = await shop.voucherIds();
      const pages = [0, 1, 2].map((n) => shop.vouchers(`?page=${n}&size=4`));
      const [first, second, third] = await Promise.all(pages);
      expect(first!.content.map((v) => v.id)).to.deep.equal(all.slice(0, 4));
      expect(first!.page).to.deep.equal({ size: 4, number: 0, totalElements: 6, totalPages: 2 });
      expect(second!.content.map((v) => v.id)).to.deep.equal(all.slice(4));
      expect(second!.page).to.deep.equal({ size: 4, number: 1, totalElements: 6, totalPages: 2 });
      expect(third).to.deep.equal({ content: [], page: { size: 4, number: 2, totalElements: 6, totalPages: 2 } });
      expect(await shop.vouchers('?page=1000000000&size=50')).to.deep.equal({
        content: [],
        page: { size: 50, number: 1_000_000_000, totalElements: 6, totalPages: 1 },
      });
    });

    it('an exact last page, and a filter that matches nothing: totalPages 0', async () => {
      expect((await shop.vouchers('?size=3&page=1')).content.map((v) => v.id)).to.deep.equal(
        (await shop.voucherIds()).slice(3),
      );
      expect((await shop.vouchers('?size=3')).page.totalPages).to.equal(2);
      expect(await shop.vouchers('?tag=NONE')).to.deep.equal({
        content: [],
        page: { size: 20, number: 0, totalElements: 0, totalPages: 0 },
      });
    });

    it('clamps a size above 50 to 50', async () => {
      expect((await shop.vouchers('?size=51')).page.size).to.equal(50);
      expect((await shop.vouchers('?size=100000')).page).to.deep.equal({
        size: 50,
        number: 0,
        totalElements: 6,
        totalPages: 1,
      });
    });

    it('takes integers too large to be exact as past any page or size: a clamped size, an empty page, no matching id', async () => {
      expect((await shop.vouchers('?size=10000000000000000000000')).page.size).to.equal(50);
      expect(await shop.vouchers('?page=10000000000000000000000&size=10')).to.deep.equal({
        content: [],
        page: { size: 10, number: Number.MAX_SAFE_INTEGER, totalElements: 6, totalPages: 1 },
      });
      expect((await shop.vouchers('?campaignIds=10000000000000000000000')).page.totalElements).to.equal(0);
      expect((await shop.vouchers('?excludeCampaignIds=10000000000000000000000')).page.totalElements).to.equal(6);
    });

    it('refuses a negative page, a size below 1 and non-integers with 400 SHOP-REQ-001 naming the parameter', async () => {
      for (const [query, name] of [
        ['page=-1', /page/],
        ['page=1.5', /page/],
        ['page=x', /page/],
        ['page=', /page/],
        ['size=0', /size/],
        ['size=-5', /size/],
        ['size=2e1', /size/],
        ['page=1&page=2', /page/],
      ] as const) {
        expectRefusal(await shop.get(`/vouchers?${query}`), 400, 'SHOP-REQ-001', name);
      }
    });
  });

  it('refuses malformed filters with 400 SHOP-REQ-001 naming the parameter', async () => {
    for (const [query, name] of [
      ['channel=MOBILE', /channel/],
      ['channel=app', /channel/],
      ['categoryIds=abc', /categoryIds/],
      ['categoryIds=1,-2', /categoryIds/],
      ['campaignIds=1.5', /campaignIds/],
      ['excludeCampaignIds=x', /excludeCampaignIds/],
      ['categoryIds[a]=1', /categoryIds/],
      ['tag=hot_deal', /tag/],
      ['tag=HOT_DEAL&tag=TET_DEAL', /tag/],
      ['tags=HOT_DEAL,bad tag', /tags/],
      [`categoryIds=${Array.from({ length: 101 }, (_, i) => i).join(',')}`, /categoryIds/],
    ] as const) {
      expectRefusal(await shop.get(`/vouchers?${query}`), 400, 'SHOP-REQ-001', name);
    }
  });

  it('asks for the shop credentials; X-User-Id is optional', async () => {
    const res = await call(app.baseUrl, 'GET', '/api/v1/vouchers', {
      headers: shopHeaders(merchant, undefined, { client_secret: 'wrong' }),
    });
    expectRefusal(res, 401, 'SHOP-AUTH-001');
    expectRefusal(
      await call(app.baseUrl, 'GET', `/api/v1/vouchers/${a1.poolId}`, {
        headers: shopHeaders(merchant, undefined, { 'X-Request-Id': undefined }),
      }),
      400,
      'SHOP-REQ-001',
      /X-Request-Id/,
    );
    expect((await shop.vouchers('', 'some-user')).content).to.have.length(6);
  });
});
