import type { CampaignEvent, VoucherPoolCreated, VoucherPoolEvent } from '../../../domain/shop/events.js';
import { expect } from 'chai';
import type { Knex } from 'knex';
import pg from 'pg';
import sinon from 'sinon';
import type { CampaignStatus, NewCampaign } from '../../../domain/shop/campaign.js';
import { formatPosition } from '../../../infrastructure/shared/eventstore/positions.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { PostgresCatalogReadModel } from '../../../infrastructure/shop/catalog-read-model.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { PostgresChangeFeed } from '../../../infrastructure/shared/read-model-changes.js';
import { catalogProjector } from '../../../projections/shop/catalog.js';
import type { PhysicalNames, ProjectedEvent } from '../../../projections/shared/projector.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { campaignCreated, poolCreated, statusChanged } from '../../support/shop-events.js';

type CatalogEvent = CampaignEvent | VoucherPoolEvent;

/** The projector's tables under their logical names, so the read model queries them directly. */
const names: PhysicalNames = Object.fromEntries(catalogProjector.tables.map((t) => [t.name, t.name]));

const campaign = (campaignId: number, overrides: Partial<Omit<NewCampaign, 'banners'>> = {}): CatalogEvent =>
  campaignCreated(campaignId, {
    description: 'Deals',
    banners: [
      {
        id: campaignId * 10,
        channelCode: 'APP',
        positionCode: 'CAROUSEL',
        assetUrl: 'https://cdn.example.vn/b.png',
        assetType: 'IMAGE',
        altText: 'Banner',
        clickUrl: null,
        displayOrder: 1,
      },
    ],
    ...overrides,
  });

const status = (campaignId: number, from: CampaignStatus, to: CampaignStatus): CatalogEvent =>
  statusChanged(campaignId, from, to, '2026-02-01T00:00:00.000Z');

const pool = (poolId: number, campaignId: number, categoryId: number, totalQuantity = 10): VoucherPoolCreated =>
  poolCreated(poolId, campaignId, { categoryId, totalQuantity, miniAppIds: ['app-1', 'app-2'] });

const hold = (
  type: 'VoucherStockReserved' | 'VoucherStockReleased',
  poolId: number,
  key: string,
  quantity: number,
): CatalogEvent =>
  ({
    type,
    data: {
      poolId,
      reservationKey: key,
      merchantId: 'M1',
      userId: 'u1',
      quantity,
      unitPrice: 90_000,
      day: '2026-03-01',
      reason: 'RELEASED',
      reservedAt: '2026-03-01T00:00:00.000Z',
      releasedAt: '2026-03-01T00:01:00.000Z',
    },
  }) as CatalogEvent;

/**
 * A catalog's history: two live campaigns, a draft, pools in two categories, a
 * sale, a release, a restock, a reprice, a deletion, then operator updates of
 * campaign details, banners and pools (one changes category).
 */
const history: CatalogEvent[] = [
  campaign(1),
  status(1, 'DRAFT', 'APPROVED'),
  status(1, 'APPROVED', 'ACTIVE'),
  campaign(2, { campaignTag: 'FLASH_SALE' }),
  status(2, 'DRAFT', 'APPROVED'),
  status(2, 'APPROVED', 'ACTIVE'),
  campaign(3),
  pool(101, 1, 7, 5),
  pool(102, 1, 8),
  pool(103, 2, 7, 2),
  pool(104, 3, 7),
  pool(105, 2, 8),
  hold('VoucherStockReserved', 101, 'r1', 5),
  {
    type: 'VoucherStockSold',
    data: { poolId: 101, reservationKey: 'r1', quantity: 5, soldAt: '2026-03-01T00:02:00.000Z' },
  },
  hold('VoucherStockReserved', 103, 'r2', 2),
  hold('VoucherStockReleased', 103, 'r2', 2),
  { type: 'VoucherPoolStockAdded', data: { poolId: 102, quantity: 5, addedAt: '2026-03-02T00:00:00.000Z' } },
  {
    type: 'VoucherPoolRepriced',
    data: {
      poolId: 102,
      pricing: { faceValue: 200_000, sellingPrice: 150_000, discountedPrice: 120_000, currency: 'VND' },
      repricedAt: '2026-03-03T00:00:00.000Z',
    },
  },
  { type: 'VoucherPoolDeleted', data: { poolId: 105, deletedAt: '2026-03-04T00:00:00.000Z' } },
  {
    type: 'CampaignDetailsUpdated',
    data: {
      campaignId: 2,
      name: 'Flash 2',
      description: 'Faster',
      campaignTag: 'FLASH_SALE',
      displayPriority: 5,
      themeUrl: 'https://cdn.example.vn/theme2.png',
      startAt: '2026-01-02T00:00:00.000Z',
      endAt: '2026-12-01T00:00:00.000Z',
      presale: {
        enabled: true,
        startAt: '2026-01-01T00:00:00.000Z',
        countdownEnabled: true,
        teaserText: 'Soon',
        teaserImageUrl: 'https://cdn.example.vn/t.png',
      },
      updatedAt: '2026-03-05T00:00:00.000Z',
    },
  },
  {
    type: 'CampaignBannerAdded',
    data: {
      campaignId: 1,
      banner: {
        id: 11,
        channelCode: 'WEB',
        positionCode: 'DETAIL_TOP',
        assetUrl: 'https://cdn.example.vn/w.png',
        assetType: 'VIDEO',
        altText: 'Web',
        clickUrl: 'app://x',
        displayOrder: 0,
      },
      addedAt: '2026-03-05T00:00:00.000Z',
    },
  },
  {
    type: 'CampaignBannerUpdated',
    data: {
      campaignId: 1,
      banner: {
        id: 10,
        channelCode: 'APP',
        positionCode: 'CAROUSEL',
        assetUrl: 'https://cdn.example.vn/b2.png',
        assetType: 'IMAGE',
        altText: 'Changed',
        clickUrl: null,
        displayOrder: 3,
      },
      updatedAt: '2026-03-05T00:00:00.000Z',
    },
  },
  { type: 'CampaignBannerRemoved', data: { campaignId: 2, bannerId: 20, removedAt: '2026-03-05T00:00:00.000Z' } },
  { type: 'VoucherPoolCategoryChanged', data: { poolId: 102, categoryId: 7, updatedAt: '2026-03-06T00:00:00.000Z' } },
  {
    type: 'VoucherPoolDisplayUpdated',
    data: {
      poolId: 103,
      display: { ...pool(103, 2, 7).data.display, title: 'New title' },
      updatedAt: '2026-03-06T00:00:00.000Z',
    },
  },
  {
    type: 'VoucherPoolTermsUpdated',
    data: {
      poolId: 103,
      terms: { ...pool(103, 2, 7).data.terms, usageLimit: 3 },
      updatedAt: '2026-03-06T00:00:00.000Z',
    },
  },
  {
    type: 'VoucherPoolMiniAppsChanged',
    data: { poolId: 103, miniAppIds: ['x'], updatedAt: '2026-03-06T00:00:00.000Z' },
  },
  {
    type: 'VoucherPoolValidityChanged',
    data: {
      poolId: 103,
      validity: { startAt: '2026-04-01T00:00:00.000Z', endAt: '2026-05-01T00:00:00.000Z' },
      updatedAt: '2026-03-06T00:00:00.000Z',
    },
  },
];

const projected: ProjectedEvent[] = history.map((e, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  streamName:
    'data' in e && 'poolId' in e.data
      ? `voucherPool-${e.data.poolId}`
      : `campaign-${(e.data as { campaignId: number }).campaignId}`,
  type: e.type,
  schemaVersion: 1,
  data: e.data,
  metadata: { occurredAt: '2026-03-04T00:00:00.000Z' },
  revision: 0,
  position: formatPosition(BigInt(i + 1), 0n),
  recordedAt: '2026-03-04T00:00:00.000Z',
}));

const now = new Date('2026-06-01T00:00:00Z');

describe('Catalog projector on PostgreSQL', () => {
  let db: TestDatabase;

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
  });
  after(() => db?.drop());

  async function freshTables(): Promise<void> {
    for (const t of catalogProjector.tables) await db.knex.raw('DROP TABLE IF EXISTS ?? CASCADE', [t.name]);
    await catalogProjector.createTables(db.knex, names);
  }

  /** Reads every voucher from the tables: its change feed is never started (tables are replaced here, which no projector announces). */
  function uncachedReadModel(): PostgresCatalogReadModel {
    return new PostgresCatalogReadModel(db.knex, new PostgresChangeFeed({ databaseUrl: db.url }), {
      sources: { catalog: catalogProjector.name, inventory: voucherInventoryProjector.name },
      cachedParts: 1000,
    });
  }

  async function apply(events: ProjectedEvent[]): Promise<void> {
    await db.knex.transaction(async (trx: Knex.Transaction) => {
      for (const event of events) await catalogProjector.apply(trx, [event], names);
    });
  }

  /** Every row of every table, in key order. */
  async function snapshot(): Promise<Record<string, unknown[]>> {
    const keys: Record<string, string[]> = {
      shop_campaigns: ['campaign_id'],
      shop_campaign_banners: ['campaign_id', 'banner_id'],
      shop_voucher_listings: ['pool_id'],
      shop_campaign_pool_counts: ['campaign_id'],
      shop_campaign_category_pool_counts: ['campaign_id', 'category_id'],
    };
    const out: Record<string, unknown[]> = {};
    for (const [table, key] of Object.entries(keys)) out[table] = await db.knex(table).orderBy(key);
    return out;
  }

  it('projects campaigns, banners, listings and counts from the history', async () => {
    await freshTables();
    await apply(projected);
    const rows = await snapshot();

    expect(rows.shop_campaigns!.map((r) => (r as { status: string }).status)).to.deep.equal([
      'ACTIVE',
      'ACTIVE',
      'DRAFT',
    ]);
    expect(
      rows.shop_campaign_banners!.map((b) => [
        (b as { banner_id: number }).banner_id,
        (b as { alt_text: string }).alt_text,
      ]),
    ).to.deep.equal([
      [10, 'Changed'],
      [11, 'Web'],
      [30, 'Banner'],
    ]);
    expect(rows.shop_campaigns![1]).to.include({
      name: 'Flash 2',
      display_priority: 5,
      presale_enabled: true,
      presale_teaser_text: 'Soon',
    });
    const listing = (id: number) =>
      rows.shop_voucher_listings!.find((r) => (r as { pool_id: number }).pool_id === id) as Record<string, unknown>;
    expect(listing(101)).to.include({
      total_quantity: 5,
      reserved_quantity: 0,
      sold_quantity: 5,
      remaining_quantity: 0,
      deleted: false,
    });
    expect(listing(101).mini_app_ids).to.deep.equal(['app-1', 'app-2']);
    expect(listing(102)).to.include({
      category_id: 7,
      total_quantity: 15,
      remaining_quantity: 15,
      face_value: 200_000,
      selling_price: 150_000,
      discounted_price: 120_000,
    });
    expect(listing(103)).to.include({
      reserved_quantity: 0,
      remaining_quantity: 2,
      title: 'New title',
      usage_limit: 3,
    });
    expect(listing(103).mini_app_ids).to.deep.equal(['x']);
    expect((listing(103).validity_end_at as Date).toISOString()).to.equal('2026-05-01T00:00:00.000Z');
    expect((rows.shop_campaigns![1] as { end_at: Date }).end_at.toISOString()).to.equal('2026-12-01T00:00:00.000Z');
    expect(listing(105)).to.include({ deleted: true });
    const pick = (row: unknown, keys: string[]) =>
      Object.fromEntries(keys.map((k) => [k, (row as Record<string, unknown>)[k]]));
    const counts = [
      'campaign_id',
      'pool_count',
      'in_stock_count',
      'sold_quantity',
      'status',
      'campaign_tag',
      'display_priority',
    ];
    expect(rows.shop_campaign_pool_counts!.map((r) => pick(r, counts))).to.deep.equal([
      {
        campaign_id: 1,
        pool_count: 2,
        in_stock_count: 1,
        sold_quantity: 5,
        status: 'ACTIVE',
        campaign_tag: 'HOT_DEAL',
        display_priority: 1,
      },
      {
        campaign_id: 2,
        pool_count: 1,
        in_stock_count: 1,
        sold_quantity: 0,
        status: 'ACTIVE',
        campaign_tag: 'FLASH_SALE',
        display_priority: 5,
      },
      {
        campaign_id: 3,
        pool_count: 1,
        in_stock_count: 1,
        sold_quantity: 0,
        status: 'DRAFT',
        campaign_tag: 'HOT_DEAL',
        display_priority: 3,
      },
    ]);
    expect(
      rows.shop_campaign_category_pool_counts!.map((r) =>
        pick(r, ['campaign_id', 'category_id', 'pool_count', 'status', 'display_priority']),
      ),
    ).to.deep.equal([
      { campaign_id: 1, category_id: 7, pool_count: 2, status: 'ACTIVE', display_priority: 1 },
      { campaign_id: 1, category_id: 8, pool_count: 0, status: 'ACTIVE', display_priority: 1 },
      { campaign_id: 2, category_id: 7, pool_count: 1, status: 'ACTIVE', display_priority: 5 },
      { campaign_id: 2, category_id: 8, pool_count: 0, status: 'ACTIVE', display_priority: 5 },
      { campaign_id: 3, category_id: 7, pool_count: 1, status: 'DRAFT', display_priority: 3 },
    ]);
    const endOf = (r: unknown) => (r as { end_at: Date }).end_at.toISOString();
    expect(endOf(rows.shop_campaign_pool_counts![1])).to.equal('2026-12-01T00:00:00.000Z');
  });

  it('changes nothing when the whole history, or any part of it, is delivered again', async () => {
    await freshTables();
    await apply(projected);
    const once = await snapshot();

    await apply(projected);
    expect(await snapshot()).to.deep.equal(once);
    await apply(projected.slice(7, 15));
    await apply([projected[12]!, projected[12]!, projected[0]!, projected[2]!, projected[20]!, projected[23]!]);
    expect(await snapshot()).to.deep.equal(once);
  });

  it('gives the same rows when every event is delivered twice in a row', async () => {
    await freshTables();
    await apply(projected);
    const once = await snapshot();

    await freshTables();
    await apply(projected.flatMap((e) => [e, e]));
    expect(await snapshot()).to.deep.equal(once);
  });

  it('writes a batch’s stock moves in one statement, with the rows one by one gives, redeliveries among them', async () => {
    // A flash sale on pools 103 (2 left after the history) and 102: reserves, releases and sales interleaved, 103 sold
    // out and back in stock more than once, so that its campaign's in-stock count moves within the batch.
    const moves: CatalogEvent[] = [];
    for (let i = 0; i < 40; i++) {
      const poolId = i % 3 === 0 ? 103 : 102;
      const key = `flash-${i}`;
      const quantity = 1 + (i % 2);
      moves.push(hold('VoucherStockReserved', poolId, key, quantity));
      if (poolId === 103 ? i % 2 === 1 : i % 4 === 1) moves.push(hold('VoucherStockReleased', poolId, key, quantity));
      else if (i % 5 === 0)
        moves.push({
          type: 'VoucherStockSold',
          data: {
            poolId,
            reservationKey: key,
            quantity,
            soldAt: `2026-03-07T00:${String(i).padStart(2, '0')}:00.000Z`,
          },
        });
    }
    const sale: ProjectedEvent[] = moves.map((e, i) => ({
      ...projected[0]!,
      id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
      streamName: `voucherPool-${(e.data as { poolId: number }).poolId}`,
      type: e.type,
      data: e.data,
      position: formatPosition(BigInt(history.length + 1 + i), 0n),
    }));
    await freshTables();
    await apply([...projected, ...sale]);
    const oneByOne = await snapshot();

    await freshTables();
    await apply(projected);
    const statements: string[] = [];
    const record = (q: { sql: string }) => void statements.push(q.sql);
    db.knex.on('query', record);
    await db.knex.transaction((trx: Knex.Transaction) => catalogProjector.apply(trx, sale, names));
    db.knex.off('query', record);
    expect(await snapshot()).to.deep.equal(oneByOne);
    // The moves, the announcement, and the transaction's own BEGIN and COMMIT: not one statement per event.
    expect(statements.filter((sql) => !/^(BEGIN|COMMIT)/i.test(sql))).to.have.length(2);

    // Batches overlapping the one before (a redelivery), a move twice in a row, and one of the history again.
    await freshTables();
    await apply(projected);
    for (let from = 0; from < sale.length; from += 7) {
      const batch = sale.slice(Math.max(0, from - 3), from + 7);
      await db.knex.transaction((trx: Knex.Transaction) =>
        catalogProjector.apply(trx, [batch[0]!, ...batch, projected[11]!, batch.at(-1)!], names),
      );
    }
    expect(await snapshot()).to.deep.equal(oneByOne);
  });

  it('serves the listing and its totals from these rows', async () => {
    await freshTables();
    await apply(projected);
    const readModel = uncachedReadModel();

    const all = await readModel.listVouchers({}, now, { offset: 0, limit: 10 });
    expect(all.total).to.equal(3);
    expect(all.records.map((r) => r.poolId)).to.deep.equal([101, 102, 103]);

    const secondPage = await readModel.listVouchers({}, now, { offset: 2, limit: 2 });
    expect(secondPage).to.deep.include({ total: 3 });
    expect(secondPage.records.map((r) => r.poolId)).to.deep.equal([103]);
    expect(await readModel.listVouchers({}, now, { offset: 10, limit: 2 })).to.deep.equal({ records: [], total: 3 });

    const byCategory = await readModel.listVouchers({ categoryIds: [7] }, now, { offset: 0, limit: 10 });
    expect(byCategory.records.map((r) => r.poolId)).to.deep.equal([101, 102, 103]);
    expect(byCategory.total).to.equal(3);
    expect(await readModel.listVouchers({ categoryIds: [8] }, now, { offset: 0, limit: 10 })).to.deep.equal({
      records: [],
      total: 0,
    });

    const flash = await readModel.listVouchers({ tags: ['FLASH_SALE'], excludeCampaignIds: [1] }, now, {
      offset: 0,
      limit: 10,
    });
    expect(flash).to.deep.include({ total: 1 });
    expect(flash.records.map((r) => r.poolId)).to.deep.equal([103]);

    const campaigns = await readModel.listCampaigns({}, 'APP', now, { offset: 0, limit: 10 });
    expect(campaigns.total).to.equal(2);
    expect(campaigns.records.map((c) => [c.id, c.pools, c.banners.length])).to.deep.equal([
      [1, { total: 2, inStock: 1, sold: 5 }, 1],
      [2, { total: 1, inStock: 1, sold: 0 }, 0],
    ]);
    expect(
      (await readModel.listCampaigns({ carouselChannel: 'WEB' }, 'WEB', now, { offset: 0, limit: 10 })).total,
    ).to.equal(0);
  });

  it('reuses a ranking of campaigns only while the counts and the campaign windows stay the same', async () => {
    await freshTables();
    await apply(projected);
    const readModel = uncachedReadModel();
    // Every statement sent on any connection: knex's, and the reads' named prepared statements.
    const sent = sinon.spy(pg.Client.prototype, 'query');
    const statements = () =>
      sent
        .getCalls()
        .map((call) => call.args[0] as string | { text: string })
        .map((q) => (typeof q === 'string' ? q : q.text));
    const ids = async (at: Date, filter = {}) =>
      (await readModel.listVouchers(filter, at, { offset: 0, limit: 10 })).records.map((r) => r.poolId);
    try {
      expect(await ids(now)).to.deep.equal([101, 102, 103]);
      // Stock moves (a sale) do not change the ranking: the page's pool ids and its vouchers, no count table read.
      await apply([{ ...projected[14]!, position: formatPosition(1000n, 0n) }]);
      sent.resetHistory();
      expect(await ids(now)).to.deep.equal([101, 102, 103]);
      expect(statements()).to.have.length(2);
      expect(statements().join('\n')).not.to.match(/shop_campaign_pool_counts/);

      // A new pool changes the counts: the ranking is made again.
      await apply([{ ...projected[7]!, data: { ...pool(106, 1, 8).data }, position: formatPosition(1001n, 0n) }]);
      expect(await ids(now)).to.deep.equal([101, 102, 106, 103]);
      expect((await readModel.listVouchers({}, now, { offset: 3, limit: 1 })).total).to.equal(4);

      // Campaign 2 ends 2026-12-01: after that, without any event, it is gone.
      const later = new Date('2026-12-01T00:00:00.000Z');
      expect(await ids(later)).to.deep.equal([101, 102, 106]);
      expect(await ids(now)).to.deep.equal([101, 102, 106, 103]);
    } finally {
      sent.restore();
    }
  });
});
