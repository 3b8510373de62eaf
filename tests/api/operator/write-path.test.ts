import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { streams } from '../../../domain/shop/events.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  campaignInput,
  expectOk,
  expectRefusal,
  OperatorApi,
  poolInput,
  type CampaignData,
  type PoolData,
} from '../support.js';

describe('Operator API over HTTP: one command per request (ids, idempotency keys, metadata)', () => {
  let app: TestApp;
  let operator: OperatorApi;

  let categoryId: number;
  /** Once a category exists, a pool must name one. */
  const createPool = async (campaignId: number) =>
    expectOk(
      await operator.call<PoolData>('POST', '/voucher-pools', { json: { ...poolInput(campaignId), categoryId } }),
      201,
    );

  before(async () => {
    app = await startTestApp({ background: false });
    operator = new OperatorApi(app.baseUrl);
    categoryId = expectOk(
      await operator.call<{ id: number }>('POST', '/voucher-categories', { json: { name: 'Ẩm thực' } }),
      201,
    ).id;
  });
  after(() => app?.stop());

  const createCampaign = (json: unknown, headers: Record<string, string> = {}) =>
    operator.call<CampaignData>('POST', '/campaigns', { json, headers });

  it('of 8 parallel POST /campaigns with one code, creates exactly one (201) and refuses the others with 409', async () => {
    const input = campaignInput();
    const answers = await Promise.all(Array.from({ length: 8 }, () => createCampaign(input)));
    expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const a of answers) if (a.status === 409) expectRefusal(a, 409, 'OPS-CONFLICT', /already used/);
    expect(await app.container.store.readStream(`campaignCode-${String(input.code).toUpperCase()}`)).to.have.length(1);
  });

  describe('X-Idempotency-Key', () => {
    it('answers a POST /campaigns sent again under its key with the first campaign (same id), creating nothing', async () => {
      const key = randomUUID();
      const input = campaignInput();
      const first = expectOk(await createCampaign(input, { 'X-Idempotency-Key': key }), 201);
      const again = expectOk(await createCampaign(input, { 'X-Idempotency-Key': key }), 201);
      expect(again).to.deep.equal(first);
      expect(await app.container.store.readStream(streams.campaign(first.id + 1))).to.deep.equal([]);
    });

    it('answers the resend from the first events, not from the campaign as it is now', async () => {
      const key = randomUUID();
      const input = campaignInput();
      const first = expectOk(await createCampaign(input, { 'X-Idempotency-Key': key }), 201);
      expectOk(await operator.call('POST', `/campaigns/${first.id}/status`, { json: { status: 'APPROVED' } }));
      expect(expectOk(await createCampaign(input, { 'X-Idempotency-Key': key }), 201)).to.deep.include({
        id: first.id,
        status: 'DRAFT',
      });
    });

    it('of parallel POST /campaigns under one key, creates one campaign and answers every one with it', async () => {
      const key = randomUUID();
      const input = campaignInput();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => createCampaign(input, { 'X-Idempotency-Key': key })),
      );
      const ids = answers.map((a) => expectOk(a, 201).id);
      expect(new Set(ids).size).to.equal(1);
    });

    it('refuses another body under a used key with 409 OPS-CONFLICT, the same body with the keys in another order is a resend', async () => {
      const key = randomUUID();
      const input = campaignInput();
      const first = expectOk(await createCampaign(input, { 'X-Idempotency-Key': key }), 201);
      const reordered = Object.fromEntries(Object.entries(input).reverse());
      expect(expectOk(await createCampaign(reordered, { 'X-Idempotency-Key': key }), 201).id).to.equal(first.id);
      expectRefusal(
        await createCampaign({ ...input, name: 'Another' }, { 'X-Idempotency-Key': key }),
        409,
        'OPS-CONFLICT',
        /idempotency key/,
      );
      expectRefusal(
        await operator.call('POST', '/voucher-categories', {
          json: { name: 'X' },
          headers: { 'X-Idempotency-Key': key },
        }),
        409,
        'OPS-CONFLICT',
      );
    });

    it("records the key's use in the operator's scope, with where the command's events went", async () => {
      const key = randomUUID();
      const a = expectOk(await createCampaign(campaignInput(), { 'X-Idempotency-Key': key }), 201);
      // From the table: readAll stops before a background job's append still in flight.
      const record = (await app.container
        .knex('events')
        .where({ type: 'IdempotencyKeyUsed' })
        .whereRaw("data->>'key' = ?", [key])
        .first()) as { data: unknown } | undefined;
      expect(record!.data).to.deep.include({ scope: 'operator:alice', streamName: streams.campaign(a.id), count: 1 });
    });

    it('creates a category, a banner and a pool once under their keys', async () => {
      const category = randomUUID();
      const c1 = await operator.call<{ id: number }>('POST', '/voucher-categories', {
        json: { name: 'Du lịch' },
        headers: { 'X-Idempotency-Key': category },
      });
      const c2 = await operator.call<{ id: number }>('POST', '/voucher-categories', {
        json: { name: 'Du lịch' },
        headers: { 'X-Idempotency-Key': category },
      });
      expect(expectOk(c2, 201)).to.deep.equal(expectOk(c1, 201));

      const campaign = expectOk(await createCampaign(campaignInput()), 201);
      const bannerKey = randomUUID();
      const banner = campaignInput({
        banners: [
          {
            channelCode: 'APP',
            positionCode: 'CAROUSEL',
            assetUrl: 'https://cdn.example.vn/b.png',
            assetType: 'IMAGE',
            altText: 'x',
            displayOrder: 1,
          },
        ],
      }).banners as unknown[];
      for (let i = 0; i < 2; i++)
        expectOk(
          await operator.call('POST', `/campaigns/${campaign.id}/banners`, {
            json: banner[0],
            headers: { 'X-Idempotency-Key': bannerKey },
          }),
          201,
        );
      expect(expectOk(await operator.call<CampaignData>('GET', `/campaigns/${campaign.id}`)).banners).to.have.length(1);

      const poolKey = randomUUID();
      const pools = [];
      for (let i = 0; i < 2; i++)
        pools.push(
          expectOk(
            await operator.call<PoolData>('POST', '/voucher-pools', {
              json: { ...poolInput(campaign.id), categoryId },
              headers: { 'X-Idempotency-Key': poolKey },
            }),
            201,
          ),
        );
      expect(pools[1]).to.deep.equal(pools[0]);
    });

    it('answers a merchant registration sent again under its key with 409: the key it issued is shown only once', async () => {
      const key = randomUUID();
      const json = { merchantId: `M${randomUUID().slice(0, 8)}`, name: 'Once' };
      expectOk(await operator.call('POST', '/merchants', { json, headers: { 'X-Idempotency-Key': key } }), 201);
      expectRefusal(
        await operator.call('POST', '/merchants', { json, headers: { 'X-Idempotency-Key': key } }),
        409,
        'OPS-CONFLICT',
        /shown only once/,
      );
      expect(
        expectOk(await operator.call<{ apiKeys: unknown[] }>('GET', `/merchants/${json.merchantId}`)).apiKeys,
      ).to.have.length(1);
    });

    it('refuses a key on the pool changes the flash-sale executor runs, and a malformed key, with 400 OPS-REQ-001', async () => {
      const campaign = expectOk(await createCampaign(campaignInput()), 201);
      const pool = await createPool(campaign.id);
      expectRefusal(
        await operator.call('POST', `/voucher-pools/${pool.poolId}/stock`, {
          json: { quantity: 1 },
          headers: { 'X-Idempotency-Key': randomUUID() },
        }),
        400,
        'OPS-REQ-001',
        /X-Idempotency-Key/,
      );
      expectRefusal(
        await createCampaign(campaignInput(), { 'X-Idempotency-Key': 'has space' }),
        400,
        'OPS-REQ-001',
        /X-Idempotency-Key/,
      );
      expect((await operator.pool(pool.poolId)).totalQuantity).to.equal(100);
    });
  });

  describe('X-Request-Id', () => {
    it('appends nothing twice for a request sent again with its X-Request-Id, and a different request with it is its own', async () => {
      const campaign = expectOk(await createCampaign(campaignInput()), 201);
      const requestId = randomUUID();
      const approve = () =>
        operator.call<CampaignData>('POST', `/campaigns/${campaign.id}/status`, {
          json: { status: 'APPROVED' },
          headers: { 'X-Request-Id': requestId },
        });
      expect(expectOk(await approve()).status).to.equal('APPROVED');
      // Without the id, the lifecycle would refuse APPROVED → APPROVED; the resend gets the first answer.
      expect(expectOk(await approve()).status).to.equal('APPROVED');
      const activate = await operator.call<CampaignData>('POST', `/campaigns/${campaign.id}/status`, {
        json: { status: 'ACTIVE' },
        headers: { 'X-Request-Id': requestId },
      });
      expect(expectOk(activate).status).to.equal('ACTIVE');
      expect((await app.container.store.readStream(streams.campaign(campaign.id))).map((e) => e.type)).to.deep.equal([
        'CampaignCreated',
        'CampaignStatusChanged',
        'CampaignStatusChanged',
      ]);
    });

    it('adds stock once for a POST /stock sent again with its X-Request-Id', async () => {
      const campaign = expectOk(await createCampaign(campaignInput()), 201);
      const pool = await createPool(campaign.id);
      const requestId = randomUUID();
      for (let i = 0; i < 2; i++)
        expectOk(
          await operator.call('POST', `/voucher-pools/${pool.poolId}/stock`, {
            json: { quantity: 5 },
            headers: { 'X-Request-Id': requestId },
          }),
        );
      expect((await operator.pool(pool.poolId)).totalQuantity).to.equal(105);
    });

    it("records the request id, the caller's correlation id and the operator in the metadata of every event", async () => {
      const requestId = randomUUID();
      const created = expectOk(
        await createCampaign(campaignInput(), { 'X-Request-Id': requestId, 'X-Correlation-Id': 'checkout-42' }),
        201,
      );
      const [event] = await app.container.store.readStream(streams.campaign(created.id));
      expect(event!.metadata).to.deep.include({
        requestId,
        correlationId: 'checkout-42',
        actor: { operator: 'alice' },
      });
      expect(event!.metadata.commandId).to.be.a('string');
      expect(event!.metadata).not.to.have.property('causationId');
      const claim = (await app.container.store.readStream(`campaignCode-${created.code.toUpperCase()}`))[0]!;
      expect(claim.metadata).to.deep.equal(event!.metadata);

      const uncorrelated = expectOk(await createCampaign(campaignInput(), { 'X-Request-Id': 'req-2' }), 201);
      const [second] = await app.container.store.readStream(streams.campaign(uncorrelated.id));
      expect(second!.metadata).to.deep.include({ requestId: 'req-2', correlationId: 'req-2' });
    });
  });
});
