import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { ShopCampaignResponse, ShopVoucherResponse } from '../../../application/shop/catalog-queries.js';
import { seedDemo, type DemoData } from '../../../infrastructure/shop/demo-seed.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { expectRefusal, OperatorApi } from '../support.js';
import { CatalogClient, type CampaignPage, type VoucherPage } from './catalog-support.js';

/** What `npm start` shows: the demo catalog through the shop's GET endpoints. */
describe('Shop catalog over HTTP on the demo data of npm start', () => {
  let app: TestApp;
  let demo: DemoData;
  let shop: CatalogClient;
  let dataDir: string;

  before(async () => {
    app = await startTestApp();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-catalog-'));
    demo = await seedDemo(app.container.services.shop, dataDir);
    shop = new CatalogClient(app, await new OperatorApi(app.baseUrl).createMerchant());
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the live campaigns first by priority, the flash sale with a running countdown; the paused one is not listed', async () => {
    const vouchers = await shop.vouchers('?size=50');
    expect(vouchers.page.totalElements).to.be.at.least(25);
    const first = vouchers.content[0]!;
    expect(first.campaign).to.include({ id: demo.campaignId, tag: 'FLASH_SALE' });
    expect(first.campaign.countdown!.remainingSeconds).to.be.within(3600, 3 * 3600);
    const paused = (await app.container.services.shop.campaigns.get(demo.catalog!.campaignIds.at(-1)!)).status;
    expect(paused).to.equal('PAUSED');
    expect(vouchers.content.map((v) => v.campaign.id)).not.to.include(demo.catalog!.campaignIds.at(-1));
  });

  it('shows the presale campaign (teaser, countdown) in the campaign list and detail, its vouchers not yet on sale', async () => {
    const presaleId = demo.catalog!.presaleCampaignId;
    const campaigns = await shop.ok<CampaignPage>('/campaigns?size=50');
    expect(campaigns.content.map((c) => c.id)).to.include(presaleId);
    const detail = await shop.ok<ShopCampaignResponse>(`/campaigns/${presaleId}?includeVouchers=true`);
    expect(detail.presale).to.include({ enabled: true, countdownEnabled: true });
    expect(Date.parse(detail.startAt)).to.be.above(Date.now());
    expect(detail.voucherSummary.displayedCount).to.equal(0);
    expect((await shop.vouchers(`?campaignIds=${presaleId}`)).content).to.deep.equal([]);
  });

  it('filters by a Vietnamese category and answers every pool detail; a sold-out pool says so', async () => {
    const [food] = await app.container.services.shop.categories.list();
    expect(food!.name).to.equal('Ẩm thực');
    const page: VoucherPage = await shop.vouchers(`?categoryIds=${food!.id}&size=50`);
    expect(page.content.length).to.be.at.least(3);
    expect(page.content.every((v) => v.categoryId === food!.id)).to.equal(true);
    for (const p of demo.pools)
      expect((await shop.ok<ShopVoucherResponse>(`/vouchers/${p.id}`)).display.title).to.equal(p.title);
    const all = await shop.vouchers('?size=50');
    expect(all.content.some((v) => v.inventory.isOutOfStock)).to.equal(true);
  });

  it('advertises only prices a buyer can pay: discountedPrice is the selling price reserve demands, the percentage from it', async () => {
    const all = (await shop.vouchers('?size=50')).content;
    expect(all.length).to.be.at.least(25);
    for (const { id, pricing } of all) {
      expect(pricing.discountedPrice ?? pricing.sellingPrice, `pool ${id}`).to.equal(pricing.sellingPrice);
      const percent = Math.round(((pricing.faceValue - pricing.sellingPrice) * 100) / pricing.faceValue);
      expect(pricing.discountPercentage, `pool ${id}`).to.equal(percent);
    }
  });

  it('carries banners for both channels, each channel seeing its own', async () => {
    for (const channel of ['APP', 'WEB'] as const) {
      const carousel = await shop.ok<CampaignPage>(`/campaigns/carousel?channel=${channel}`);
      expect(carousel.content.length).to.be.at.least(5);
      const banners = carousel.content.flatMap((c) => c.banners);
      expect(new Set(banners.map((b) => b.channelCode))).to.deep.equal(new Set([channel]));
      expect(new Set(banners.map((b) => b.positionCode))).to.deep.equal(new Set(['CAROUSEL', 'DETAIL_TOP']));
    }
  });

  it('answers 404 SHOP-CAM-001 for the paused campaign', async () => {
    expectRefusal(await shop.get(`/campaigns/${demo.catalog!.campaignIds.at(-1)}`), 404, 'SHOP-CAM-001');
  });
});
