import type { CampaignEvent, VoucherPoolEvent } from '../../../domain/shop/events.js';
import { expect } from 'chai';
import type { Knex } from 'knex';
import pg from 'pg';
import sinon from 'sinon';
import type { Buyer } from '../../../application/shop/catalog-queries.js';
import { PostgresChangeFeed } from '../../../infrastructure/shared/read-model-changes.js';
import { PostgresCatalogReadModel } from '../../../infrastructure/shop/catalog-read-model.js';
import { PostgresVoucherSearchReadModel } from '../../../infrastructure/shop/voucher-search-read-model.js';
import {
  announceChanges,
  type PhysicalNames,
  type ProjectedEvent,
  type Projector,
} from '../../../projections/shared/projector.js';
import { catalogProjector } from '../../../projections/shop/catalog.js';
import { buyerKey } from '../../../domain/shop/voucher-pool.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { voucherSearchProjector } from '../../../projections/shop/voucher-search.js';
import { changeFeeds } from '../../support/change-feeds.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import {
  activation,
  campaignCreated,
  inLogOrder,
  liveCatalog,
  poolCreated,
  repriced,
  reserved,
  renamed,
  statusChanged,
} from '../../support/shop-events.js';

type ShopEvent = CampaignEvent | VoucherPoolEvent;
type Keys = readonly string[] | '*';

const projectors: Projector[] = [catalogProjector, voucherInventoryProjector, voucherSearchProjector];

/** Every projector's tables under their logical names, as the read models query them (as in projections/catalog.test.ts). */
const names: PhysicalNames = Object.fromEntries(projectors.flatMap((p) => p.tables.map((t) => [t.name, t.name])));

const now = new Date('2026-06-01T00:00:00Z');
const day = '2026-03-01';

const pool = (poolId: number, campaignId: number, categoryId = 7) => poolCreated(poolId, campaignId, { categoryId });

const deleted = (poolId: number): ShopEvent => ({
  type: 'VoucherPoolDeleted',
  data: { poolId, deletedAt: '2026-03-01T00:00:00.000Z' },
});

const categoryChanged = (poolId: number, categoryId: number): ShopEvent => ({
  type: 'VoucherPoolCategoryChanged',
  data: { poolId, categoryId, updatedAt: '2026-03-01T00:00:00.000Z' },
});

const stockAdded = (poolId: number, quantity: number): ShopEvent => ({
  type: 'VoucherPoolStockAdded',
  data: { poolId, quantity, addedAt: '2026-03-01T00:00:00.000Z' },
});

const displayUpdated = (poolId: number, title: string): ShopEvent => ({
  type: 'VoucherPoolDisplayUpdated',
  data: { poolId, display: { ...pool(poolId, 0).data.display, title }, updatedAt: '2026-03-01T00:00:00.000Z' },
});

interface Holder {
  merchantId: string;
  userId: string;
}

const released = (
  poolId: number,
  quantity: number,
  { merchantId, userId }: Holder,
  reservationKey = `r-${poolId}-${userId}`,
): ShopEvent => ({
  type: 'VoucherStockReleased',
  data: {
    poolId,
    reservationKey,
    merchantId,
    userId,
    quantity,
    day,
    reason: 'RELEASED',
    releasedAt: '2026-03-01T00:00:00.000Z',
  },
});

const sold = (poolId: number, quantity: number, reservationKey: string): ShopEvent => ({
  type: 'VoucherStockSold',
  data: { poolId, reservationKey, quantity, soldAt: '2026-03-01T00:00:00.000Z' },
});

const catalog = liveCatalog;
const projected = inLogOrder();

describe('Projector announcements on PostgreSQL', () => {
  let db: TestDatabase;
  const feeds = changeFeeds(() => db.url);

  before(async () => {
    db = await createTestDatabase();
  });
  beforeEach(async () => {
    for (const p of projectors)
      for (const t of p.tables) await db.knex.raw('DROP TABLE IF EXISTS ?? CASCADE', [t.name]);
    for (const p of projectors) await p.createTables(db.knex, names);
  });
  afterEach(() => feeds.stopAll());
  after(() => db?.drop());

  const feed = () => feeds.feed();
  const connected = (source: PostgresChangeFeed) => feeds.connected(source);

  /** Applies already projected events (a redelivery, when they were applied before) in one transaction, as the runner does. */
  async function applyProjected(projector: Projector, events: ProjectedEvent[]): Promise<void> {
    await db.knex.transaction(async (trx: Knex.Transaction) => projector.apply(trx, events, names));
  }

  /** Applies new events; answers them as projected, to be delivered again. */
  async function apply(projector: Projector, events: ShopEvent[]): Promise<ProjectedEvent[]> {
    const batch = projected(events);
    await applyProjected(projector, batch);
    return batch;
  }

  async function announce(projector: string, keys: string[]): Promise<void> {
    await db.knex.transaction((trx: Knex.Transaction) => announceChanges(trx, projector, new Set(keys)));
  }

  /** What a started, connected feed hears of `projector` from now on (the '*' of its connection left out). */
  async function listen(projector: Projector): Promise<Keys[]> {
    const source = feed();
    const heard: Keys[] = [];
    source.subscribe(projector.name, (keys) => heard.push(keys));
    source.start();
    await connected(source);
    await eventually(() => expect(heard).to.deep.equal(['*']), 5_000);
    heard.length = 0;
    return heard;
  }

  /**
   * Everything heard until now: a witness is announced on the same channel and
   * waited for; announcements come in commit order, so whatever the
   * transactions committed before sent has been heard by then. Clears `heard`.
   */
  async function announcedSoFar(heard: Keys[], projector: Projector): Promise<Keys[]> {
    await announce(projector.name, ['witness']);
    await eventually(() => expect(heard.at(-1)).to.deep.equal(['witness']), 5_000);
    const before = heard.slice(0, -1);
    heard.length = 0;
    return before;
  }

  const countsVersion = async (): Promise<number> =>
    (await db.knex('shop_catalog_counts_version').first('version')).version as number;

  const lastChange = async (): Promise<string | null> =>
    (await db.knex('shop_voucher_search_changes').first('last_change_position')).last_change_position as string | null;

  describe('the catalog projector', () => {
    beforeEach(async () => {
      await apply(catalogProjector, catalog);
    });

    it("given live pools, when one is repriced, then ['p<id>'] alone is announced and the counts version has not moved", async () => {
      const heard = await listen(catalogProjector);
      const before = await countsVersion();

      await apply(catalogProjector, [repriced(101, 80_000)]);

      expect(await announcedSoFar(heard, catalogProjector)).to.deep.equal([['p101']]);
      expect(await countsVersion()).to.equal(before);
      expect(
        (await db.knex('shop_voucher_listings').where({ pool_id: 101 }).first('selling_price')).selling_price,
      ).to.equal(80_000);
    });

    it("given a live campaign, when its details are updated, then ['c<id>', 'counts'] is announced, as the counts version moved by one", async () => {
      const heard = await listen(catalogProjector);
      const before = await countsVersion();

      await apply(catalogProjector, [renamed(1, 'Renamed')]);

      // The campaign's columns are copied into its count rows, so the counts version moves with any applied change of it.
      expect(await countsVersion()).to.equal(before + 1);
      expect(await announcedSoFar(heard, catalogProjector)).to.deep.equal([['c1', 'counts']]);
      expect((await db.knex('shop_campaigns').where({ campaign_id: 1 }).first('name')).name).to.equal('Renamed');
    });

    it("given live pools, when one is deleted or moved to another category, then its 'p<id>' is announced with 'counts'", async () => {
      const heard = await listen(catalogProjector);
      const before = await countsVersion();

      await apply(catalogProjector, [deleted(102)]);
      await apply(catalogProjector, [categoryChanged(103, 8)]);

      expect(await announcedSoFar(heard, catalogProjector)).to.deep.equal([
        ['p102', 'counts'],
        ['p103', 'counts'],
      ]);
      expect(await countsVersion()).to.equal(before + 2);
      const counts = await db
        .knex('shop_campaign_category_pool_counts')
        .orderBy(['campaign_id', 'category_id'])
        .select('campaign_id', 'category_id', 'pool_count');
      expect(counts).to.deep.equal([
        { campaign_id: 1, category_id: 7, pool_count: 1 },
        { campaign_id: 2, category_id: 7, pool_count: 0 },
        { campaign_id: 2, category_id: 8, pool_count: 1 },
      ]);
    });

    it("given live campaigns, when a batch of pools is created, then 'counts' alone is announced, no 'p' key", async () => {
      const heard = await listen(catalogProjector);
      const before = await countsVersion();

      await apply(catalogProjector, [pool(104, 1), pool(105, 1), pool(106, 2)]);

      expect(await announcedSoFar(heard, catalogProjector)).to.deep.equal([['counts']]);
      expect(await countsVersion()).to.equal(before + 3);
      expect((await db.knex('shop_voucher_listings').count<{ count: number }[]>('* as count'))[0]!.count).to.equal(6);
    });

    it("given a live pool, when stock of it is reserved, then ['p<id>'] is announced without 'counts'", async () => {
      const heard = await listen(catalogProjector);
      const before = await countsVersion();

      await apply(catalogProjector, [reserved(101, 3, { merchantId: 'M1', userId: 'u1' })]);

      expect(await announcedSoFar(heard, catalogProjector)).to.deep.equal([['p101']]);
      expect(await countsVersion()).to.equal(before);
      expect(
        (await db.knex('shop_voucher_listings').where({ pool_id: 101 }).first('remaining_quantity')).remaining_quantity,
      ).to.equal(7);
    });

    it('given a batch of changes of several pools and a campaign, when applied, then one announcement lists each key once, in event order', async () => {
      const heard = await listen(catalogProjector);

      await apply(catalogProjector, [
        repriced(101, 80_000),
        reserved(101, 1, { merchantId: 'M1', userId: 'u1' }),
        deleted(102),
        statusChanged(2, 'ACTIVE', 'PAUSED', '2026-03-03T00:00:00.000Z'),
        repriced(101, 70_000),
      ]);

      expect(await announcedSoFar(heard, catalogProjector)).to.deep.equal([['p101', 'p102', 'c2', 'counts']]);
    });

    it('given applied events, when they are delivered again, then the rows stay as they were and the same keys are announced again', async () => {
      const creations = await apply(catalogProjector, [pool(104, 1), pool(105, 2)]);
      const changes = await apply(catalogProjector, [repriced(101, 80_000), deleted(102), renamed(1, 'Renamed')]);
      const heard = await listen(catalogProjector);
      const before = await countsVersion();
      const listings = await db.knex('shop_voucher_listings').orderBy('pool_id');

      await applyProjected(catalogProjector, creations);
      await applyProjected(catalogProjector, changes);

      // Nothing changed: the rows and the counts version are as they were.
      expect(await countsVersion()).to.equal(before);
      expect(await db.knex('shop_voucher_listings').orderBy('pool_id')).to.deep.equal(listings);
      // Keys come from the events, not from what was applied: a cache drops and reads again entries that are still
      // right, which is harmless (creations name no row, but may move the counts).
      expect(await announcedSoFar(heard, catalogProjector)).to.deep.equal([
        ['counts'],
        ['p101', 'p102', 'c1', 'counts'],
      ]);
    });
  });

  describe('the voucher inventory projector', () => {
    const first: Holder = { merchantId: 'M1', userId: 'u1' };
    const second: Holder = { merchantId: 'M2', userId: 'u2' };

    beforeEach(async () => {
      await apply(voucherInventoryProjector, [pool(101, 1), pool(102, 1)]);
    });

    const purchases = () =>
      db
        .knex('shop_user_pool_purchases')
        .orderBy(['merchant_id', 'user_id', 'pool_id'])
        .select('merchant_id', 'user_id', 'pool_id', 'quantity');

    it('given pools, when stock is reserved, then the buyer key JSON.stringify([merchantId, userId]) is announced', async () => {
      const heard = await listen(voucherInventoryProjector);

      await apply(voucherInventoryProjector, [reserved(101, 2, first)]);

      expect(await announcedSoFar(heard, voucherInventoryProjector)).to.deep.equal([['["M1","u1"]']]);
      expect(await purchases()).to.deep.equal([{ merchant_id: 'M1', user_id: 'u1', pool_id: 101, quantity: 2 }]);
    });

    it('given reservations, when stock is released, then the buyer key is announced', async () => {
      await apply(voucherInventoryProjector, [reserved(101, 2, first)]);
      const heard = await listen(voucherInventoryProjector);

      await apply(voucherInventoryProjector, [released(101, 2, first)]);

      expect(await announcedSoFar(heard, voucherInventoryProjector)).to.deep.equal([[buyerKey('M1', 'u1')]]);
      expect(await purchases()).to.deep.equal([{ merchant_id: 'M1', user_id: 'u1', pool_id: 101, quantity: 0 }]);
    });

    it('given pools, when a batch reserves and releases for two buyers, then one announcement lists each buyer once', async () => {
      const heard = await listen(voucherInventoryProjector);

      await apply(voucherInventoryProjector, [
        reserved(101, 2, first),
        reserved(102, 1, second),
        released(101, 1, first),
        reserved(102, 1, first, 'r-again'),
      ]);

      expect(await announcedSoFar(heard, voucherInventoryProjector)).to.deep.equal([
        [buyerKey('M1', 'u1'), buyerKey('M2', 'u2')],
      ]);
    });

    it('given merchant and user ids with commas, quotes, colons and backslashes, when their stock is reserved, then each buyer comes through intact', async () => {
      // Joined with ',' or ':' these two would be the same text; as JSON they are not.
      const left: Holder = { merchantId: 'm,1:"a"', userId: 'u\\1' };
      const right: Holder = { merchantId: 'm', userId: '1:"a",u\\1' };
      const heard = await listen(voucherInventoryProjector);

      await apply(voucherInventoryProjector, [reserved(101, 1, left), reserved(102, 1, right)]);

      const [keys, ...rest] = await announcedSoFar(heard, voucherInventoryProjector);
      expect(rest).to.deep.equal([]);
      expect(keys).to.deep.equal([buyerKey(left.merchantId, left.userId), buyerKey(right.merchantId, right.userId)]);
      expect((keys as string[]).map((k) => JSON.parse(k) as unknown)).to.deep.equal([
        ['m,1:"a"', 'u\\1'],
        ['m', '1:"a",u\\1'],
      ]);
      expect(await purchases()).to.deep.equal([
        { merchant_id: 'm', user_id: '1:"a",u\\1', pool_id: 102, quantity: 1 },
        { merchant_id: 'm,1:"a"', user_id: 'u\\1', pool_id: 101, quantity: 1 },
      ]);
    });

    it('given pools, when pools are created, stock added or sold, then nothing is announced: no buyer holds more or less', async () => {
      await apply(voucherInventoryProjector, [reserved(101, 2, first, 'r1')]);
      const heard = await listen(voucherInventoryProjector);

      await apply(voucherInventoryProjector, [pool(103, 1), pool(104, 2)]);
      await apply(voucherInventoryProjector, [stockAdded(101, 5), sold(101, 2, 'r1')]);

      expect(await announcedSoFar(heard, voucherInventoryProjector)).to.deep.equal([]);
      expect(
        (await db.knex('shop_voucher_inventory').orderBy('pool_id').select('pool_id')).map(
          (r: { pool_id: number }) => r.pool_id,
        ),
      ).to.deep.equal([101, 102, 103, 104]);
      expect(
        await db.knex('shop_voucher_inventory').where({ pool_id: 101 }).first('total_quantity', 'sold_quantity'),
      ).to.deep.equal({
        total_quantity: 15,
        sold_quantity: 2,
      });
    });
  });

  describe('the voucher search projector', () => {
    beforeEach(async () => {
      await apply(voucherSearchProjector, [
        campaignCreated(1),
        ...activation(1, '2026-01-01T00:00:00.000Z'),
        pool(201, 1),
      ]);
    });

    it("given a searched pool, when its display is updated, then last_change_position moves to that event and ['version'] is announced", async () => {
      const heard = await listen(voucherSearchProjector);
      const before = await lastChange();

      const [update] = await apply(voucherSearchProjector, [displayUpdated(201, 'Cà phê sữa đá')]);

      expect(await lastChange())
        .to.equal(update!.position)
        .and.not.equal(before);
      expect(await announcedSoFar(heard, voucherSearchProjector)).to.deep.equal([['version']]);
    });

    it("given applied events, when they are delivered again, then last_change_position stays; each batch still announces 'version'", async () => {
      const creation = await apply(voucherSearchProjector, [pool(202, 1)]);
      const changes = await apply(voucherSearchProjector, [displayUpdated(201, 'Trà sữa'), deleted(202)]);
      const before = await lastChange();
      expect(before).to.equal(changes[1]!.position);
      const heard = await listen(voucherSearchProjector);

      await applyProjected(voucherSearchProjector, creation);
      await applyProjected(voucherSearchProjector, changes);

      expect(await lastChange()).to.equal(before);
      // Announced whether or not it moved (the projector does not read it back): a reader reads the version once more.
      expect(await announcedSoFar(heard, voucherSearchProjector)).to.deep.equal([['version'], ['version']]);
    });
  });

  describe('read models kept by the announcements', () => {
    /** Every statement sent on any connection; the read models' reads are the named (prepared) ones. */
    let sent: sinon.SinonSpy;

    beforeEach(() => {
      sent = sinon.spy(pg.Client.prototype, 'query');
    });
    afterEach(() => sent.restore());

    /** The prepared statements reading `table` sent since the last call (their bindings). */
    function reads(table: string): unknown[][] {
      const found = sent
        .getCalls()
        .map((call) => call.args[0] as unknown)
        .filter(
          (q): q is { name: string; text: string; values: unknown[] } =>
            typeof q === 'object' && q !== null && 'name' in q,
        )
        .filter((q) => q.text.includes(table))
        .map((q) => q.values);
      sent.resetHistory();
      return found;
    }

    describe('PostgresCatalogReadModel: what a buyer holds', () => {
      // Ids whose naive joins would be ambiguous: the holdings are keyed by buyerKey, as the inventory projector announces them.
      const alice: Buyer = { merchantId: 'M,1:"x"', userId: 'alice:"1",a', day };
      const bob: Buyer = { merchantId: 'M,1:"x"', userId: 'bob', day };

      beforeEach(async () => {
        await apply(catalogProjector, catalog);
        await apply(voucherInventoryProjector, catalog);
        const earlier = [reserved(101, 1, alice, 'ra'), reserved(102, 2, bob, 'rb')];
        await apply(voucherInventoryProjector, earlier);
        await apply(catalogProjector, earlier);
        sent.resetHistory();
      });

      /** A read model in front of a feed, started and connected (subscribed before starting, so the first connection listens to it). */
      async function cachedReadModel(): Promise<PostgresCatalogReadModel> {
        const source = feed();
        const readModel = new PostgresCatalogReadModel(db.knex, source, {
          sources: { catalog: catalogProjector.name, inventory: voucherInventoryProjector.name },
          cachedParts: 1000,
        });
        source.start();
        await connected(source);
        return readModel;
      }

      const holdings = async (readModel: PostgresCatalogReadModel, buyer: Buyer) =>
        (await readModel.vouchersByIds([101, 102, 103], now, buyer)).map((v) => [v.poolId, v.purchased]);

      it('given a connected feed, when a buyer reads vouchers twice, then their purchases are read once', async () => {
        const readModel = await cachedReadModel();
        reads('shop_user_pool_purchases');

        const expected = [
          [101, { daily: 1, total: 1 }],
          [102, { daily: 0, total: 0 }],
          [103, { daily: 0, total: 0 }],
        ];
        expect(await holdings(readModel, alice)).to.deep.equal(expected);
        expect(reads('shop_user_pool_purchases')).to.deep.equal([[alice.merchantId, alice.userId]]);
        expect(await holdings(readModel, alice)).to.deep.equal(expected);
        expect(reads('shop_user_pool_purchases')).to.deep.equal([]);
      });

      it("given two buyers' holdings kept, when one reserves stock, then theirs are eventually read again with it, the other's still kept", async () => {
        const readModel = await cachedReadModel();
        expect(await holdings(readModel, alice)).to.deep.equal([
          [101, { daily: 1, total: 1 }],
          [102, { daily: 0, total: 0 }],
          [103, { daily: 0, total: 0 }],
        ]);
        const bobs = [
          [101, { daily: 0, total: 0 }],
          [102, { daily: 2, total: 2 }],
          [103, { daily: 0, total: 0 }],
        ];
        expect(await holdings(readModel, bob)).to.deep.equal(bobs);
        expect(reads('shop_user_pool_purchases')).to.have.length(2);

        // As the runner applies it: each projector in its own transaction.
        const reservation = projected([reserved(103, 3, alice, 'ra2')]);
        await applyProjected(voucherInventoryProjector, reservation);
        await applyProjected(catalogProjector, reservation);

        await eventually(
          async () =>
            expect(await holdings(readModel, alice)).to.deep.equal([
              [101, { daily: 1, total: 1 }],
              [102, { daily: 0, total: 0 }],
              [103, { daily: 3, total: 3 }],
            ]),
          5_000,
        );
        // Alice's purchases were read again (as often as polled until the announcement was heard), Bob's never.
        const again = reads('shop_user_pool_purchases');
        expect(again.length).to.be.greaterThan(0);
        expect(again.filter(([, userId]) => userId !== alice.userId)).to.deep.equal([]);
        // Read again once, then kept again.
        expect((await holdings(readModel, alice))[2]).to.deep.equal([103, { daily: 3, total: 3 }]);
        expect(await holdings(readModel, bob)).to.deep.equal(bobs);
        expect(reads('shop_user_pool_purchases')).to.deep.equal([]);
      });
    });

    describe('PostgresVoucherSearchReadModel.version()', () => {
      beforeEach(async () => {
        await apply(voucherSearchProjector, [
          campaignCreated(1),
          ...activation(1, '2026-01-01T00:00:00.000Z'),
          pool(201, 1),
        ]);
        sent.resetHistory();
      });

      it('given a connected feed, when the version is asked twice, then it is read once; after a change is applied, it is eventually the new position', async () => {
        const source = feed();
        const readModel = new PostgresVoucherSearchReadModel(db.knex, source, voucherSearchProjector.name);
        source.start();
        await connected(source);
        reads('shop_voucher_search_changes');

        const first = await readModel.version();
        expect(first).to.equal(await lastChange());
        expect(reads('shop_voucher_search_changes')).to.have.length(1);
        expect(await readModel.version()).to.equal(first);
        expect(reads('shop_voucher_search_changes')).to.have.length(0);

        const [update] = await apply(voucherSearchProjector, [displayUpdated(201, 'Bánh mì')]);
        expect(update!.position > first).to.equal(true);
        await eventually(async () => expect(await readModel.version()).to.equal(update!.position), 5_000);
        reads('shop_voucher_search_changes');
        expect(await readModel.version()).to.equal(update!.position);
        expect(reads('shop_voucher_search_changes')).to.have.length(0);
      });

      it('given a kept version, when applied events are delivered again, then the version is read once more and is the same', async () => {
        const source = feed();
        const readModel = new PostgresVoucherSearchReadModel(db.knex, source, voucherSearchProjector.name);
        // A witness on the same connection, subscribed before the start (a later subscription reconnects, which drops everything).
        const heard: Keys[] = [];
        source.subscribe(voucherSearchProjector.name, (keys) => heard.push(keys));
        const changes = await apply(voucherSearchProjector, [displayUpdated(201, 'Bánh mì')]);
        source.start();
        await connected(source);
        const version = await readModel.version();
        expect(version).to.equal(changes[0]!.position);
        reads('shop_voucher_search_changes');
        heard.length = 0;

        await applyProjected(voucherSearchProjector, changes);

        // Everything the redelivery announced has been heard once the witness is.
        expect(await announcedSoFar(heard, voucherSearchProjector)).to.deep.equal([['version']]);
        expect(await readModel.version()).to.equal(version);
        expect(reads('shop_voucher_search_changes')).to.have.length(1);
        expect(await readModel.version()).to.equal(version);
        expect(reads('shop_voucher_search_changes')).to.have.length(0);
      });
    });
  });
});
