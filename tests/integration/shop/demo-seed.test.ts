import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { CampaignView } from '../../../application/shop/campaign-admin.js';
import { CategoryAdmin } from '../../../application/shop/category-admin.js';
import { MerchantAdmin } from '../../../application/shop/merchant-admin.js';
import { seedDemo, type DemoData, type DemoServices } from '../../../infrastructure/shop/demo-seed.js';
import { PurchaseWorld } from './purchase-support.js';

const hour = 3600_000;

describe('Demo seed: the Vietnamese demo catalog of npm start', () => {
  let world: PurchaseWorld;
  let services: DemoServices;
  let dataDir: string;
  let demo: DemoData;

  before(async () => {
    world = await PurchaseWorld.create();
    const { pools, purchases } = world.process();
    const deps = { store: world.store, ids: world.ids, clock: world.clock };
    services = {
      merchants: new MerchantAdmin(deps),
      campaigns: world.campaignAdmin(purchases.pools),
      categories: new CategoryAdmin(deps),
      pools,
    };
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-seed-'));
    demo = await seedDemo(services, dataDir, world.clock);
  });
  after(async () => {
    await world.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const campaign = (id: number) => services.campaigns.get(id);
  const catalog = () => demo.catalog!;

  it('given a fresh database, seeds the DEMO merchant with a working key and writes the credentials file', async () => {
    expect(demo.merchantId).to.equal('DEMO');
    expect((await services.merchants.get('DEMO')).apiKeys).to.have.length(1);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8'))).to.deep.equal(demo);
  });

  it('creates the categories with Vietnamese names', async () => {
    const names = (await services.categories.list()).map((c) => c.name);
    expect(names).to.include.members(['Ẩm thực', 'Di chuyển', 'Mua sắm', 'Điện thoại & viễn thông', 'Giải trí']);
    expect(catalog().categoryIds).to.have.length(names.length);
  });

  it('has a running FLASH_SALE ending in a few hours, with a few purchasable pools to print', async () => {
    const now = world.clock.now().getTime();
    const flash = await campaign(catalog().flashSaleCampaignId);
    expect(flash).to.include({ status: 'ACTIVE', campaignTag: 'FLASH_SALE', type: 'SELL' });
    expect(Date.parse(flash.startAt)).to.be.below(now);
    expect(Date.parse(flash.endAt) - now).to.be.within(hour, 6 * hour);
    expect(demo.campaignId).to.equal(flash.id);
    expect(demo.pools.length).to.be.within(1, 4);
    for (const p of demo.pools)
      expect(await services.pools.get(p.id)).to.deep.include({ campaignId: flash.id, status: 'ACTIVE' });
  });

  it('has a campaign in presale: enabled, presale started, vouchers on sale only from a future startAt', async () => {
    const now = world.clock.now().getTime();
    const presale = await campaign(catalog().presaleCampaignId);
    expect(presale.status).to.equal('ACTIVE');
    expect(presale.presale).to.include({ enabled: true, countdownEnabled: true });
    expect(Date.parse(presale.presale!.startAt)).to.be.below(now);
    expect(Date.parse(presale.startAt)).to.be.above(now);
  });

  it('has a few dozen pools across categories and brands, banners for APP and WEB in CAROUSEL and DETAIL_TOP, and a paused campaign', async () => {
    expect(catalog().poolCount).to.be.within(24, 60);
    const all: CampaignView[] = await Promise.all(catalog().campaignIds.map(campaign));
    expect(all.filter((c) => c.status === 'ACTIVE').length).to.be.at.least(5);
    expect(all.map((c) => c.status)).to.include('PAUSED');
    for (const c of all) {
      const placements = c.banners.map((b) => `${b.channelCode}/${b.positionCode}`);
      expect(placements, c.code).to.include.members([
        'APP/CAROUSEL',
        'WEB/CAROUSEL',
        'APP/DETAIL_TOP',
        'WEB/DETAIL_TOP',
      ]);
    }
    const events = await world.db.knex('events').where({ type: 'VoucherPoolCreated' }).select('data');
    const seeded = events.map(
      (e: { data: { campaignId: number; categoryId: number; display: { brandName: string } } }) => e.data,
    );
    const ofDemo = seeded.filter((d) => catalog().campaignIds.includes(d.campaignId));
    expect(ofDemo).to.have.length(catalog().poolCount);
    expect(new Set(ofDemo.map((d) => d.categoryId)).size).to.be.at.least(6);
    expect(new Set(ofDemo.map((d) => d.display.brandName)).size).to.be.at.least(20);
  });

  it('given it was seeded, when started again, then it returns the saved data and seeds nothing more', async () => {
    const count = async () => Number((await world.db.knex('events').count('* as n'))[0]!.n);
    const before = await count();
    expect(await seedDemo(services, dataDir, world.clock)).to.deep.equal(demo);
    expect(await count()).to.equal(before);
  });

  it('given the flash sale ran out, when started again, then its window moves so the countdown shows again; so does a presale that started', async () => {
    world.clock.advance(5 * hour);
    await seedDemo(services, dataDir, world.clock);
    const now = world.clock.now().getTime();
    const flash = await campaign(catalog().flashSaleCampaignId);
    expect([Date.parse(flash.startAt) < now, Date.parse(flash.endAt) - now]).to.deep.equal([true, 3 * hour]);

    world.clock.advance(3 * 24 * hour);
    await seedDemo(services, dataDir, world.clock);
    const later = world.clock.now().getTime();
    const presale = await campaign(catalog().presaleCampaignId);
    expect(Date.parse(presale.presale!.startAt)).to.be.below(later);
    expect(Date.parse(presale.startAt)).to.be.above(later);
  });
});
