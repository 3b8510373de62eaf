import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { CampaignSaleSync } from '../../../application/shop/campaign-sale-sync.js';
import type { PoolCommands } from '../../../application/shop/voucher-pool-admin.js';
import { CampaignAdmin, type CampaignInput } from '../../../application/shop/campaign-admin.js';
import { DomainError } from '../../../domain/shared/errors.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { PostgresNumericIds } from '../../../infrastructure/shared/numeric-ids.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { asOperator } from '../../support/commands.js';

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  return expect.fail('expected a DomainError');
}

const input = (code: string): CampaignInput => ({
  code,
  name: 'Flash Friday',
  description: 'Two hours only',
  campaignTag: 'FLASH_SALE',
  type: 'SELL',
  displayPriority: 2,
  themeUrl: 'https://cdn.example.com/flash.png',
  startAt: '2026-03-06T12:00:00.000Z',
  endAt: '2026-03-06T14:00:00.000Z',
  presale: null,
  banners: [
    {
      channelCode: 'APP',
      positionCode: 'CAROUSEL',
      assetUrl: 'https://cdn.example.com/a.png',
      assetType: 'IMAGE',
      altText: 'Flash',
      clickUrl: null,
      displayOrder: 1,
    },
    {
      channelCode: 'WEB',
      positionCode: 'DETAIL_TOP',
      assetUrl: 'https://cdn.example.com/b.png',
      assetType: 'IMAGE',
      altText: 'Flash',
      clickUrl: null,
      displayOrder: 1,
    },
  ],
});

describe('CampaignAdmin (PostgreSQL event store)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let admin: CampaignAdmin;
  const clock = fixedClock('2026-03-01T10:00:00.000Z');

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex);
    // These campaigns have no pools: a change has nothing to copy to.
    const pools: PoolCommands = {
      execute: () => Promise.reject(new Error('no pools in these tests')),
      current: () => Promise.resolve({ status: 'NONE' }),
    };
    const sales = new CampaignSaleSync({ store, pools, clock });
    admin = new CampaignAdmin({ store, ids: new PostgresNumericIds(db.knex), clock, sales });
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  it('creates a DRAFT campaign with numeric campaign and banner ids, answered from its events', async () => {
    const created = await admin.create(asOperator('alice'), input('FLASH-1'));
    expect(created.id).to.be.a('number');
    expect(created).to.deep.include({
      code: 'FLASH-1',
      status: 'DRAFT',
      campaignTag: 'FLASH_SALE',
      type: 'SELL',
      startAt: '2026-03-06T12:00:00.000Z',
    });
    expect(created.banners.map((b) => b.id)).to.satisfy(
      (ids: number[]) => ids.every(Number.isSafeInteger) && new Set(ids).size === 2,
    );
    expect(await admin.get(created.id)).to.deep.equal(created);

    const [event] = await store.readStream(`campaign-${created.id}`);
    expect(event).to.nested.include({ type: 'CampaignCreated', 'metadata.actor.operator': 'alice' });
    expect(await store.readStream('campaignCode-FLASH-1')).to.have.length(1);
  });

  it('runs the lifecycle DRAFT → APPROVED → ACTIVE → PAUSED → ACTIVE → ENDED, recording each operator', async () => {
    const { id } = await admin.create(asOperator('alice'), input('FLASH-2'));
    const steps = [
      ['APPROVED', 'bob'],
      ['ACTIVE', 'carol'],
      ['PAUSED', 'carol'],
      ['ACTIVE', 'carol'],
      ['ENDED', 'dave'],
    ] as const;
    for (const [status, operator] of steps) {
      clock.advance(1000);
      expect((await admin.changeStatus(asOperator(operator), id, status)).status).to.equal(status);
      expect((await admin.get(id)).status).to.equal(status);
    }
    const events = await store.readStream(`campaign-${id}`);
    expect(events.map((e) => [e.type, (e.data as { to?: string }).to, e.metadata.actor?.operator])).to.deep.equal([
      ['CampaignCreated', undefined, 'alice'],
      ['CampaignStatusChanged', 'APPROVED', 'bob'],
      ['CampaignStatusChanged', 'ACTIVE', 'carol'],
      ['CampaignStatusChanged', 'PAUSED', 'carol'],
      ['CampaignStatusChanged', 'ACTIVE', 'carol'],
      ['CampaignStatusChanged', 'ENDED', 'dave'],
    ]);
  });

  it('refuses a transition the lifecycle does not allow with INVALID_STATUS_TRANSITION', async () => {
    const { id } = await admin.create(asOperator('alice'), input('FLASH-3'));
    expect((await refusal(admin.changeStatus(asOperator('bob'), id, 'ACTIVE'))).code).to.equal(
      'INVALID_STATUS_TRANSITION',
    );
    expect((await admin.get(id)).status).to.equal('DRAFT');
  });

  it('of two concurrent approvals, one wins and the other is decided again and refused', async () => {
    const { id } = await admin.create(asOperator('alice'), input('FLASH-4'));
    const outcomes = await Promise.allSettled([
      admin.changeStatus(asOperator('bob'), id, 'APPROVED'),
      admin.changeStatus(asOperator('carol'), id, 'APPROVED'),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).to.be.instanceOf(DomainError).with.property('code', 'INVALID_STATUS_TRANSITION');
    expect(await store.readStream(`campaign-${id}`)).to.have.length(2);
  });

  it('refuses a code already used, in any letter case, with CAMPAIGN_CODE_EXISTS', async () => {
    expect((await refusal(admin.create(asOperator('alice'), input('flash-1')))).code).to.equal('CAMPAIGN_CODE_EXISTS');
  });

  it('lets exactly one of concurrent creations with one code succeed', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => admin.create(asOperator('alice'), input('RACE'))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    for (const o of outcomes)
      if (o.status === 'rejected')
        expect(o.reason).to.be.instanceOf(DomainError).with.property('code', 'CAMPAIGN_CODE_EXISTS');
  });

  it('takes over a code whose claim names a campaign that was never written (a partial write)', async () => {
    await store.append(
      'campaignCode-ORPHAN',
      [
        {
          id: randomUUID(),
          type: 'CampaignCodeClaimed',
          data: { code: 'ORPHAN', campaignId: 999999, claimedAt: clock.now().toISOString() },
          metadata: { occurredAt: clock.now().toISOString() },
        },
      ],
      'no_stream',
    );
    const created = await admin.create(asOperator('alice'), input('ORPHAN'));
    const claims = await store.readStream('campaignCode-ORPHAN');
    expect(claims.map((c) => (c.data as { campaignId: number }).campaignId)).to.deep.equal([999999, created.id]);
    expect((await refusal(admin.create(asOperator('alice'), input('ORPHAN')))).code).to.equal('CAMPAIGN_CODE_EXISTS');
  });

  it('refuses a window that ends before it starts with INVALID_INPUT on endAt and writes nothing', async () => {
    const before = (await store.readAll(null, 10_000)).length;
    const e = await refusal(admin.create(asOperator('alice'), { ...input('BAD'), endAt: '2026-03-06T11:00:00.000Z' }));
    expect([e.code, e.details.field]).to.deep.equal(['INVALID_INPUT', 'endAt']);
    expect(await store.readAll(null, 10_000)).to.have.length(before);
  });

  it('refuses a missing campaign with CAMPAIGN_NOT_FOUND', async () => {
    expect((await refusal(admin.get(987654))).code).to.equal('CAMPAIGN_NOT_FOUND');
    expect((await refusal(admin.changeStatus(asOperator('bob'), 987654, 'APPROVED'))).code).to.equal(
      'CAMPAIGN_NOT_FOUND',
    );
  });
});
