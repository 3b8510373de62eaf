import type { CampaignEvent, VoucherPoolEvent } from '../../../domain/shop/events.js';
import { expect } from 'chai';
import type { Knex } from 'knex';
import pg from 'pg';
import sinon from 'sinon';
import { PostgresChangeFeed } from '../../../infrastructure/shared/read-model-changes.js';
import { PostgresCatalogReadModel } from '../../../infrastructure/shop/catalog-read-model.js';
import { announceChanges, changeChannel, type PhysicalNames } from '../../../projections/shared/projector.js';
import { catalogProjector } from '../../../projections/shop/catalog.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { changeFeeds } from '../../support/change-feeds.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import {
  campaignCreated,
  inLogOrder,
  liveCatalog,
  poolCreated,
  repriced,
  reserved,
  renamed,
  statusChanged,
} from '../../support/shop-events.js';

type CatalogEvent = CampaignEvent | VoucherPoolEvent;

/** The catalog projector's tables under their logical names, as the read model queries them (as in projections/catalog.test.ts). */
const names: PhysicalNames = Object.fromEntries(catalogProjector.tables.map((t) => [t.name, t.name]));

const now = new Date('2026-06-01T00:00:00Z');

const pool = (poolId: number, campaignId: number) => poolCreated(poolId, campaignId);
const catalog = liveCatalog;
const projected = inLogOrder();

/** What a listener heard, with whether the feed said it was connected at that moment. */
type Heard = { keys: readonly string[] | '*'; connected: boolean };

describe('Read model change announcements on PostgreSQL', () => {
  let db: TestDatabase;
  const feeds = changeFeeds(() => db.url);

  before(async () => {
    db = await createTestDatabase();
  });
  afterEach(() => feeds.stopAll());
  after(() => db?.drop());

  const feed = (retryDelayMs?: number) => feeds.feed(retryDelayMs);
  const connected = (source: PostgresChangeFeed) => feeds.connected(source);

  function listen(source: PostgresChangeFeed, projector = catalogProjector.name): Heard[] {
    const heard: Heard[] = [];
    source.subscribe(projector, (keys) => heard.push({ keys, connected: source.connected }));
    return heard;
  }

  /** A feed started and connected, with a listener to the catalog that has heard nothing yet (the '*' of connecting left out). */
  async function startedFeed(): Promise<{ source: PostgresChangeFeed; heard: Heard[] }> {
    const source = feed();
    const heard = listen(source);
    source.start();
    await connected(source);
    heard.length = 0;
    return { source, heard };
  }

  async function announce(projector: string, keys: string[], outcome: 'commit' | 'rollback' = 'commit'): Promise<void> {
    const trx = await db.knex.transaction();
    await announceChanges(trx, projector, new Set(keys));
    if (outcome === 'commit') await trx.commit();
    else await trx.rollback();
  }

  /** The backends of this database whose last statement was a LISTEN: the feeds' connections. */
  async function listeners(): Promise<number[]> {
    const { rows } = await db.knex.raw<{ rows: { pid: number }[] }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`,
    );
    return rows.map((r) => r.pid);
  }

  async function killListeners(): Promise<number[]> {
    const pids = await listeners();
    expect(pids).to.have.length(1);
    await db.knex.raw('SELECT pg_terminate_backend(pid) FROM unnest(?::int[]) AS pid', [pids]);
    return pids;
  }

  describe('PostgresChangeFeed', () => {
    it("given a feed, when started, then it is connected and its listeners hear '*'", async () => {
      const source = feed();
      const heard = listen(source);
      expect(source.connected).to.equal(false);
      source.start();
      await connected(source);
      expect(heard).to.deep.equal([{ keys: '*', connected: true }]);
      expect(await listeners()).to.have.length(1);
    });

    it('given a started feed, when a transaction announcing keys commits, then they are heard; when one rolls back, then nothing is', async () => {
      const source = feed();
      const heard = listen(source);
      const other = listen(source, 'some-other-projector');
      source.start();
      await connected(source);
      heard.length = 0;
      other.length = 0;

      await announce(catalogProjector.name, ['p9'], 'rollback');
      await announce(catalogProjector.name, ['p1', 'c2']);
      // Notifications come in commit order: had the rolled back one been sent, it would be heard first.
      await eventually(() => expect(heard).to.deep.equal([{ keys: ['p1', 'c2'], connected: true }]), 5_000);
      expect(other).to.deep.equal([]);

      await announce('some-other-projector', ['x1']);
      await eventually(() => expect(other).to.deep.equal([{ keys: ['x1'], connected: true }]), 5_000);
      expect(heard).to.have.length(1);
    });

    it("given a started feed, when keys are announced in more than 7000 bytes, or '*' among them, then '*' is heard", async () => {
      const { heard } = await startedFeed();

      // Announced as a JSON array: ["<6996 characters>"] is 7000 characters, listed; ["<3497>","<3497>"] is 7001, too many.
      const longest = 'k'.repeat(6_996);
      await announce(catalogProjector.name, [longest]);
      await announce(catalogProjector.name, ['a'.repeat(3_497), 'b'.repeat(3_497)]);
      await announce(catalogProjector.name, ['p1', '*']);
      // 3,004 characters but 9,004 bytes: past NOTIFY's 8,000-byte limit, so '*' (the transaction still commits).
      await announce(catalogProjector.name, ['ễ'.repeat(3_000)]);
      await eventually(() => expect(heard.map((h) => h.keys)).to.deep.equal([[longest], '*', '*', '*']), 5_000);
    });

    it("given a started feed, when a payload that is no JSON array of strings is sent on the channel, then '*' is heard", async () => {
      const { heard } = await startedFeed();

      for (const payload of ['p1,c2', '{"p1":1}', '[1,2]', '["p1"]'])
        await db.knex.raw('SELECT pg_notify(?, ?)', [changeChannel(catalogProjector.name), payload]);
      await eventually(() => expect(heard.map((h) => h.keys)).to.deep.equal(['*', '*', '*', ['p1']]), 5_000);
    });

    it("given a started feed, when its backend is killed, then it is disconnected and listeners hear '*', then it reconnects by itself and hears announcements again", async () => {
      const { source, heard } = await startedFeed();

      const [killed] = await killListeners();
      // '*' as the connection is lost (not connected then), and again once it is back.
      await eventually(
        () =>
          expect(heard).to.deep.equal([
            { keys: '*', connected: false },
            { keys: '*', connected: true },
          ]),
        5_000,
      );
      expect(source.connected).to.equal(true);
      const [listening] = await eventually(async () => {
        const pids = await listeners();
        expect(pids).to.have.length(1);
        return pids;
      }, 5_000);
      expect(listening).not.to.equal(killed);

      await announce(catalogProjector.name, ['p1']);
      await eventually(() => expect(heard.slice(2)).to.deep.equal([{ keys: ['p1'], connected: true }]), 5_000);
    });

    it('given a started feed, when a projector subscribes, then the feed listens to its channel too', async () => {
      const source = feed();
      const first = listen(source);
      source.start();
      await connected(source);
      first.length = 0;

      const second = listen(source, 'some-other-projector');
      // It reconnects to listen to the new channel: every listener hears '*' as it disconnects and again once it is back.
      const gap = [
        { keys: '*', connected: false },
        { keys: '*', connected: true },
      ];
      await eventually(() => expect(second).to.deep.equal(gap), 5_000);
      expect(first).to.deep.equal(gap);
      await announce('some-other-projector', ['x1']);
      await announce(catalogProjector.name, ['p1']);
      await eventually(() => expect(second.slice(2).map((h) => h.keys)).to.deep.equal([['x1']]), 5_000);
      await eventually(() => expect(first.slice(2).map((h) => h.keys)).to.deep.equal([['p1']]), 5_000);
    });

    it('given a started feed, when stopped, then stop resolves, it is disconnected, hears nothing more and leaves no connection', async () => {
      const { source, heard } = await startedFeed();

      await source.stop();
      expect(source.connected).to.equal(false);
      expect(heard).to.deep.equal([{ keys: '*', connected: false }]);
      await eventually(async () => expect(await listeners()).to.deep.equal([]), 5_000);

      // A feed still running hears the next announcement; the stopped one does not.
      const witness = feed();
      const witnessed = listen(witness);
      witness.start();
      await connected(witness);
      await announce(catalogProjector.name, ['p1']);
      await eventually(() => expect(witnessed.map((h) => h.keys)).to.deep.equal(['*', ['p1']]), 5_000);
      expect(heard).to.have.length(1);
    });

    it('given a feed being started, when stopped before it has connected, then it leaves no connection', async () => {
      const source = feed();
      listen(source);
      source.start();
      await source.stop();
      expect(source.connected).to.equal(false);
      // stop() waited for the connection under way: had it been left open, it would be listening by now.
      expect(await listeners()).to.deep.equal([]);
    });
  });

  describe('PostgresCatalogReadModel with a change feed', () => {
    let sent: sinon.SinonSpy;

    beforeEach(async () => {
      for (const t of catalogProjector.tables) await db.knex.raw('DROP TABLE IF EXISTS ?? CASCADE', [t.name]);
      await catalogProjector.createTables(db.knex, names);
      await apply(catalog);
      // Every statement sent on any connection; the read model's reads are the named (prepared) ones.
      sent = sinon.spy(pg.Client.prototype, 'query');
    });
    afterEach(() => sent.restore());

    async function apply(events: CatalogEvent[]): Promise<void> {
      await db.knex.transaction(async (trx: Knex.Transaction) => catalogProjector.apply(trx, projected(events), names));
    }

    /** How many statements the reads sent since the last call. */
    function reads(): number {
      const count = sent
        .getCalls()
        .filter((call) => typeof call.args[0] === 'object' && call.args[0] !== null && 'name' in call.args[0]).length;
      sent.resetHistory();
      return count;
    }

    /** A read model in front of a feed, started and connected (subscribed before starting, so the first connection listens to it). */
    async function cachedReadModel(
      source = feed(),
      options: { warm?: boolean; cachedParts?: number } = {},
    ): Promise<PostgresCatalogReadModel> {
      const readModel = new PostgresCatalogReadModel(db.knex, source, {
        sources: { catalog: catalogProjector.name, inventory: voucherInventoryProjector.name },
        cachedParts: options.cachedParts ?? 1000,
        warm: options.warm,
      });
      source.start();
      await connected(source);
      return readModel;
    }

    /** Waits until warming has sent a statement (recognised by its text) since the last reads(), and every such one has been answered. */
    async function warmed(): Promise<void> {
      const warming = () =>
        sent
          .getCalls()
          .filter(
            (call) =>
              typeof call.args[0] === 'object' &&
              call.args[0] !== null &&
              /l\.pool_id > \$1/.test((call.args[0] as { text: string }).text),
          );
      await eventually(() => expect(warming()).to.not.be.empty, 5_000);
      await Promise.all(warming().map((call) => call.returnValue as Promise<unknown>));
      await new Promise((resolve) => setImmediate(resolve));
      reads();
    }

    const pricesOf = async (readModel: PostgresCatalogReadModel, ids: number[]) =>
      (await readModel.vouchersByIds(ids, now)).map((v) => [v.poolId, v.pricing.sellingPrice]);

    async function warm(readModel: PostgresCatalogReadModel): Promise<void> {
      await readModel.vouchersByIds([101, 102, 103], now);
      reads();
    }

    it('given warming, when the feed connects, then the vouchers of ACTIVE SELL campaigns are kept before anyone asks, deleted ones not', async () => {
      await apply([
        campaignCreated(3),
        pool(104, 3),
        pool(105, 1),
        { type: 'VoucherPoolDeleted', data: { poolId: 105, deletedAt: '2026-03-01T00:00:00.000Z' } },
      ]);
      const readModel = await cachedReadModel(feed(), { warm: true });
      await warmed();
      expect(await readModel.vouchersByIds([101, 102, 103], now)).to.have.length(3);
      expect(reads()).to.equal(0);
      // Campaign 3 is a DRAFT and pool 105 deleted: not warmed, read when asked for.
      expect(await readModel.vouchersByIds([104], now)).to.deep.equal([]);
      expect(reads()).to.equal(1);
      expect(await readModel.vouchersByIds([105], now)).to.deep.equal([]);
      expect(reads()).to.equal(1);
    });

    it('given warming, when the feed reconnects, then the cache starts afresh and is warmed again with the rows as they are now', async () => {
      const readModel = await cachedReadModel(feed(), { warm: true });
      await warmed();
      await killListeners();
      // Changed behind the feed's back, as if its announcement had been missed while it was away.
      await db.knex('shop_voucher_listings').where({ pool_id: 102 }).update({ selling_price: 55_000 });
      await eventually(async () => expect(await listeners()).to.have.length(1), 5_000);
      await warmed();
      expect(await pricesOf(readModel, [101, 102])).to.deep.equal([
        [101, 90_000],
        [102, 55_000],
      ]);
      expect(reads()).to.equal(0);
    });

    it('given a connected feed, when vouchers are read by id twice, then the second read sends no statement and gives the same vouchers', async () => {
      const readModel = await cachedReadModel();
      reads();
      const first = await readModel.vouchersByIds([101, 102, 103], now);
      expect(reads()).to.equal(1);
      expect(first.map((v) => [v.poolId, v.campaign.id, v.remainingQuantity])).to.deep.equal([
        [101, 1, 10],
        [102, 1, 10],
        [103, 2, 10],
      ]);
      expect(await readModel.vouchersByIds([103, 101, 102], now)).to.deep.equal([first[2], first[0], first[1]]);
      expect(reads()).to.equal(0);
    });

    it('given kept vouchers, when a pool is repriced, or stock of it reserved, then it is eventually read as changed, its neighbours still kept', async () => {
      const readModel = await cachedReadModel();
      await warm(readModel);

      await apply([repriced(101, 80_000)]);
      await eventually(async () => expect(await pricesOf(readModel, [101])).to.deep.equal([[101, 80_000]]), 5_000);
      reads();
      // Only p101 was dropped: pool 102's part and campaign 1's (read again with 101) are kept.
      expect(await pricesOf(readModel, [102, 103])).to.deep.equal([
        [102, 90_000],
        [103, 90_000],
      ]);
      expect(reads()).to.equal(0);

      await apply([reserved(101, 3)]);
      await eventually(
        async () =>
          expect((await readModel.vouchersByIds([101], now)).map((v) => v.remainingQuantity)).to.deep.equal([7]),
        5_000,
      );
    });

    it('given kept vouchers, when their campaign is renamed, or paused, then they are eventually read as changed', async () => {
      const readModel = await cachedReadModel();
      await warm(readModel);
      const campaignNames = async () =>
        (await readModel.vouchersByIds([101, 102, 103], now)).map((v) => [v.poolId, v.campaign.name]);

      await apply([renamed(1, 'Renamed')]);
      await eventually(
        async () =>
          expect(await campaignNames()).to.deep.equal([
            [101, 'Renamed'],
            [102, 'Renamed'],
            [103, 'Campaign 2'],
          ]),
        5_000,
      );

      await apply([statusChanged(2, 'ACTIVE', 'PAUSED', '2026-03-03T00:00:00.000Z')]);
      await eventually(
        async () =>
          expect((await readModel.vouchersByIds([101, 102, 103], now)).map((v) => v.poolId)).to.deep.equal([101, 102]),
        5_000,
      );
    });

    it('given kept vouchers, when the feed is stopped, then reads go to the tables and a change made meanwhile is seen at once', async () => {
      const source = feed();
      const readModel = await cachedReadModel(source);
      await warm(readModel);
      expect(await pricesOf(readModel, [101])).to.deep.equal([[101, 90_000]]);
      expect(reads()).to.equal(0);

      await source.stop();
      await apply([repriced(101, 70_000)]);
      expect(await pricesOf(readModel, [101])).to.deep.equal([[101, 70_000]]);
      expect(await pricesOf(readModel, [101])).to.deep.equal([[101, 70_000]]);
      expect(reads()).to.equal(2);
    });

    it('given kept vouchers, when the listening backend is killed, then reads go to the tables while it is disconnected', async () => {
      // Long enough not to reconnect during the test; stop() cuts the pause short.
      const source = feed(60_000);
      const readModel = await cachedReadModel(source);
      await warm(readModel);

      await killListeners();
      await eventually(() => expect(source.connected).to.equal(false), 5_000);
      await apply([repriced(102, 60_000)]);
      expect(await pricesOf(readModel, [101, 102])).to.deep.equal([
        [101, 90_000],
        [102, 60_000],
      ]);
      expect(await pricesOf(readModel, [102])).to.deep.equal([[102, 60_000]]);
      expect(reads()).to.equal(2);
    });

    it("given kept vouchers, when a swap is announced ('*'), then the next read goes to the tables", async () => {
      const readModel = await cachedReadModel();
      await warm(readModel);
      // As a rebuild does: the rows change under the read model without their keys being announced...
      await db.knex('shop_voucher_listings').where({ pool_id: 103 }).update({ selling_price: 50_000 });
      expect(await pricesOf(readModel, [103])).to.deep.equal([[103, 90_000]]);
      expect(reads()).to.equal(0);

      // ... then the swap is.
      await db.knex.transaction((trx: Knex.Transaction) => announceChanges(trx, catalogProjector.name, new Set(['*'])));
      await eventually(async () => expect(await pricesOf(readModel, [103])).to.deep.equal([[103, 50_000]]), 5_000);
    });

    it('given a page read twice, when a pool of it is repriced, then the page eventually shows the new price', async () => {
      const readModel = await cachedReadModel();
      const page = async () =>
        (await readModel.listVouchers({}, now, { offset: 0, limit: 10 })).records.map((v) => [
          v.poolId,
          v.pricing.sellingPrice,
        ]);
      const before = [
        [101, 90_000],
        [102, 90_000],
        [103, 90_000],
      ];
      expect(await page()).to.deep.equal(before);
      reads();
      // The page's pool ids are kept while the counts do not move, its vouchers put together from kept parts.
      expect(await page()).to.deep.equal(before);
      expect(reads()).to.equal(0);

      await apply([repriced(102, 40_000)]);
      await eventually(
        async () =>
          expect(await page()).to.deep.equal([
            [101, 90_000],
            [102, 40_000],
            [103, 90_000],
          ]),
        5_000,
      );
    });

    it('given a page read twice, when a pool is added to it, then the page eventually lists it', async () => {
      const readModel = await cachedReadModel();
      const page = async () => {
        const { records, total } = await readModel.listVouchers({}, now, { offset: 0, limit: 10 });
        return { ids: records.map((v) => v.poolId), total };
      };
      expect(await page()).to.deep.equal({ ids: [101, 102, 103], total: 3 });
      reads();
      expect(await page()).to.deep.equal({ ids: [101, 102, 103], total: 3 });
      expect(reads()).to.equal(0);

      // A creation announces no pool or campaign, only that the counts moved.
      await apply([pool(104, 1)]);
      await eventually(async () => expect(await page()).to.deep.equal({ ids: [101, 102, 104, 103], total: 4 }), 5_000);
    });
  });
});
