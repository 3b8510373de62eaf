import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import type { ShopCampaignResponse, ShopVoucherResponse } from '../../../application/shop/catalog-queries.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  expectOk,
  expectRefusal,
  OperatorApi,
  reserveBody,
  Shopper,
  type CampaignData,
  type PoolData,
} from '../support.js';
import { banner, CatalogClient, campaignIn, live, poolIn } from './catalog-support.js';

/**
 * GET /api/v1/campaigns/carousel, /campaigns and /campaigns/{id} on one
 * catalog; the clock stands at 2026-06-01T00:00:00Z. Shown:
 *   P1  HOT_DEAL    priority 1  banners APP CAROUSEL, APP DETAIL_TOP, WEB CAROUSEL
 *                               pools p1a (2 sold), p1b (no stock), p1c (all reserved), p1d deleted
 *   P2  FLASH_SALE  priority 2  banner WEB DETAIL_TOP; pool p2a
 *   P3  HOT_DEAL    priority 3  in presale (starts 2026-06-10, presale from 2026-05-25); banner APP CAROUSEL; pools p3a, p3b
 * Not shown, each with an APP CAROUSEL banner: presale disabled before its
 * start, DRAFT, APPROVED only, PAUSED, ENDED, over, not SELL.
 */
describe('Shop catalog over HTTP: campaigns, carousel and campaign detail', () => {
  const clock = fixedClock('2026-06-01T00:00:00.000Z');
  let app: TestApp;
  let shop: CatalogClient;
  let buyer: Shopper;
  let p1: CampaignData, p2: CampaignData, p3: CampaignData;
  let p1a: PoolData, p1b: PoolData, p1c: PoolData, p2a: PoolData, p3a: PoolData, p3b: PoolData;
  const hidden: Record<string, CampaignData> = {};
  const presale = {
    enabled: true,
    startAt: '2026-05-25T00:00:00.000Z',
    countdownEnabled: true,
    teaserText: 'Sắp mở bán',
    teaserImageUrl: 'https://cdn.example.vn/teaser.png',
  };

  before(async () => {
    app = await startTestApp({ clock });
    const operator = new OperatorApi(app.baseUrl);
    const merchant = await operator.createMerchant();
    shop = new CatalogClient(app, merchant);
    buyer = new Shopper(app.baseUrl, merchant);

    p1 = await campaignIn(operator, live, {
      name: 'Ưu đãi nóng',
      description: 'Giảm giá mỗi ngày',
      campaignTag: 'HOT_DEAL',
      displayPriority: 1,
      themeUrl: 'https://cdn.example.vn/p1.png',
      banners: [
        banner('APP', 'CAROUSEL', 2, 'app://deals'),
        banner('APP', 'DETAIL_TOP', 1),
        banner('WEB', 'CAROUSEL', 1),
      ],
    });
    p2 = await campaignIn(operator, live, {
      campaignTag: 'FLASH_SALE',
      displayPriority: 2,
      banners: [banner('WEB', 'DETAIL_TOP', 0)],
    });
    p3 = await campaignIn(operator, live, {
      campaignTag: 'HOT_DEAL',
      displayPriority: 3,
      startAt: '2026-06-10T00:00:00Z',
      presale,
      banners: [banner('APP', 'CAROUSEL', 1)],
    });

    p1a = await poolIn(operator, p1.id, { totalQuantity: 10 });
    p1b = await poolIn(operator, p1.id, { totalQuantity: 0 });
    p1c = await poolIn(operator, p1.id, { totalQuantity: 5 });
    const p1d = await poolIn(operator, p1.id, { totalQuantity: 5 });
    await operator.call('DELETE', `/voucher-pools/${p1d.poolId}`);
    p2a = await poolIn(operator, p2.id);
    p3a = await poolIn(operator, p3.id);
    p3b = await poolIn(operator, p3.id);

    const sold = await buyer.reserved(reserveBody([{ pool: p1a, quantity: 2 }]));
    expectOk(await buyer.commit(sold.reservationKey));
    await buyer.reserved(reserveBody([{ pool: p1c, quantity: 5 }]));

    const carousel = [banner('APP', 'CAROUSEL', 1)];
    const others: [string, string[], Record<string, unknown>][] = [
      [
        'presale disabled, not started',
        live,
        { startAt: '2026-06-10T00:00:00Z', presale: { ...presale, enabled: false } },
      ],
      ['DRAFT', [], {}],
      ['APPROVED, not ACTIVE', ['APPROVED'], {}],
      ['PAUSED', ['APPROVED', 'ACTIVE', 'PAUSED'], {}],
      ['ENDED', ['APPROVED', 'ACTIVE', 'ENDED'], {}],
      ['over', live, { endAt: '2026-06-01T00:00:00Z' }],
      ['not SELL', live, { type: 'GIFT' }],
    ];
    for (const [why, statuses, overrides] of others) {
      hidden[why] = await campaignIn(operator, statuses, { displayPriority: 1, banners: carousel, ...overrides });
      await poolIn(operator, hidden[why]!.id);
    }
  });
  after(() => app?.stop());

  const ids = (campaigns: { content: ShopCampaignResponse[] }) => campaigns.content.map((c) => c.id);

  describe('GET /campaigns', () => {
    it('lists shown campaigns by displayPriority, then id, with the page object', async () => {
      const page = await shop.campaigns();
      expect(ids(page)).to.deep.equal([p1.id, p2.id, p3.id]);
      expect(page.page).to.deep.equal({ size: 20, number: 0, totalElements: 3, totalPages: 1 });
    });

    it('answers every field of ShopCampaignResponse; banners of the APP channel by default, by displayOrder', async () => {
      const got = (await shop.campaigns()).content[0]!;
      const campaignBanners = expectOk(
        await new OperatorApi(app.baseUrl).call<CampaignData & { banners: ShopCampaignResponse['banners'] }>(
          'GET',
          `/campaigns/${p1.id}`,
        ),
      ).banners;
      const expected: ShopCampaignResponse = {
        id: p1.id,
        code: p1.code,
        name: 'Ưu đãi nóng',
        description: 'Giảm giá mỗi ngày',
        campaignTag: 'HOT_DEAL',
        displayPriority: 1,
        themeUrl: 'https://cdn.example.vn/p1.png',
        startAt: '2026-01-01T00:00:00.000Z',
        endAt: '2027-12-31T00:00:00.000Z',
        presale: null,
        banners: [campaignBanners[1]!, campaignBanners[0]!],
        voucherSummary: { totalCount: 3, availableCount: 1, soldCount: 2, displayedCount: 3 },
        vouchers: null,
      };
      expect(got).to.deep.equal(expected);
      expect(got.banners.map((b) => [b.channelCode, b.positionCode, b.displayOrder, b.clickUrl])).to.deep.equal([
        ['APP', 'DETAIL_TOP', 1, null],
        ['APP', 'CAROUSEL', 2, 'app://deals'],
      ]);
    });

    it('filters banners by channel', async () => {
      const web = await shop.campaigns('?channel=WEB');
      expect(web.content.map((c) => c.banners.map((b) => `${b.channelCode} ${b.positionCode}`))).to.deep.equal([
        ['WEB CAROUSEL'],
        ['WEB DETAIL_TOP'],
        [],
      ]);
      const appBanners = (await shop.campaigns('?channel=APP')).content.map((c) => c.banners.length);
      expect(appBanners).to.deep.equal([2, 0, 1]);
      expectRefusal(await shop.get('/campaigns?channel=TV'), 400, 'SHOP-REQ-001', /channel/);
    });

    it('voucherSummary: pools not deleted, those in stock (reservations count), vouchers sold, pools listed now', async () => {
      const summaries = (await shop.campaigns()).content.map((c) => c.voucherSummary);
      expect(summaries).to.deep.equal([
        { totalCount: 3, availableCount: 1, soldCount: 2, displayedCount: 3 },
        { totalCount: 1, availableCount: 1, soldCount: 0, displayedCount: 1 },
        { totalCount: 2, availableCount: 2, soldCount: 0, displayedCount: 0 },
      ]);
    });

    it('shows a campaign in presale with its presale settings; its vouchers are listed only from startAt', async () => {
      const shown = (await shop.campaigns()).content.find((c) => c.id === p3.id)!;
      expect(shown.presale).to.deep.equal(presale);
      expect(shown.startAt).to.equal('2026-06-10T00:00:00.000Z');
      expect(await shop.voucherIds(`?campaignIds=${p3.id}`)).to.deep.equal([]);
      expectRefusal(await shop.get(`/vouchers/${p3a.poolId}`), 404, 'SHOP-VOU-001');
    });

    it('filters by tag, and by tags (comma-separated), tags winning over tag', async () => {
      expect(ids(await shop.campaigns('?tag=HOT_DEAL'))).to.deep.equal([p1.id, p3.id]);
      expect(ids(await shop.campaigns('?tag=FLASH_SALE'))).to.deep.equal([p2.id]);
      expect(ids(await shop.campaigns('?tags=FLASH_SALE,HOT_DEAL'))).to.deep.equal([p1.id, p2.id, p3.id]);
      expect(ids(await shop.campaigns('?tag=HOT_DEAL&tags=FLASH_SALE'))).to.deep.equal([p2.id]);
      expect(await shop.campaigns('?tag=NOPE')).to.deep.equal({
        content: [],
        page: { size: 20, number: 0, totalElements: 0, totalPages: 0 },
      });
      expectRefusal(await shop.get('/campaigns?tags=hot'), 400, 'SHOP-REQ-001', /tags/);
    });

    it('includeVouchers=true: each campaign with its listed vouchers, as /vouchers/{id} answers them; none in presale', async () => {
      const page = await shop.campaigns('?includeVouchers=true');
      const vouchers = page.content.map((c) => c.vouchers!.map((v) => v.id));
      expect(vouchers).to.deep.equal([[p1a.poolId, p1b.poolId, p1c.poolId], [p2a.poolId], []]);
      const detail = await shop.ok<ShopVoucherResponse>(`/vouchers/${p1c.poolId}`);
      expect(page.content[0]!.vouchers![2]).to.deep.equal(detail);
      expect(detail.inventory).to.deep.equal({ totalQuantity: 5, remainingQuantity: 0, isOutOfStock: true });
      expect((await shop.campaigns('?includeVouchers=false')).content.map((c) => c.vouchers)).to.deep.equal([
        null,
        null,
        null,
      ]);
    });

    it('vouchersPerCampaign: at most that many per campaign, 10 by default, clamped to 50; with X-User-Id each carries the usage', async () => {
      const two = await shop.campaigns('?includeVouchers=true&vouchersPerCampaign=2');
      expect(two.content.map((c) => c.vouchers!.map((v) => v.id))).to.deep.equal([
        [p1a.poolId, p1b.poolId],
        [p2a.poolId],
        [],
      ]);
      const clamped = await shop.campaigns('?includeVouchers=true&vouchersPerCampaign=51');
      expect(clamped).to.deep.equal(await shop.campaigns('?includeVouchers=true'));
      const mine = await shop.ok<{ content: ShopCampaignResponse[] }>('/campaigns?includeVouchers=true', buyer.userId);
      expect(mine.content[0]!.vouchers!.map((v) => v.userPurchaseUsage!.totalPurchasedQty)).to.deep.equal([2, 0, 5]);
    });

    it('refuses bad includeVouchers and vouchersPerCampaign with 400 SHOP-REQ-001 naming them', async () => {
      for (const [query, name] of [
        ['includeVouchers=1', /includeVouchers/],
        ['includeVouchers=yes', /includeVouchers/],
        ['vouchersPerCampaign=0', /vouchersPerCampaign/],
        ['vouchersPerCampaign=-1', /vouchersPerCampaign/],
        ['vouchersPerCampaign=two', /vouchersPerCampaign/],
      ] as const) {
        expectRefusal(await shop.get(`/campaigns?${query}`), 400, 'SHOP-REQ-001', name);
      }
    });

    it('pages: size, number, totals; past the end empty; size clamped to 50; bad page or size refused', async () => {
      const second = await shop.campaigns('?size=1&page=1');
      expect(ids(second)).to.deep.equal([p2.id]);
      expect(second.page).to.deep.equal({ size: 1, number: 1, totalElements: 3, totalPages: 3 });
      expect(await shop.campaigns('?size=2&page=2')).to.deep.equal({
        content: [],
        page: { size: 2, number: 2, totalElements: 3, totalPages: 2 },
      });
      expect((await shop.campaigns('?size=51')).page.size).to.equal(50);
      expect(
        (
          await shop.campaigns(
            '?page=99999999999999999999&vouchersPerCampaign=99999999999999999999&includeVouchers=true',
          )
        ).page,
      ).to.deep.equal({
        size: 20,
        number: Number.MAX_SAFE_INTEGER,
        totalElements: 3,
        totalPages: 1,
      });
      expectRefusal(await shop.get('/campaigns?page=-1'), 400, 'SHOP-REQ-001', /page/);
      expectRefusal(await shop.get('/campaigns?size=0'), 400, 'SHOP-REQ-001', /size/);
    });
  });

  describe('GET /campaigns/carousel', () => {
    it('lists shown campaigns with a CAROUSEL banner on the channel, 10 per page by default', async () => {
      const appCarousel = await shop.carousel();
      expect(ids(appCarousel)).to.deep.equal([p1.id, p3.id]);
      expect(appCarousel.page).to.deep.equal({ size: 10, number: 0, totalElements: 2, totalPages: 1 });
      expect(appCarousel.content[0]!.banners.map((b) => b.channelCode)).to.deep.equal(['APP', 'APP']);
      expect(appCarousel.content[0]!.vouchers).to.equal(null);

      const webCarousel = await shop.carousel('?channel=WEB');
      expect(ids(webCarousel)).to.deep.equal([p1.id]);
      expect(webCarousel.content[0]!.banners.map((b) => `${b.channelCode} ${b.positionCode}`)).to.deep.equal([
        'WEB CAROUSEL',
      ]);
    });

    it('pages the same way', async () => {
      const second = await shop.carousel('?size=1&page=1');
      expect(ids(second)).to.deep.equal([p3.id]);
      expect(second.page).to.deep.equal({ size: 1, number: 1, totalElements: 2, totalPages: 2 });
      expect((await shop.carousel('?page=5')).content).to.deep.equal([]);
      expect((await shop.carousel('?size=80')).page.size).to.equal(50);
      expectRefusal(await shop.get('/campaigns/carousel?size=x'), 400, 'SHOP-REQ-001', /size/);
      expectRefusal(await shop.get('/campaigns/carousel?channel=web'), 400, 'SHOP-REQ-001', /channel/);
    });
  });

  describe('GET /campaigns/{id}', () => {
    it('answers the campaign as the list does, banners by channel', async () => {
      const [listed] = (await shop.campaigns('?channel=WEB')).content;
      expect(await shop.ok(`/campaigns/${p1.id}?channel=WEB`)).to.deep.equal(listed);
      const app = await shop.ok<ShopCampaignResponse>(`/campaigns/${p1.id}`);
      expect(app.banners.map((b) => b.channelCode)).to.deep.equal(['APP', 'APP']);
      expect((await shop.ok<ShopCampaignResponse>(`/campaigns/${p3.id}`)).presale).to.deep.equal(presale);
      expect((await shop.ok<ShopCampaignResponse>(`/campaigns/${p2.id}`)).voucherSummary.displayedCount).to.equal(1);
    });

    it('answers 404 SHOP-CAM-001 for a campaign that is missing or not shown', async () => {
      await shop.campaigns();
      for (const [why, campaign] of Object.entries(hidden)) {
        expectRefusal(await shop.get(`/campaigns/${campaign.id}`), 404, 'SHOP-CAM-001');
        expect(ids(await shop.campaigns('?size=50')), why).not.to.include(campaign.id);
        expect(ids(await shop.carousel('?size=50')), why).not.to.include(campaign.id);
      }
      expectRefusal(await shop.get('/campaigns/987654'), 404, 'SHOP-CAM-001', /987654/);
      expectRefusal(await shop.get('/campaigns/99999999999999999999999'), 404, 'SHOP-CAM-001');
      expectRefusal(await shop.get('/campaigns/x1'), 404, 'SHOP-REQ-404');
      expectRefusal(await shop.get(`/campaigns/${p1.id}?channel=SMS`), 400, 'SHOP-REQ-001', /channel/);
    });
  });

  it('leaves p3b out of every voucher list until P3 starts', async () => {
    expect(await shop.voucherIds('?size=50')).to.not.include(p3b.poolId);
    clock.set('2026-06-10T00:00:00.000Z');
    try {
      expect(await shop.voucherIds(`?campaignIds=${p3.id}`)).to.deep.equal([p3a.poolId, p3b.poolId]);
      expect((await shop.ok<ShopCampaignResponse>(`/campaigns/${p3.id}`)).voucherSummary.displayedCount).to.equal(2);
    } finally {
      clock.set('2026-06-01T00:00:00.000Z');
    }
  });
});
