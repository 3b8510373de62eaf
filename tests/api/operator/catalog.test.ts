import { expect } from 'chai';
import type { ShopCampaignResponse, ShopVoucherResponse } from '../../../application/shop/catalog-queries.js';
import { streams } from '../../../domain/shop/events.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { CatalogClient, banner, campaignIn, live, poolIn } from '../shop/catalog-support.js';
import {
  call,
  expectEnvelope,
  expectOk,
  OperatorApi,
  poolInput,
  type CampaignData,
  type PoolData,
} from '../support.js';

interface CategoryData {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

interface CampaignDetail extends CampaignData {
  campaignTag: string;
  displayPriority: number;
  description: string;
  presale: { enabled: boolean; startAt: string } | null;
  banners: {
    id: number;
    channelCode: string;
    positionCode: string;
    altText: string;
    displayOrder: number;
    clickUrl: string | null;
  }[];
}

interface PoolDetail extends PoolData {
  categoryId: number;
  miniAppIds: string[];
  display: Record<string, string>;
  validity: { startAt: string; endAt: string } | null;
}

/** The data.field of a 400 OPS-REQ-001. */
const fieldOf = (res: Awaited<ReturnType<OperatorApi['call']>>) =>
  (expectEnvelope(res, 400, 'OPS-REQ-001') as { field: string } | null)?.field;

describe('Operator API over HTTP: voucher categories, campaign and pool updates', () => {
  let app: TestApp;
  let operator: OperatorApi;

  before(async () => {
    app = await startTestApp();
    operator = new OperatorApi(app.baseUrl);
  });
  after(() => app?.stop());

  const operatorsOf = async (stream: string) =>
    (await app.container.store.readStream(stream)).map(
      (e) => (e.metadata.actor as { operator?: string } | undefined)?.operator,
    );

  describe('voucher categories', () => {
    let food: CategoryData;

    it('creates (201), reads, renames and lists categories; each change records the operator', async () => {
      food = expectOk(
        await operator.call<CategoryData>('POST', '/voucher-categories', { json: { name: ' Ẩm thực ' } }),
        201,
      );
      expect(food).to.include({ name: 'Ẩm thực' });
      expect(food.id).to.be.a('number');
      const travel = expectOk(
        await operator.call<CategoryData>('POST', '/voucher-categories', { json: { name: 'Di chuyển' } }),
        201,
      );
      expect(expectOk(await operator.call<CategoryData>('GET', `/voucher-categories/${travel.id}`))).to.deep.equal(
        travel,
      );

      const renamed = expectOk(
        await operator.call<CategoryData>('PATCH', `/voucher-categories/${food.id}`, { json: { name: 'Ăn uống' } }),
      );
      expect(renamed).to.include({ id: food.id, name: 'Ăn uống', createdAt: food.createdAt });
      expect(
        expectOk(await operator.call<CategoryData[]>('GET', '/voucher-categories')).map((c) => c.name),
      ).to.deep.equal(['Ăn uống', 'Di chuyển']);
      expect(await operatorsOf(streams.category(food.id))).to.deep.equal(['alice', 'alice']);
    });

    it('refuses a blank or missing name naming the field, an unknown id with 404, a bad id with 400, no token with 401', async () => {
      expect(fieldOf(await operator.call('POST', '/voucher-categories', { json: { name: '   ' } }))).to.equal('name');
      expect(fieldOf(await operator.call('POST', '/voucher-categories', { json: {} }))).to.equal('name');
      expect(fieldOf(await operator.call('PATCH', `/voucher-categories/${food.id}`, { json: { name: 5 } }))).to.equal(
        'name',
      );
      expectEnvelope(await operator.call('GET', '/voucher-categories/999999'), 404, 'OPS-NOT-FOUND');
      expectEnvelope(
        await operator.call('PATCH', '/voucher-categories/999999', { json: { name: 'X' } }),
        404,
        'OPS-NOT-FOUND',
      );
      expectEnvelope(await operator.call('GET', '/voucher-categories/abc'), 400, 'OPS-REQ-001');
      expectEnvelope(
        await call(app.baseUrl, 'POST', '/operator/v1/voucher-categories', { json: { name: 'X' } }),
        401,
        'OPS-AUTH-001',
      );
    });

    it('given categories exist, refuses a pool created in or moved to an unknown category, naming categoryId', async () => {
      const campaign = await campaignIn(operator, []);
      const res = await operator.call('POST', '/voucher-pools', {
        json: { ...poolInput(campaign.id), categoryId: 999_999 },
      });
      expect(fieldOf(res)).to.equal('categoryId');
      const pool = await poolIn(operator, campaign.id, { categoryId: food.id });
      expect(
        fieldOf(await operator.call('PATCH', `/voucher-pools/${pool.poolId}`, { json: { categoryId: 999_999 } })),
      ).to.equal('categoryId');
    });
  });

  describe('campaign details and banners', () => {
    let campaign: CampaignDetail;

    before(async () => {
      campaign = (await campaignIn(operator, [], { banners: [banner('APP', 'CAROUSEL', 1)] })) as CampaignDetail;
    });

    it('changes only the details given (PATCH), with times in UTC; a repeat appends nothing', async () => {
      const changes = {
        name: 'Siêu sale 12.12',
        campaignTag: 'HOT_DEAL',
        displayPriority: 4,
        endAt: '2027-12-31T07:00:00+07:00',
      };
      const updated = expectOk(
        await operator.call<CampaignDetail>('PATCH', `/campaigns/${campaign.id}`, { json: changes }),
      );
      expect(updated).to.include({
        name: 'Siêu sale 12.12',
        campaignTag: 'HOT_DEAL',
        displayPriority: 4,
        endAt: '2027-12-31T00:00:00.000Z',
      });
      expect(updated).to.include({
        code: campaign.code,
        description: campaign.description,
        startAt: campaign.startAt,
        status: 'DRAFT',
      });
      expect(expectOk(await operator.call<CampaignDetail>('GET', `/campaigns/${campaign.id}`))).to.deep.equal(updated);
      const events = (await app.container.store.readStream(streams.campaign(campaign.id))).length;
      expectOk(await operator.call('PATCH', `/campaigns/${campaign.id}`, { json: changes }));
      expect((await app.container.store.readStream(streams.campaign(campaign.id))).length).to.equal(events);
    });

    it('turns presale on and off', async () => {
      const presale = {
        enabled: true,
        startAt: '2025-12-25T00:00:00Z',
        countdownEnabled: true,
        teaserText: 'Sắp mở bán',
        teaserImageUrl: 'https://cdn.example.vn/teaser.png',
      };
      expect(
        expectOk(await operator.call<CampaignDetail>('PATCH', `/campaigns/${campaign.id}`, { json: { presale } }))
          .presale,
      ).to.deep.include({
        enabled: true,
        startAt: '2025-12-25T00:00:00.000Z',
      });
      expect(
        expectOk(await operator.call<CampaignDetail>('PATCH', `/campaigns/${campaign.id}`, { json: { presale: null } }))
          .presale,
      ).to.equal(null);
    });

    it('refuses invalid or unchangeable details with 400 naming the field', async () => {
      const refusals: [Record<string, unknown>, string][] = [
        [{}, 'details'],
        [{ code: 'OTHER' }, 'code'],
        [{ status: 'ACTIVE' }, 'status'],
        [{ name: '' }, 'name'],
        [{ name: 7 }, 'name'],
        [{ displayPriority: 0 }, 'displayPriority'],
        [{ campaignTag: 'hot deal' }, 'campaignTag'],
        [{ endAt: '2025-01-01T00:00:00Z' }, 'endAt'],
        [{ startAt: 'soon' }, 'startAt'],
        [{ themeUrl: 'ftp://x' }, 'themeUrl'],
        [{ presale: { enabled: true } }, 'presale.startAt'],
      ];
      for (const [json, field] of refusals)
        expect(
          fieldOf(await operator.call('PATCH', `/campaigns/${campaign.id}`, { json })),
          JSON.stringify(json),
        ).to.equal(field);
      expectEnvelope(await operator.call('PATCH', '/campaigns/999999', { json: { name: 'x' } }), 404, 'OPS-NOT-FOUND');
    });

    it('adds (201, new id), changes and removes banners; each change records the operator', async () => {
      const added = expectOk(
        await operator.call<CampaignDetail>('POST', `/campaigns/${campaign.id}/banners`, {
          json: banner('WEB', 'DETAIL_TOP', 2),
        }),
        201,
      );
      const web = added.banners.find((b) => b.channelCode === 'WEB')!;
      expect(web).to.include({ positionCode: 'DETAIL_TOP', displayOrder: 2, clickUrl: null });
      expect(added.banners.map((b) => b.id)).to.include(campaign.banners[0]!.id);

      const changed = expectOk(
        await operator.call<CampaignDetail>('PATCH', `/campaigns/${campaign.id}/banners/${web.id}`, {
          json: { altText: 'Khuyến mãi web', clickUrl: 'https://shop.example.vn/sale' },
        }),
      );
      expect(changed.banners.find((b) => b.id === web.id)).to.include({
        altText: 'Khuyến mãi web',
        clickUrl: 'https://shop.example.vn/sale',
        displayOrder: 2,
      });

      const removed = expectOk(
        await operator.call<CampaignDetail>('DELETE', `/campaigns/${campaign.id}/banners/${campaign.banners[0]!.id}`),
      );
      expect(removed.banners.map((b) => b.id)).to.deep.equal([web.id]);
      const types = (await app.container.store.readStream(streams.campaign(campaign.id))).map((e) => e.type);
      expect(types.slice(-3)).to.deep.equal(['CampaignBannerAdded', 'CampaignBannerUpdated', 'CampaignBannerRemoved']);
      expect(new Set(await operatorsOf(streams.campaign(campaign.id)))).to.deep.equal(new Set(['alice']));
    });

    it('refuses a bad banner naming the field, an unknown banner with 404', async () => {
      const path = `/campaigns/${campaign.id}/banners`;
      expect(
        fieldOf(await operator.call('POST', path, { json: { ...banner('APP', 'CAROUSEL', 1), channelCode: 'TV' } })),
      ).to.equal('channelCode');
      expect(
        fieldOf(
          await operator.call('POST', path, { json: { ...banner('APP', 'CAROUSEL', 1), assetUrl: '/relative.png' } }),
        ),
      ).to.equal('assetUrl');
      const [current] = expectOk(await operator.call<CampaignDetail>('GET', `/campaigns/${campaign.id}`)).banners;
      expect(fieldOf(await operator.call('PATCH', `${path}/${current!.id}`, { json: { id: 5 } }))).to.equal('id');
      expect(fieldOf(await operator.call('PATCH', `${path}/${current!.id}`, { json: { displayOrder: -1 } }))).to.equal(
        'displayOrder',
      );
      expectEnvelope(await operator.call('PATCH', `${path}/999999`, { json: { altText: 'x' } }), 404, 'OPS-NOT-FOUND');
      expectEnvelope(await operator.call('DELETE', `${path}/999999`), 404, 'OPS-NOT-FOUND');
    });

    it('given an ENDED campaign, refuses any change with 409 OPS-CONFLICT', async () => {
      const ended = await campaignIn(operator, ['APPROVED', 'ACTIVE', 'ENDED']);
      expectEnvelope(
        await operator.call('PATCH', `/campaigns/${ended.id}`, { json: { name: 'Mới' } }),
        409,
        'OPS-CONFLICT',
      );
      expectEnvelope(
        await operator.call('POST', `/campaigns/${ended.id}/banners`, { json: banner('APP', 'CAROUSEL', 1) }),
        409,
        'OPS-CONFLICT',
      );
    });
  });

  describe('voucher pool updates', () => {
    let pool: PoolDetail;

    before(async () => {
      const campaign = await campaignIn(operator, live);
      pool = (await poolIn(operator, campaign.id, {
        categoryId: expectOk(await operator.call<CategoryData[]>('GET', '/voucher-categories'))[0]!.id,
      })) as PoolDetail;
    });

    it('changes display and terms field by field, mini apps and validity (PATCH), answering the pool as it now is', async () => {
      const validity = { startAt: '2026-01-01T00:00:00.000Z', endAt: '2026-12-31T00:00:00.000Z' };
      const updated = expectOk(
        await operator.call<PoolDetail>('PATCH', `/voucher-pools/${pool.poolId}`, {
          json: {
            display: { title: 'Voucher cà phê 100.000đ', brandName: 'Highlands Coffee' },
            terms: { maxPerDay: 2 },
            miniAppIds: ['cafe'],
            validity,
          },
        }),
      );
      expect(updated.display).to.deep.equal({
        ...pool.display,
        title: 'Voucher cà phê 100.000đ',
        brandName: 'Highlands Coffee',
      });
      expect(updated.terms).to.deep.equal({ ...pool.terms, maxPerDay: 2 });
      expect([updated.miniAppIds, updated.validity, updated.remainingQuantity, updated.pricing]).to.deep.equal([
        ['cafe'],
        validity,
        100,
        pool.pricing,
      ]);
      expect(expectOk(await operator.call<PoolDetail>('GET', `/voucher-pools/${pool.poolId}`))).to.deep.equal(updated);
      expect((await operatorsOf(streams.voucherPool(pool.poolId))).slice(1)).to.deep.equal([
        'alice',
        'alice',
        'alice',
        'alice',
      ]);
    });

    it('refuses what cannot change here, and bad values, naming the field', async () => {
      const refusals: [unknown, string][] = [
        [{}, 'changes'],
        [{ pricing: { faceValue: 1 } }, 'pricing'],
        [{ totalQuantity: 5 }, 'totalQuantity'],
        [{ display: { subtitle: 'x' } }, 'display.subtitle'],
        [{ display: { title: 5 } }, 'display.title'],
        [{ terms: { maxPerDay: 0 } }, 'terms.maxPerDay'],
        [{ terms: { usageType: 'BOTH' } }, 'terms.usageType'],
        [{ miniAppIds: 'cafe' }, 'miniAppIds'],
        [{ validity: { startAt: '2026-02-01T00:00:00Z', endAt: '2026-01-01T00:00:00Z' } }, 'validity.endAt'],
      ];
      for (const [json, field] of refusals)
        expect(
          fieldOf(await operator.call('PATCH', `/voucher-pools/${pool.poolId}`, { json })),
          JSON.stringify(json),
        ).to.equal(field);
    });

    it('given a deleted pool, answers 404', async () => {
      const campaign = await campaignIn(operator, []);
      const doomed = await poolIn(operator, campaign.id, { categoryId: pool.categoryId });
      expectOk(await operator.call('DELETE', `/voucher-pools/${doomed.poolId}`));
      expectEnvelope(
        await operator.call('PATCH', `/voucher-pools/${doomed.poolId}`, { json: { miniAppIds: [] } }),
        404,
        'OPS-NOT-FOUND',
      );
    });
  });

  describe('the shop catalog follows the changes', () => {
    it('shows a renamed campaign, a re-titled pool in another category and a new banner in the shop answers', async () => {
      const [first, second] = expectOk(await operator.call<CategoryData[]>('GET', '/voucher-categories'));
      const campaign = await campaignIn(operator, live, { name: 'Trước', campaignTag: 'HOT_DEAL' });
      const pool = await poolIn(operator, campaign.id, { categoryId: first!.id, title: 'Tiêu đề cũ' });
      expectOk(
        await operator.call('PATCH', `/campaigns/${campaign.id}`, {
          json: { name: 'Ưu đãi mới', campaignTag: 'FLASH_SALE' },
        }),
      );
      expectOk(
        await operator.call('POST', `/campaigns/${campaign.id}/banners`, { json: banner('WEB', 'CAROUSEL', 1) }),
        201,
      );
      expectOk(
        await operator.call('PATCH', `/voucher-pools/${pool.poolId}`, {
          json: { display: { title: 'Tiêu đề mới' }, categoryId: second!.id },
        }),
      );

      const shop = new CatalogClient(app, await operator.createMerchant());
      const voucher = await shop.ok<ShopVoucherResponse>(`/vouchers/${pool.poolId}`);
      expect([voucher.display.title, voucher.categoryId, voucher.campaign.name, voucher.campaign.tag]).to.deep.equal([
        'Tiêu đề mới',
        second!.id,
        'Ưu đãi mới',
        'FLASH_SALE',
      ]);
      expect((await shop.vouchers(`?categoryIds=${second!.id}`)).content.map((v) => v.id)).to.include(pool.poolId);
      const shown = await shop.ok<ShopCampaignResponse>(`/campaigns/${campaign.id}?channel=WEB`);
      expect(shown.banners.map((b) => [b.channelCode, b.positionCode])).to.deep.equal([['WEB', 'CAROUSEL']]);
    });
  });
});
