import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CampaignAdmin } from '../../../application/shop/campaign-admin.js';
import { CategoryAdmin } from '../../../application/shop/category-admin.js';
import type { VoucherPoolAdmin } from '../../../application/shop/voucher-pool-admin.js';
import type { NewCampaignBanner } from '../../../domain/shop/campaign.js';
import { categoryIndexStream } from '../../../domain/shop/category.js';
import { streams } from '../../../domain/shop/events.js';
import { PurchaseWorld, caller, order, refusedWith } from './purchase-support.js';
import { asOperator } from '../../support/commands.js';

const banner: NewCampaignBanner = {
  channelCode: 'WEB',
  positionCode: 'CAROUSEL',
  assetUrl: 'https://cdn.example.vn/web.jpg',
  assetType: 'IMAGE',
  altText: 'Khuyến mãi',
  clickUrl: 'https://shop.example.vn/khuyen-mai',
  displayOrder: 1,
};

describe('Catalog operator services: categories, campaign and pool updates (PostgreSQL event store)', () => {
  let world: PurchaseWorld;
  let pools: VoucherPoolAdmin;
  let categories: CategoryAdmin;
  let campaigns: CampaignAdmin;
  let purchases: ReturnType<PurchaseWorld['process']>['purchases'];

  before(async () => {
    world = await PurchaseWorld.create();
    ({ pools, purchases } = world.process());
    categories = new CategoryAdmin({ store: world.store, ids: world.ids, clock: world.clock });
    campaigns = world.campaignAdmin(purchases.pools);
  });
  after(() => world.close());

  describe('categories', () => {
    it('given no category yet, when a pool names any categoryId, then it is accepted (categories are optional)', async () => {
      expect((await pools.create(asOperator('ops'), world.definition({ categoryId: 42 }))).categoryId).to.equal(42);
    });

    it('creates categories with ids from the sequence, indexes them, records the operator, renames and lists them', async () => {
      const food = await categories.create(asOperator('alice'), { name: 'Ẩm thực' });
      const travel = await categories.create(asOperator('alice'), { name: 'Di chuyển' });
      expect(food).to.deep.include({ name: 'Ẩm thực' });
      expect(travel.id).to.be.greaterThan(food.id);
      const [created] = await world.store.readStream(streams.category(food.id));
      expect([created!.type, created!.metadata.actor]).to.deep.equal(['VoucherCategoryCreated', { operator: 'alice' }]);
      expect((await world.store.readStream(categoryIndexStream)).map((e) => e.data)).to.deep.include({
        categoryId: travel.id,
        indexedAt: travel.createdAt,
      });

      expect(await categories.rename(asOperator('bob'), food.id, 'Ăn uống')).to.include({
        id: food.id,
        name: 'Ăn uống',
      });
      expect((await world.store.readStream(streams.category(food.id))).at(-1)!.metadata.actor).to.deep.equal({
        operator: 'bob',
      });
      expect((await categories.list()).map((c) => [c.id, c.name])).to.deep.equal([
        [food.id, 'Ăn uống'],
        [travel.id, 'Di chuyển'],
      ]);
      expect(await categories.get(travel.id)).to.deep.equal(travel);
    });

    it('refuses an unknown category with CATEGORY_NOT_FOUND', async () => {
      await refusedWith(categories.rename(asOperator('alice'), 999_999, 'X'), 'CATEGORY_NOT_FOUND');
      await refusedWith(categories.get(999_999), 'CATEGORY_NOT_FOUND');
    });

    it('given categories exist, when a pool is created or moved into an unknown category, then INVALID_POOL on categoryId', async () => {
      const known = (await categories.list())[0]!.id;
      expect(
        (await refusedWith(pools.create(asOperator('ops'), world.definition({ categoryId: 999_999 })), 'INVALID_POOL'))
          .details,
      ).to.include({ field: 'categoryId' });
      const pool = await pools.create(asOperator('ops'), world.definition({ categoryId: known }));
      expect(
        (await refusedWith(pools.update(asOperator('ops'), pool.poolId, { categoryId: 999_999 }), 'INVALID_POOL'))
          .details,
      ).to.include({ field: 'categoryId' });
      expect((await pools.get(pool.poolId)).categoryId).to.equal(known);
    });
  });

  describe('campaign updates', () => {
    it('updates details, adds, updates and removes a banner; each event names the operator; a repeat appends nothing', async () => {
      const id = world.campaignId;
      const updated = await campaigns.updateDetails(asOperator('carol'), id, {
        name: 'Flash Sale cuối tuần',
        displayPriority: 3,
        endAt: '2026-04-29T17:00:00.000Z',
      });
      expect(updated).to.include({
        name: 'Flash Sale cuối tuần',
        displayPriority: 3,
        endAt: '2026-04-29T17:00:00.000Z',
        code: (await campaigns.get(id)).code,
      });
      const withBanner = await campaigns.addBanner(asOperator('carol'), id, banner);
      const bannerId = withBanner.banners.at(-1)!.id;
      expect(withBanner.banners.at(-1)).to.deep.equal({ id: bannerId, ...banner });
      expect(
        (await campaigns.updateBanner(asOperator('carol'), id, bannerId, { displayOrder: 5 })).banners.at(-1),
      ).to.include({
        id: bannerId,
        displayOrder: 5,
      });
      const before = (await world.store.readStream(streams.campaign(id))).length;
      await campaigns.updateDetails(asOperator('carol'), id, { displayPriority: 3 });
      expect((await world.store.readStream(streams.campaign(id))).length).to.equal(before);
      expect((await campaigns.removeBanner(asOperator('carol'), id, bannerId)).banners.map((b) => b.id)).not.to.include(
        bannerId,
      );

      // After its creation and the world's activation (DRAFT → APPROVED → ACTIVE).
      const events = (await world.store.readStream(streams.campaign(id))).slice(3);
      expect(events.map((e) => e.type)).to.deep.equal([
        'CampaignDetailsUpdated',
        'CampaignBannerAdded',
        'CampaignBannerUpdated',
        'CampaignBannerRemoved',
      ]);
      expect(events.every((e) => (e.metadata.actor as { operator?: string }).operator === 'carol')).to.equal(true);
      expect(await campaigns.get(id)).to.deep.include({ name: 'Flash Sale cuối tuần', banners: [] });
    });

    it('refuses a window ending before it starts naming the field, an unknown banner and an unknown campaign', async () => {
      expect(
        (
          await refusedWith(
            campaigns.updateDetails(asOperator('carol'), world.campaignId, { endAt: '2020-01-01T00:00:00.000Z' }),
            'INVALID_INPUT',
          )
        ).details,
      ).to.include({ field: 'endAt' });
      await refusedWith(
        campaigns.updateBanner(asOperator('carol'), world.campaignId, 987_654, { altText: 'x' }),
        'BANNER_NOT_FOUND',
      );
      await refusedWith(campaigns.updateDetails(asOperator('carol'), 987_654, { name: 'x' }), 'CAMPAIGN_NOT_FOUND');
    });
  });

  describe('pool updates through the purchase executor', () => {
    it('updates display, terms, mini apps and validity, answers from the events, and the new limits govern the next reserve', async () => {
      const pool = await pools.create(asOperator('ops'), world.definition({ totalQuantity: 10 }));
      const validity = { startAt: '2026-03-01T00:00:00.000Z', endAt: '2026-06-01T00:00:00.000Z' };
      const updated = await pools.update(asOperator('dave'), pool.poolId, {
        display: { title: 'Cà phê sữa đá', brandName: 'Highlands Coffee' },
        terms: { maxPerOrder: 1 },
        miniAppIds: ['cafe'],
        validity,
      });
      expect(updated.display).to.include({
        title: 'Cà phê sữa đá',
        brandName: 'Highlands Coffee',
        shortTitle: 'Coffee',
      });
      expect([
        updated.terms.maxPerOrder,
        updated.miniAppIds,
        updated.validity,
        updated.remainingQuantity,
      ]).to.deep.equal([1, ['cafe'], validity, 10]);
      expect(await pools.get(pool.poolId)).to.deep.equal(updated);
      const events = await world.store.readStream(streams.voucherPool(pool.poolId));
      expect(events.slice(1).map((e) => [e.type, (e.metadata.actor as { operator: string }).operator])).to.deep.equal([
        ['VoucherPoolDisplayUpdated', 'dave'],
        ['VoucherPoolTermsUpdated', 'dave'],
        ['VoucherPoolMiniAppsChanged', 'dave'],
        ['VoucherPoolValidityChanged', 'dave'],
      ]);

      await refusedWith(
        purchases.reserve(caller('u1', 'm1'), randomUUID(), order(pool.poolId, 2)),
        'PURCHASE_LIMIT_EXCEEDED',
      );
      await purchases.reserve(caller('u1', 'm1'), randomUUID(), order(pool.poolId, 1));
      expect((await pools.get(pool.poolId)).remainingQuantity).to.equal(9);
    });

    it('refuses an update of a deleted pool with POOL_NOT_FOUND and a validity ending before it starts naming the field', async () => {
      const pool = await pools.create(asOperator('ops'), world.definition());
      const validity = { startAt: '2026-05-01T00:00:00.000Z', endAt: '2026-04-01T00:00:00.000Z' };
      expect(
        (await refusedWith(pools.update(asOperator('ops'), pool.poolId, { validity }), 'INVALID_POOL')).details,
      ).to.include({
        field: 'validity.endAt',
      });
      await pools.delete(asOperator('ops'), pool.poolId);
      await refusedWith(pools.update(asOperator('ops'), pool.poolId, { miniAppIds: [] }), 'POOL_NOT_FOUND');
    });
  });
});
