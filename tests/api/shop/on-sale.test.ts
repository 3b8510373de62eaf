/**
 * Reserve sells only pools on sale (issue 12, item 1; docs/shop-purchase.md, "On sale"), exactly as the listing and
 * the detail show them: their campaign ACTIVE, of type SELL, inside its window. A pause stops sales before its answer,
 * also under load; a reservation made before it is still committed; a pool from before the rule learns its
 * campaign's terms from the process manager.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { shopEventDecoder, streams } from '../../../domain/shop/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import {
  campaignInput,
  expectOk,
  expectRefusal,
  reserveBody,
  shopScene,
  Shopper,
  type CampaignData,
  type OperatorApi,
  type ShopMerchant,
} from '../support.js';

describe('Shop API over HTTP: only pools on sale are sold', function () {
  this.timeout(60_000);
  let app: TestApp;
  let operator: OperatorApi;
  let merchant: ShopMerchant;

  before(async () => {
    app = await startTestApp();
    ({ operator, merchant } = await shopScene(app.baseUrl));
  });
  after(() => app?.stop());

  const setStatus = async (campaignId: number, status: string) =>
    expectOk(await operator.call<CampaignData>('POST', `/campaigns/${campaignId}/status`, { json: { status } }));
  const draft = async (overrides: Record<string, unknown> = {}) =>
    expectOk(await operator.call<CampaignData>('POST', '/campaigns', { json: campaignInput(overrides) }), 201);

  it('refuses with 404 SHOP-VOU-001 pools of campaigns DRAFT, APPROVED, PAUSED, ENDED, not started, in presale, not SELL', async () => {
    const cases: Array<[string, () => Promise<number>]> = [
      ['DRAFT', async () => (await draft()).id],
      ['APPROVED', async () => (await setStatus((await draft()).id, 'APPROVED')).id],
      ['PAUSED', async () => (await setStatus((await operator.createActiveCampaign()).id, 'PAUSED')).id],
      ['ENDED', async () => (await setStatus((await operator.createActiveCampaign()).id, 'ENDED')).id],
      [
        'not started',
        async () =>
          (await operator.createActiveCampaign({ startAt: '2030-01-01T00:00:00Z', endAt: '2030-02-01T00:00:00Z' })).id,
      ],
      [
        'in presale',
        async () =>
          (
            await operator.createActiveCampaign({
              startAt: '2030-01-01T00:00:00Z',
              endAt: '2030-02-01T00:00:00Z',
              presale: {
                enabled: true,
                startAt: '2026-01-01T00:00:00Z',
                countdownEnabled: true,
                teaserText: 'Soon',
                teaserImageUrl: 'https://cdn.example.vn/t.png',
              },
            })
          ).id,
      ],
      ['not SELL', async () => (await operator.createActiveCampaign({ type: 'GIFT' })).id],
      [
        'ended window',
        async () =>
          (await operator.createActiveCampaign({ startAt: '2020-01-01T00:00:00Z', endAt: '2021-01-01T00:00:00Z' })).id,
      ],
    ];
    for (const [why, campaign] of cases) {
      const pool = await operator.createPool(await campaign());
      const res = await new Shopper(app.baseUrl, merchant).reserve(reserveBody([{ pool }]));
      expectRefusal(res, 404, 'SHOP-VOU-001');
      expect(res.text, why).to.include('not on sale');
      expect((await operator.pool(pool.poolId)).remainingQuantity, why).to.equal(pool.totalQuantity);
    }
  });

  it('a pause stops sales before its answer, under parallel reserves; reservations made before it are committed; resuming sells again', async () => {
    const campaign = await operator.createActiveCampaign();
    const pool = await operator.createPool(campaign.id, { totalQuantity: 10_000 });
    const earlyBuyer = new Shopper(app.baseUrl, merchant);
    const before = await earlyBuyer.reserved(reserveBody([{ pool }]));

    // Buyers keep reserving while the operator pauses the campaign.
    let pausedAt = 0;
    const late: number[] = [];
    let running = true;
    const load = Array.from({ length: 8 }, async () => {
      while (running) {
        const startedAt = Date.now();
        const res = await new Shopper(app.baseUrl, merchant).reserve(reserveBody([{ pool }]));
        if (pausedAt > 0 && startedAt > pausedAt) late.push(res.status);
        if (res.status !== 200) expectRefusal(res, 404, 'SHOP-VOU-001');
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await setStatus(campaign.id, 'PAUSED');
    pausedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 500));
    running = false;
    await Promise.all(load);
    const statuses = late;
    expect(statuses.length, 'reserves sent after the pause answered').to.be.greaterThan(5);
    expect(
      statuses.filter((s) => s === 200),
      'sold after the pause',
    ).to.deep.equal([]);

    expectOk(await earlyBuyer.commit(before.reservationKey));
    await setStatus(campaign.id, 'ACTIVE');
    await new Shopper(app.baseUrl, merchant).reserved(reserveBody([{ pool }]));
  });

  it('a pool created before the rule (no terms) is listed in its campaign and given its terms by the process manager', async () => {
    const campaign = await operator.createActiveCampaign();
    const pool = await operator.createPool(campaign.id);
    // The pool as an older version created it: no terms, and not in the campaign's index.
    const legacyId = pool.poolId + 1_000_000;
    const [created] = await app.container.store.readStream(streams.voucherPool(pool.poolId));
    const { sale: _sale, ...legacyData } = shopEventDecoder.decode(created!).data as Record<string, unknown>;
    await app.container.store.append(
      streams.voucherPool(legacyId),
      [
        {
          id: randomUUID(),
          type: 'VoucherPoolCreated',
          data: { ...legacyData, poolId: legacyId },
          metadata: { occurredAt: new Date().toISOString() },
        },
      ],
      'no_stream',
    );
    await eventually(async () => {
      const index = await app.container.store.readStream(streams.campaignPools(campaign.id));
      expect(index.map((e) => (e.data as { poolId: number }).poolId)).to.include(legacyId);
    }, 15_000);
    await setStatus(campaign.id, 'PAUSED');
    const res = await new Shopper(app.baseUrl, merchant).reserve(
      reserveBody([{ pool: { ...pool, poolId: legacyId } }]),
    );
    expectRefusal(res, 404, 'SHOP-VOU-001');
  });
});
