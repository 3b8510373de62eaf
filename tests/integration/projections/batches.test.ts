import type {
  CampaignEvent,
  PoolDisplay,
  ShopReservationEvent,
  VoucherPoolCreated,
  VoucherPoolEvent,
} from '../../../domain/shop/events.js';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { CampaignBanner, CampaignStatus, NewCampaign } from '../../../domain/shop/campaign.js';
import { formatPosition } from '../../../infrastructure/shared/eventstore/positions.js';
import type { PhysicalNames, ProjectedEvent, Projector } from '../../../projections/shared/projector.js';
import { catalogProjector } from '../../../projections/shop/catalog.js';
import { reservationsProjector } from '../../../projections/shop/reservations.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { voucherSearchProjector } from '../../../projections/shop/voucher-search.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { activation, campaignCreated, statusChanged } from '../../support/shop-events.js';

type ShopHistoryEvent = CampaignEvent | VoucherPoolEvent | ShopReservationEvent;

const day = (d: number, hour = 0) =>
  `2026-03-${String(d).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

const banner = (id: number, channelCode: 'APP' | 'WEB', positionCode: 'CAROUSEL' | 'DETAIL_TOP'): CampaignBanner => ({
  id,
  channelCode,
  positionCode,
  assetUrl: `https://cdn.example.vn/${id}.png`,
  assetType: 'IMAGE',
  altText: `Banner ${id}`,
  clickUrl: null,
  displayOrder: id % 10,
});

const campaign = (
  campaignId: number,
  name: string,
  overrides: Partial<Omit<NewCampaign, 'banners'>> = {},
): ShopHistoryEvent =>
  campaignCreated(campaignId, {
    name,
    banners: [
      banner(campaignId * 10 + 1, 'WEB', 'CAROUSEL'),
      banner(campaignId * 10 + 2, 'APP', 'CAROUSEL'),
      banner(campaignId * 10 + 3, 'APP', 'DETAIL_TOP'),
    ],
    createdAt: day(1),
    ...overrides,
  });

const status = (campaignId: number, from: CampaignStatus, to: CampaignStatus, at = day(2)): ShopHistoryEvent =>
  statusChanged(campaignId, from, to, at);
const activated = (campaignId: number): ShopHistoryEvent[] => activation(campaignId, day(2));

const display = (title: string, brandName: string): PoolDisplay => ({
  title,
  shortTitle: title.slice(0, 8),
  brandName,
  logoUrl: 'https://cdn.example.vn/l.png',
  bannerUrl: 'https://cdn.example.vn/b.png',
  thumbnailUrl: 'https://cdn.example.vn/t.png',
  description: `${title} tại ${brandName}, áp dụng toàn quốc`,
});

const terms = {
  usageType: 'ONLINE' as const,
  termsAndConditions: 'Một lần',
  validityDays: 30,
  usageLimit: null,
  maxPerDay: null,
  maxPerOrder: null,
};

const pool = (poolId: number, campaignId: number, categoryId: number, totalQuantity = 10): VoucherPoolCreated => ({
  type: 'VoucherPoolCreated',
  data: {
    poolId,
    campaignId,
    categoryId,
    miniAppIds: ['shop'],
    display: display(`Phiếu quà tặng ${poolId}`, poolId % 2 ? 'Highlands Coffee' : 'Phúc Long'),
    pricing: { faceValue: 100_000, sellingPrice: 90_000, discountedPrice: poolId % 3 ? null : 80_000, currency: 'VND' },
    totalQuantity,
    terms,
    validity: poolId % 4 ? null : { startAt: day(1), endAt: '2026-12-01T00:00:00.000Z' },
    createdAt: day(3),
  },
});

/**
 * A reservation of `quantity` vouchers of `poolId` by `userId` (default: its own), and how it ends (`open`: not yet):
 * its reservation events and its pool's stock events, in log order.
 */
function sale(
  key: string,
  poolId: number,
  quantity: number,
  end: 'commit' | 'release' | 'expire' | 'open',
  d: number,
  userId = `u-${key}`,
): ShopHistoryEvent[] {
  const who = { merchantId: 'M1', userId };
  const placed: ShopHistoryEvent = {
    type: 'ShopReservationPlaced',
    data: {
      reservationKey: key,
      orderId: `order-${key}`,
      ...who,
      idempotencyKey: `idem-${key}`,
      requestHash: 'h',
      amount: 90_000 * quantity,
      currency: 'VND',
      reservedAt: day(d),
      expiresAt: day(d, 1),
      items: [{ voucherPoolId: poolId, quantity, unitPrice: 90_000, vouchers: [] }],
    },
  };
  const reserved: ShopHistoryEvent = {
    type: 'VoucherStockReserved',
    data: {
      poolId,
      reservationKey: key,
      ...who,
      quantity,
      unitPrice: 90_000,
      day: day(d).slice(0, 10),
      reservedAt: day(d),
    },
  };
  const released = (reason: 'RELEASED' | 'EXPIRED'): ShopHistoryEvent => ({
    type: 'VoucherStockReleased',
    data: { poolId, reservationKey: key, ...who, quantity, day: day(d).slice(0, 10), reason, releasedAt: day(d, 2) },
  });
  const ends: Record<typeof end, ShopHistoryEvent[]> = {
    open: [],
    commit: [
      { type: 'ShopReservationCommitted', data: { reservationKey: key, committedAt: day(d, 2) } },
      { type: 'VoucherStockSold', data: { poolId, reservationKey: key, quantity, soldAt: day(d, 2) } },
    ],
    release: [
      {
        type: 'ShopReservationReleased',
        data: { reservationKey: key, releasedAt: day(d, 2), reason: 'USER_CANCELLED' },
      },
      released('RELEASED'),
    ],
    expire: [
      { type: 'ShopReservationExpired', data: { reservationKey: key, expiredAt: day(d, 2) } },
      released('EXPIRED'),
    ],
  };
  return [placed, reserved, ...ends[end]];
}

/**
 * Two bulk imports (campaigns with their status changes, then their pools;
 * pool 109 before its campaign 4), sales, operator changes of pools and
 * campaigns in between.
 */
const history: ShopHistoryEvent[] = [
  campaign(1, 'Mùa hè rực rỡ'),
  ...activated(1),
  campaign(2, 'Siêu sale giữa tháng', { campaignTag: 'FLASH_SALE' }),
  ...activated(2),
  campaign(3, 'Chương trình nháp'),
  ...[101, 102, 103, 104, 105, 106, 107, 108].map((id) =>
    pool(id, id <= 104 ? 1 : 2, id % 2 ? 7 : 8, id === 108 ? 0 : 10),
  ),
  pool(109, 4, 7),
  ...sale('r1', 101, 2, 'commit', 4),
  ...sale('r2', 102, 3, 'release', 4),
  ...sale('r3', 103, 10, 'expire', 5),
  ...sale('r4', 103, 10, 'commit', 5),
  // A flash sale: reserves back to back (runs of placed reservations and stock moves), of two pools by three buyers
  // (buyer-1 several times a day), one released within it, one sold.
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((n) =>
    sale(
      `f${n}`,
      n % 2 ? 101 : 102,
      1 + (n % 3),
      n === 4 ? 'release' : n === 7 ? 'commit' : 'open',
      5,
      `buyer-${n % 3}`,
    ),
  ),
  { type: 'VoucherPoolStockAdded', data: { poolId: 104, quantity: 5, addedAt: day(6) } },
  // f2 released in a later batch than its reserve: the buyer's row is there to take it.
  { type: 'ShopReservationReleased', data: { reservationKey: 'f2', releasedAt: day(6), reason: 'USER_CANCELLED' } },
  {
    type: 'VoucherStockReleased',
    data: {
      poolId: 102,
      reservationKey: 'f2',
      merchantId: 'M1',
      userId: 'buyer-2',
      quantity: 3,
      day: day(5).slice(0, 10),
      reason: 'RELEASED',
      releasedAt: day(6),
    },
  },
  {
    type: 'VoucherPoolRepriced',
    data: {
      poolId: 104,
      pricing: { faceValue: 200_000, sellingPrice: 150_000, discountedPrice: null, currency: 'VND' },
      repricedAt: day(6),
    },
  },
  {
    type: 'VoucherPoolDisplayUpdated',
    data: { poolId: 105, display: display('Trà sữa trân châu', 'Gong Cha'), updatedAt: day(6) },
  },
  { type: 'VoucherPoolTermsUpdated', data: { poolId: 105, terms: { ...terms, usageLimit: 3 }, updatedAt: day(6) } },
  { type: 'VoucherPoolCategoryChanged', data: { poolId: 106, categoryId: 7, updatedAt: day(6) } },
  { type: 'VoucherPoolMiniAppsChanged', data: { poolId: 106, miniAppIds: ['shop', 'games'], updatedAt: day(6) } },
  {
    type: 'VoucherPoolValidityChanged',
    data: { poolId: 106, validity: { startAt: day(7), endAt: '2026-10-01T00:00:00.000Z' }, updatedAt: day(6) },
  },
  { type: 'VoucherPoolDeleted', data: { poolId: 107, deletedAt: day(6) } },
  campaign(4, 'Điện ảnh cuối tuần'),
  ...activated(4),
  {
    type: 'CampaignDetailsUpdated',
    data: {
      campaignId: 2,
      name: 'Siêu sale cuối tháng',
      description: 'Nhanh hơn',
      campaignTag: 'FLASH_SALE',
      displayPriority: 9,
      themeUrl: 'https://cdn.example.vn/theme2.png',
      startAt: '2026-01-02T00:00:00.000Z',
      endAt: '2026-12-01T00:00:00.000Z',
      presale: {
        enabled: true,
        startAt: '2026-01-01T00:00:00.000Z',
        countdownEnabled: true,
        teaserText: 'Sắp mở',
        teaserImageUrl: 'https://cdn.example.vn/t.png',
      },
      updatedAt: day(7),
    },
  },
  { type: 'CampaignBannerAdded', data: { campaignId: 1, banner: banner(14, 'WEB', 'DETAIL_TOP'), addedAt: day(7) } },
  {
    type: 'CampaignBannerUpdated',
    data: { campaignId: 1, banner: { ...banner(11, 'WEB', 'DETAIL_TOP'), altText: 'Moved' }, updatedAt: day(7) },
  },
  { type: 'CampaignBannerRemoved', data: { campaignId: 2, bannerId: 22, removedAt: day(7) } },
  status(1, 'ACTIVE', 'PAUSED', day(8)),
  // the second import; campaign 5 changes status with an earlier time than its creation's
  campaign(5, 'Tết sum vầy', { campaignTag: 'TET_DEAL' }),
  status(5, 'DRAFT', 'APPROVED', day(1)),
  campaign(6, 'Du lịch hè'),
  ...activated(6),
  status(5, 'APPROVED', 'ACTIVE', day(9)),
  ...[110, 111, 112, 113, 114, 115].map((id) => pool(id, id % 2 ? 5 : 6, 9)),
  { type: 'VoucherPoolDeleted', data: { poolId: 111, deletedAt: day(9) } },
];

const projected: ProjectedEvent[] = history.map((e, i) => {
  const data = e.data as { poolId?: number; campaignId?: number; reservationKey?: string };
  const stream =
    data.poolId !== undefined
      ? `voucherPool-${data.poolId}`
      : data.reservationKey
        ? `shopReservation-${data.reservationKey}`
        : `campaign-${data.campaignId}`;
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    streamName: stream,
    type: e.type,
    schemaVersion: 1,
    data: e.data,
    metadata: { occurredAt: day(1) },
    revision: 0,
    position: formatPosition(BigInt(i + 1), 0n),
    recordedAt: day(1),
  };
});

const at = (type: string, id: number | string) => {
  const i = history.findIndex((e) => e.type === type && Object.values(e.data as object)[0] === id);
  if (i < 0) throw new Error(`no ${type} ${id} in the history`);
  return i;
};

/**
 * The history in three batches as a bus may deliver them: the second starts
 * with the last events of the first again (redelivered), and each holds a
 * redelivered event in its middle (within a bulk run of pools, and within the
 * run of campaign events of the second import: a status change twice in a
 * row, an old creation, an old status change); the third also brings back
 * an old status change and the end of an old sale.
 */
const firstEnd = at('VoucherPoolStockAdded', 104);
const secondEnd = at('CampaignCreated', 6);
const batches: ProjectedEvent[][] = [
  [
    ...projected.slice(0, at('VoucherPoolCreated', 104)),
    projected[at('VoucherPoolCreated', 102)]!,
    ...projected.slice(at('VoucherPoolCreated', 104), firstEnd),
  ],
  [
    ...projected.slice(firstEnd - 5, secondEnd),
    projected[secondEnd - 1]!,
    projected[at('CampaignCreated', 1)]!,
    projected[1]!,
    ...projected.slice(secondEnd, secondEnd + 2),
  ],
  [
    projected[2]!,
    projected[at('ShopReservationCommitted', 'r1')]!,
    projected[at('VoucherStockSold', 101)]!,
    ...projected.slice(secondEnd + 2, -3),
    projected[at('VoucherPoolCreated', 110)]!,
    ...projected.slice(-3),
  ],
];

const projectors: Projector[] = [
  reservationsProjector,
  voucherInventoryProjector,
  catalogProjector,
  voucherSearchProjector,
];

describe('Projectors apply a batch as one event per call would', () => {
  let db: TestDatabase;

  before(async () => {
    db = await createTestDatabase();
  });
  after(() => db?.drop());

  /** Every row of every table of the projector, each table's rows in a fixed order; the counts version's random epoch left out. */
  async function dump(projector: Projector, names: PhysicalNames): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const table of projector.tables) {
      const rows: Record<string, unknown>[] = await db.knex(names[table.name]!);
      for (const row of rows) delete row.epoch;
      out[table.name] = rows
        .map((row) => [JSON.stringify(row), row] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, row]) => row);
    }
    return out;
  }

  /** Applies the calls, each in a transaction of its own, to fresh tables named with `suffix`; answers their rows and the statements it took. */
  async function project(projector: Projector, suffix: string, calls: ProjectedEvent[][]) {
    const names: PhysicalNames = Object.fromEntries(projector.tables.map((t) => [t.name, `${t.name}_${suffix}`]));
    await projector.createTables(db.knex, names);
    let statements = 0;
    const count = ({ sql }: { sql: string }) => {
      if (!/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(sql)) statements++;
    };
    db.knex.on('query', count);
    try {
      for (const events of calls) {
        const handled = events.filter((e) => projector.eventTypes.has(e.type));
        if (handled.length > 0)
          await db.knex.transaction((trx: Knex.Transaction) => projector.apply(trx, handled, names));
      }
    } finally {
      db.knex.off('query', count);
    }
    return { rows: await dump(projector, names), statements };
  }

  for (const projector of projectors) {
    it(`${projector.name}: the same rows from batches as from one event per call, and redeliveries change nothing`, async () => {
      const once = await project(
        projector,
        'once',
        projected.map((event) => [event]),
      );
      const oneByOne = await project(
        projector,
        'one',
        batches.flat().map((event) => [event]),
      );
      const batched = await project(projector, 'batched', batches);

      expect(oneByOne.rows, 'redeliveries change nothing').to.deep.equal(once.rows);
      expect(batched.rows).to.deep.equal(oneByOne.rows);
      for (const table of projector.tables) expect(batched.rows[table.name], table.name).to.have.length.greaterThan(0);
      // Set-based forms (runs of pools, campaigns, placed reservations, stock moves) take fewer statements.
      expect(batched.statements).to.be.lessThan(oneByOne.statements);
    });
  }

  it('writes a flash sale’s reserves in one statement per projector (and its announcement), not one per event', async () => {
    const first = at('ShopReservationPlaced', 'f1');
    const reserves = projected.slice(first, first + 18).filter((e) => /Placed|Reserved/.test(e.type));
    expect(reserves).to.have.length(14);
    for (const projector of [reservationsProjector, voucherInventoryProjector, catalogProjector]) {
      const { statements } = await project(projector, `flash_${projector.name.replace(/-/g, '_')}`, [
        projected.slice(0, first),
        reserves,
      ]);
      const before = (
        await project(projector, `before_${projector.name.replace(/-/g, '_')}`, [projected.slice(0, first)])
      ).statements;
      expect(statements - before, projector.name).to.be.at.most(2);
    }
  });

  it('gives every projector some of each batch, so each is tried on them all', () => {
    for (const projector of projectors)
      for (const batch of batches)
        expect(
          batch.some((e) => projector.eventTypes.has(e.type)),
          projector.name,
        ).to.equal(true);
  });
});
