import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  campaignInput,
  expectEnvelope,
  expectOk,
  expectRefusal,
  OperatorApi,
  poolInput,
  type CampaignData,
  type PoolData,
} from '../support.js';

describe('Operator API over HTTP: campaigns and voucher pools', () => {
  let app: TestApp;
  let operator: OperatorApi;

  before(async () => {
    app = await startTestApp({ background: false });
    operator = new OperatorApi(app.baseUrl);
  });
  after(() => app?.stop());

  const changeStatus = (id: number | string, status: unknown) =>
    operator.call<CampaignData>('POST', `/campaigns/${id}/status`, { json: { status } });

  describe('campaigns', () => {
    it('creates a campaign in DRAFT, with banner ids and times in UTC, readable by id', async () => {
      const input = campaignInput({
        startAt: '2026-06-01T00:00:00+07:00',
        banners: [
          {
            channelCode: 'APP',
            positionCode: 'CAROUSEL',
            assetUrl: 'https://cdn.example.vn/b.png',
            assetType: 'IMAGE',
            altText: 'Sale',
            clickUrl: null,
            displayOrder: 1,
          },
        ],
      });
      const created = expectOk(await operator.call<CampaignData>('POST', '/campaigns', { json: input }), 201);
      expect(created).to.include({
        code: input.code,
        name: 'Flash sale',
        status: 'DRAFT',
        startAt: '2026-05-31T17:00:00.000Z',
      });
      expect(created.id).to.be.a('number');
      expect(created.banners).to.have.length(1);
      expect(created.banners[0]!.id).to.be.a('number');

      expect(expectOk(await operator.call<CampaignData>('GET', `/campaigns/${created.id}`))).to.deep.equal(created);
    });

    it('moves DRAFT → APPROVED → ACTIVE → PAUSED → ENDED; a transition the lifecycle lacks is 409 OPS-CONFLICT', async () => {
      const { id } = expectOk(await operator.call<CampaignData>('POST', '/campaigns', { json: campaignInput() }), 201);
      expectRefusal(await changeStatus(id, 'ACTIVE'), 409, 'OPS-CONFLICT', /DRAFT to ACTIVE/);
      for (const status of ['APPROVED', 'ACTIVE', 'PAUSED', 'ENDED'])
        expect(expectOk(await changeStatus(id, status)).status).to.equal(status);
      expectRefusal(await changeStatus(id, 'ACTIVE'), 409, 'OPS-CONFLICT', /ENDED to ACTIVE/);
      expect(expectOk(await operator.call<CampaignData>('GET', `/campaigns/${id}`)).status).to.equal('ENDED');
    });

    it('refuses an unknown status with 400 OPS-REQ-001 naming the field', async () => {
      const { id } = expectOk(await operator.call<CampaignData>('POST', '/campaigns', { json: campaignInput() }), 201);
      expect(expectEnvelope(await changeStatus(id, 'LIVE'), 400, 'OPS-REQ-001')).to.deep.equal({ field: 'status' });
      expect(expectEnvelope(await changeStatus(id, undefined), 400, 'OPS-REQ-001')).to.deep.equal({ field: 'status' });
    });

    it('refuses a used campaign code (any case) with 409 OPS-CONFLICT', async () => {
      const input = campaignInput();
      expectOk(await operator.call('POST', '/campaigns', { json: input }), 201);
      const again = await operator.call('POST', '/campaigns', {
        json: { ...input, code: String(input.code).toLowerCase() },
      });
      expectRefusal(again, 409, 'OPS-CONFLICT', /already used/);
    });

    it('names the first invalid field in data.field with 400 OPS-REQ-001', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ code: 'has space' }, 'code'],
        [{ name: '' }, 'name'],
        [{ campaignTag: 'flash sale' }, 'campaignTag'],
        [{ displayPriority: 0 }, 'displayPriority'],
        [{ displayPriority: '1' }, 'displayPriority'],
        [{ themeUrl: 'not a url' }, 'themeUrl'],
        [{ startAt: '2026-02-30T00:00:00Z' }, 'startAt'],
        [{ startAt: '2026-01-01T00:00:00' }, 'startAt'],
        [{ endAt: '2025-01-01T00:00:00Z' }, 'endAt'],
        [{ banners: [{ channelCode: 'TV' }] }, 'banners[0].channelCode'],
      ];
      for (const [overrides, field] of cases) {
        const res = await operator.call('POST', '/campaigns', { json: campaignInput(overrides) });
        expect(expectEnvelope(res, 400, 'OPS-REQ-001'), JSON.stringify(overrides)).to.deep.equal({ field });
        expect(res.body!.message).to.include(field);
      }
    });

    it('answers malformed JSON with 400, an unknown id with 404 OPS-NOT-FOUND and a non-numeric id with 400', async () => {
      expectRefusal(
        await operator.call('POST', '/campaigns', {
          rawBody: '{"code":',
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
        'OPS-REQ-001',
        /JSON/,
      );
      expectRefusal(
        await operator.call('POST', '/campaigns', { json: [campaignInput()] }),
        400,
        'OPS-REQ-001',
        /object/,
      );
      expectRefusal(await operator.call('GET', '/campaigns/987654321'), 404, 'OPS-NOT-FOUND', /987654321/);
      expectRefusal(await changeStatus(987654321, 'APPROVED'), 404, 'OPS-NOT-FOUND');
      for (const id of ['abc', '0', '-1', '1e3', '99999999999999999999']) {
        expectRefusal(await operator.call('GET', `/campaigns/${id}`), 400, 'OPS-REQ-001', /campaignId/);
      }
    });
  });

  describe('voucher pools', () => {
    let campaign: CampaignData;
    before(async () => {
      campaign = await operator.createActiveCampaign();
    });

    it('creates a pool with its full stock, readable by id', async () => {
      const res = await operator.call<PoolData>('POST', '/voucher-pools', {
        json: poolInput(campaign.id, { totalQuantity: 40, terms: { maxPerDay: 5 } }),
      });
      const pool = expectOk(res, 201);
      expect(pool).to.include({
        campaignId: campaign.id,
        status: 'ACTIVE',
        totalQuantity: 40,
        remainingQuantity: 40,
        reservedQuantity: 0,
        soldQuantity: 0,
      });
      expect(pool.poolId).to.be.a('number');
      expect(pool.pricing).to.deep.equal({
        faceValue: 100_000,
        sellingPrice: 90_000,
        discountedPrice: null,
        currency: 'VND',
      });
      expect(pool.terms).to.include({ validityDays: 30, maxPerDay: 5, usageLimit: null });
      expect(await operator.pool(pool.poolId)).to.deep.equal(pool);
    });

    it('restocks, reprices and soft-deletes a pool', async () => {
      const pool = await operator.createPool(campaign.id, { totalQuantity: 10 });
      const restocked = expectOk(
        await operator.call<PoolData>('POST', `/voucher-pools/${pool.poolId}/stock`, { json: { quantity: 5 } }),
      );
      expect(restocked).to.include({ totalQuantity: 15, remainingQuantity: 15 });
      // A discounted price other than the selling price would advertise a price the buyer cannot pay.
      const lower = await operator.call('POST', `/voucher-pools/${pool.poolId}/pricing`, {
        json: { faceValue: 100_000, sellingPrice: 80_000, discountedPrice: 75_000, currency: 'VND' },
      });
      expect(expectEnvelope(lower, 400, 'OPS-REQ-001')).to.deep.equal({ field: 'pricing.discountedPrice' });
      expect(lower.body!.message).to.match(/must be null or equal sellingPrice/);
      const pricing = { faceValue: 100_000, sellingPrice: 80_000, discountedPrice: 80_000, currency: 'VND' };
      expect(
        expectOk(await operator.call<PoolData>('POST', `/voucher-pools/${pool.poolId}/pricing`, { json: pricing }))
          .pricing,
      ).to.deep.equal(pricing);
      expect(expectOk(await operator.call<PoolData>('DELETE', `/voucher-pools/${pool.poolId}`)).status).to.equal(
        'DELETED',
      );
      expect((await operator.pool(pool.poolId)).status).to.equal('DELETED');
    });

    it('names the invalid field in data.field with 400 OPS-REQ-001, including a campaign that does not exist', async () => {
      const cases: [unknown, string][] = [
        [poolInput(987654321), 'campaignId'],
        [poolInput(campaign.id, { pricing: { sellingPrice: 120_000 } }), 'pricing.sellingPrice'],
        [poolInput(campaign.id, { pricing: { faceValue: 10.5 } }), 'pricing.faceValue'],
        [poolInput(campaign.id, { pricing: { currency: 'USD' as 'VND' } }), 'pricing.currency'],
        [poolInput(campaign.id, { totalQuantity: -1 }), 'totalQuantity'],
        [poolInput(campaign.id, { terms: { validityDays: 0 } }), 'terms.validityDays'],
        [poolInput(campaign.id, { terms: { maxPerDay: 0 } }), 'terms.maxPerDay'],
        [{ ...poolInput(campaign.id), display: { title: 'only a title' } }, 'display.shortTitle'],
      ];
      for (const [json, field] of cases) {
        expect(
          expectEnvelope(await operator.call('POST', '/voucher-pools', { json }), 400, 'OPS-REQ-001'),
          field,
        ).to.deep.equal({ field });
      }
    });

    // Skipped: domain/shop/pool-definition.ts assertValidPricing/assertValidTerms dereference a missing or null
    // `pricing`/`terms` (TypeError), so the operator API answers 500 OPS-SYS-500. Reported to the purchase domain's owner.
    it('refuses a pool without pricing or terms (or with null ones) with 400 OPS-REQ-001 naming the field', async () => {
      const { pricing: _pricing, ...withoutPricing } = poolInput(campaign.id);
      const { terms: _terms, ...withoutTerms } = poolInput(campaign.id);
      const cases: [unknown, string][] = [
        [withoutPricing, 'pricing.faceValue'],
        [{ ...poolInput(campaign.id), pricing: null }, 'pricing.faceValue'],
        [withoutTerms, 'terms.usageType'],
        [{ ...poolInput(campaign.id), terms: null }, 'terms.usageType'],
      ];
      for (const [json, field] of cases) {
        expect(
          expectEnvelope(await operator.call('POST', '/voucher-pools', { json }), 400, 'OPS-REQ-001'),
          field,
        ).to.deep.equal({ field });
      }
    });

    it('answers an unknown pool with 404 OPS-NOT-FOUND and a non-numeric id with 400 OPS-REQ-001', async () => {
      expectRefusal(await operator.call('GET', '/voucher-pools/987654321'), 404, 'OPS-NOT-FOUND', /987654321/);
      expectRefusal(
        await operator.call('POST', '/voucher-pools/987654321/stock', { json: { quantity: 1 } }),
        404,
        'OPS-NOT-FOUND',
      );
      expectRefusal(await operator.call('DELETE', '/voucher-pools/987654321'), 404, 'OPS-NOT-FOUND');
      expectRefusal(await operator.call('GET', '/voucher-pools/12x'), 400, 'OPS-REQ-001', /poolId/);
    });

    it('answers an unknown operator path with 404 OPS-NOT-FOUND', async () => {
      expectRefusal(await operator.call('GET', '/voucher-pools'), 404, 'OPS-NOT-FOUND');
    });
  });
});
