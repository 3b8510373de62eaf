import type { CampaignEvent, PoolDisplay, VoucherPoolEvent } from '../../../domain/shop/events.js';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { fixedClock } from '../../../application/shared/clock.js';
import { CatalogQueries } from '../../../application/shop/catalog-queries.js';
import { VoucherSearch, type VoucherSearchQuery } from '../../../application/shop/voucher-search.js';
import type { NewCampaign } from '../../../domain/shop/campaign.js';
import { formatPosition } from '../../../infrastructure/shared/eventstore/positions.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { PostgresCatalogReadModel } from '../../../infrastructure/shop/catalog-read-model.js';
import { PostgresChangeFeed } from '../../../infrastructure/shared/read-model-changes.js';
import { PostgresVoucherSearchReadModel } from '../../../infrastructure/shop/voucher-search-read-model.js';
import { wordKey } from '../../../domain/shop/vietnamese-text.js';
import { catalogProjector } from '../../../projections/shop/catalog.js';
import type { PhysicalNames, ProjectedEvent, Projector } from '../../../projections/shared/projector.js';
import { voucherSearchProjector } from '../../../projections/shop/voucher-search.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { activation, campaignCreated } from '../../support/shop-events.js';

type SearchEvent = CampaignEvent | VoucherPoolEvent;

// The search hydrates its results through the catalog, so both projectors run on the same history.
const projectors: Projector[] = [voucherSearchProjector, catalogProjector];
const names: PhysicalNames = Object.fromEntries(projectors.flatMap((p) => p.tables.map((t) => [t.name, t.name])));

const created = '2026-01-01T00:00:00.000Z';
const now = new Date('2026-06-01T00:00:00.000Z');

const campaign = (
  campaignId: number,
  name: string,
  overrides: Partial<Omit<NewCampaign, 'banners'>> = {},
): SearchEvent => campaignCreated(campaignId, { name, displayPriority: 5, createdAt: created, ...overrides });

const activated = (campaignId: number): SearchEvent[] => activation(campaignId, created);

const display = (title: string, brandName: string, description: string): PoolDisplay => ({
  title,
  shortTitle: title.slice(0, 10),
  brandName,
  logoUrl: 'https://cdn.example.vn/l.png',
  bannerUrl: 'https://cdn.example.vn/b.png',
  thumbnailUrl: 'https://cdn.example.vn/t.png',
  description,
});

function pool(
  poolId: number,
  campaignId: number,
  title: string,
  brandName = 'Thương hiệu',
  description = 'Áp dụng toàn quốc',
): SearchEvent {
  return {
    type: 'VoucherPoolCreated',
    data: {
      poolId,
      campaignId,
      categoryId: 1,
      miniAppIds: [],
      display: display(title, brandName, description),
      pricing: { faceValue: 100_000, sellingPrice: 90_000, discountedPrice: null, currency: 'VND' },
      totalQuantity: 10,
      terms: {
        usageType: 'ONLINE',
        termsAndConditions: 'Một lần',
        validityDays: 30,
        usageLimit: null,
        maxPerDay: null,
        maxPerOrder: null,
      },
      validity: null,
      createdAt: created,
    },
  };
}

/**
 * Live campaigns 1 (priority 1), 2 (FLASH_SALE, priority 2) and 6; a draft
 * (3), a campaign not of type SELL (4), one whose window has closed (5); pool
 * 241 arrives before its campaign 7.
 */
const history: SearchEvent[] = [
  pool(241, 7, 'Vé xem phim CGV'),
  campaign(1, 'Mùa hè rực rỡ', { displayPriority: 1 }),
  ...activated(1),
  campaign(2, 'Siêu sale giữa tháng', { campaignTag: 'FLASH_SALE', displayPriority: 2 }),
  ...activated(2),
  campaign(3, 'Chương trình nháp'),
  campaign(4, 'Quà tặng', { type: 'GIFT' }),
  ...activated(4),
  campaign(5, 'Đã kết thúc', { startAt: '2026-01-01T00:00:00.000Z', endAt: '2026-02-01T00:00:00.000Z' }),
  ...activated(5),
  campaign(6, 'Tuần lễ Highlands'),
  ...activated(6),
  // field ranking for "samsung"
  pool(201, 2, 'Samsung Galaxy giảm 1.000.000đ', 'Điện Máy Xanh'),
  pool(202, 2, 'Phiếu mua hàng', 'Samsung'),
  pool(203, 2, 'Phiếu quà tặng', 'FPT Shop', 'Áp dụng cho điện thoại Samsung'),
  // diacritics: as typed ranks above folded
  pool(211, 1, 'Khuyen mai tra sua'),
  pool(212, 1, 'Khuyến mãi trà sữa'),
  pool(213, 1, 'Khuyên mại trà sữa'),
  // campaign name between title and brand
  pool(221, 6, 'Cà phê sữa đá', 'Trung Nguyên'),
  pool(222, 1, 'Highlands Coffee 50.000đ', 'Cửa hàng'),
  pool(223, 1, 'Bánh mì', 'Highlands Coffee'),
  pool(224, 1, 'Trà đào', 'Phúc Long', 'Gần cửa hàng Highlands'),
  // not listed
  pool(231, 3, 'Highlands nháp'),
  pool(232, 4, 'Highlands quà tặng'),
  pool(233, 5, 'Highlands đã hết hạn'),
  pool(234, 1, 'Highlands đã xoá'),
  { type: 'VoucherPoolDeleted', data: { poolId: 234, deletedAt: created } },
  campaign(7, 'Điện ảnh'),
  ...activated(7),
];

let sequence = 0;
function projected(events: SearchEvent[]): ProjectedEvent[] {
  return events.map((e) => {
    sequence++;
    const data = e.data as { poolId?: number; campaignId?: number };
    return {
      id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
      streamName: e.type.startsWith('Campaign') ? `campaign-${data.campaignId}` : `voucherPool-${data.poolId}`,
      type: e.type,
      schemaVersion: 1,
      data: e.data,
      metadata: { occurredAt: created },
      revision: 0,
      position: formatPosition(BigInt(sequence), 0n),
      recordedAt: created,
    };
  });
}

describe('Voucher search projection and query on PostgreSQL', () => {
  let db: TestDatabase;
  let search: VoucherSearch;
  let base: ProjectedEvent[];
  /** Never started, so nothing read is kept: the suite replaces tables under the read models, which no projector announces. */
  let idleFeed: PostgresChangeFeed;

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    idleFeed = new PostgresChangeFeed({ databaseUrl: db.url });
    const catalog = new CatalogQueries({
      readModel: new PostgresCatalogReadModel(db.knex, idleFeed, {
        sources: { catalog: 'shop-catalog', inventory: 'shop-voucher-inventory' },
        cachedParts: 1000,
      }),
      clock: fixedClock(now),
      dayUtcOffsetMinutes: 420,
    });
    search = new VoucherSearch({
      readModel: new PostgresVoucherSearchReadModel(db.knex, idleFeed, 'shop-voucher-search'),
      catalog,
      clock: fixedClock(now),
    });
    base = projected(history);
  });
  after(() => db?.drop());

  async function freshTables(): Promise<void> {
    for (const p of projectors) {
      for (const t of p.tables) await db.knex.raw('DROP TABLE IF EXISTS ?? CASCADE', [t.name]);
      await p.createTables(db.knex, names);
    }
  }

  async function apply(events: ProjectedEvent[]): Promise<void> {
    await db.knex.transaction(async (trx: Knex.Transaction) => {
      for (const event of events) for (const p of projectors) await p.apply(trx, [event], names);
    });
  }

  async function ids(q: string, options: Partial<VoucherSearchQuery> = {}): Promise<number[]> {
    const page = await search.search({ q, channel: 'APP', page: 0, size: 100, ...options }, { merchantId: 'M1' });
    return page.content.map((v) => v.id);
  }

  /** Every row of the search tables, in key order. */
  async function snapshot(): Promise<Record<string, unknown[]>> {
    return {
      pools: await db.knex('shop_voucher_search').orderBy('pool_id'),
      campaigns: await db.knex('shop_voucher_search_campaigns').orderBy('campaign_id'),
      words: await db.knex('shop_voucher_search_words').orderBy(['deletion_key', 'word']),
      vocabulary: await db.knex('shop_voucher_search_vocabulary').orderBy('word'),
      changes: await db.knex('shop_voucher_search_changes'),
    };
  }

  describe('the projection', () => {
    before(async () => {
      await freshTables();
      await apply(base);
    });

    it('stores the searched text lower-cased with its diacritics and folded, padded with spaces, title and brand first', async () => {
      const row = await db.knex('shop_voucher_search').where({ pool_id: 212 }).first();
      expect(row).to.include({
        pool_words: ' khuyến mãi trà sữa  thương hiệu  áp dụng toàn quốc ',
        words_title_end: 20,
        words_brand_end: 33,
        pool_folded: ' khuyen mai tra sua  thuong hieu  ap dung toan quoc ',
        folded_title_end: 20,
        folded_brand_end: 33,
        campaign_name_words: ' mùa hè rực rỡ ',
        campaign_name_folded: ' mua he ruc ro ',
        campaign_status: 'ACTIVE',
        campaign_type: 'SELL',
        campaign_tag: 'HOT_DEAL',
        campaign_display_priority: 1,
        pool_deleted: false,
      });
    });

    it('keeps the position of the last change to what the search finds', async () => {
      const { last_change_position } = await db.knex('shop_voucher_search_changes').first();
      expect(last_change_position).to.equal(base.at(-1)!.position); // the last activation reached pool 241
    });

    it('gives a pool that arrived before its campaign the campaign fields once the campaign arrives', async () => {
      const row = await db.knex('shop_voucher_search').where({ pool_id: 241 }).first();
      expect(row).to.include({ campaign_name_folded: ' dien anh ', campaign_status: 'ACTIVE', campaign_type: 'SELL' });
    });

    it('indexes the keys of the folded words of the pool and of its campaign name, and keeps every such word with its key', async () => {
      const row = await db.knex('shop_voucher_search').where({ pool_id: 212 }).first();
      const keysOf = (folded: string) => [...new Set(folded.trim().split(' '))].map(wordKey);
      expect(row.pool_word_keys).to.deep.equal(keysOf('khuyen mai tra sua thuong hieu ap dung toan quoc'));
      expect(row.campaign_name_word_keys).to.deep.equal(keysOf('mua he ruc ro'));
      const vocabulary = await db
        .knex('shop_voucher_search_vocabulary')
        .whereIn('word', ['khuyen', 'ro', 'dien', 'cgv'])
        .orderBy('word');
      expect(vocabulary).to.deep.equal(
        ['cgv', 'dien', 'khuyen', 'ro'].map((word) => ({ word, word_key: wordKey(word) })),
      );
    });

    it('keeps the typo vocabulary: words of four or more letters under themselves and their deletion keys', async () => {
      const under = async (key: string) =>
        (await db.knex('shop_voucher_search_words').where({ deletion_key: key }).pluck('word')).sort();
      expect(await under('samsung')).to.deep.equal(['samsung']);
      expect(await under('samung')).to.deep.equal(['samsung']);
      expect(await under('highands')).to.deep.equal(['highlands']);
      expect(await under('pho')).to.deep.equal([]); // three letters: not typo-tolerant
    });

    it('changes nothing when the whole history, or part of it, is delivered again', async () => {
      const once = await snapshot();
      await apply(base);
      await apply([base[5]!, base[1]!, base[14]!, base[14]!]);
      expect(await snapshot()).to.deep.equal(once);
    });

    it('gives the same rows when every event is delivered twice in a row', async () => {
      const once = await snapshot();
      await freshTables();
      await apply(base.flatMap((e) => [e, e]));
      expect(await snapshot()).to.deep.equal(once);
    });
  });

  describe('the search', () => {
    before(async () => {
      await freshTables();
      await apply(base);
    });

    it('ranks a title match above a campaign name match, above a brand match, above a description match', async () => {
      expect(await ids('highlands')).to.deep.equal([222, 221, 223, 224]);
      expect(await ids('samsung')).to.deep.equal([201, 202, 203]);
    });

    it('finds text with diacritics from a keyword without them, in any case', async () => {
      expect(await ids('khuyen mai')).to.include.members([211, 212, 213]);
      expect(await ids('DIEN THOAI')).to.deep.equal([203]);
      expect(await ids('ca phe sua da')).to.deep.equal([221]);
    });

    it('ranks the spelling as typed, diacritics included, above other spellings', async () => {
      expect(await ids('khuyến mãi')).to.deep.equal([212, 211, 213]);
      expect(await ids('khuyen mai')).to.deep.equal([211, 212, 213]);
      expect(await ids('khuyên mại')).to.deep.equal([213, 211, 212]);
    });

    it('treats a decomposed (NFD) keyword like a composed one', async () => {
      expect(await ids('khuyến mãi'.normalize('NFD'))).to.deep.equal([212, 211, 213]);
      expect(await ids('Điện thoại'.normalize('NFD'))).to.deep.equal([203]);
    });

    it('finds words by their beginning, as a user types', async () => {
      expect(await ids('highl')).to.deep.equal([222, 221, 223, 224]);
      expect(await ids('dien tho')).to.deep.equal([203]);
      expect(await ids('dien th')).to.have.members([201, 203, 241]); // "th" also starts tháng and thương
      expect(await ids('ve xem ph')).to.deep.equal([241]);
    });

    it('needs every keyword word, in any of the fields', async () => {
      expect(await ids('samsung galaxy')).to.deep.equal([201]);
      expect(await ids('samsung fpt')).to.deep.equal([203]);
      expect(await ids('tra sua highlands')).to.deep.equal([]);
    });

    it('forgives one typo in words of five letters or more, ranked below exact spellings', async () => {
      expect(await ids('hihglands')).to.deep.equal([222, 221, 223, 224]); // swapped letters
      expect(await ids('highlnds')).to.deep.equal([222, 221, 223, 224]); // a letter missing
      expect(await ids('samsong')).to.deep.equal([201, 202, 203]); // a letter replaced
      expect(await ids('phuc lonh')).to.deep.equal([]); // "lonh": four letters, no typo forgiven
      expect(await ids('phuc long')).to.deep.equal([224]);
      expect(await ids('hgihlnads')).to.deep.equal([]); // more than one typo
    });

    it('filters by campaign tag', async () => {
      expect(await ids('phieu', { tags: ['FLASH_SALE'] })).to.deep.equal([202, 203]);
      expect(await ids('highlands', { tags: ['FLASH_SALE'] })).to.deep.equal([]);
    });

    it('leaves out pools that are deleted or whose campaign is not ACTIVE, not SELL or outside its window', async () => {
      expect(await ids('highlands')).to.not.include.members([231]);
      for (const id of [231, 232, 233, 234]) expect(await ids('highlands')).to.not.include(id);
      expect(await ids('nhap')).to.deep.equal([]);
      expect(await ids('qua tang')).to.deep.equal([203]);
    });

    it('pages the ranked results with the total of all matches', async () => {
      const page = (n: number, size: number) =>
        search.search({ q: 'highlands', channel: 'APP', page: n, size }, { merchantId: 'M1' });
      const first = await page(0, 3);
      expect(first.content.map((v) => v.id)).to.deep.equal([222, 221, 223]);
      expect(first.page).to.deep.equal({ size: 3, number: 0, totalElements: 4, totalPages: 2 });
      const second = await page(1, 3);
      expect(second.content.map((v) => v.id)).to.deep.equal([224]);
      const beyond = await page(5, 3);
      expect(beyond.content).to.deep.equal([]);
      expect(beyond.page).to.deep.equal({ size: 3, number: 5, totalElements: 4, totalPages: 2 });
    });

    it('knows the next moment a listable campaign starts or ends', async () => {
      const readModel = new PostgresVoucherSearchReadModel(db.knex, idleFeed, 'shop-voucher-search');
      await apply(
        projected([
          campaign(8, 'Sắp tới', { startAt: '2026-07-01T00:00:00.000Z', endAt: '2026-08-01T00:00:00.000Z' }),
          ...activated(8),
        ]),
      );
      expect(await readModel.nextWindowChange(now)).to.deep.equal(new Date('2026-07-01T00:00:00.000Z'));
      expect(await readModel.nextWindowChange(new Date('2026-07-15T00:00:00.000Z'))).to.deep.equal(
        new Date('2026-08-01T00:00:00.000Z'),
      );
      expect(await readModel.nextWindowChange(new Date('2026-09-01T00:00:00.000Z'))).to.deep.equal(
        new Date('2027-01-01T00:00:00.000Z'),
      );
      expect(await readModel.nextWindowChange(new Date('2028-01-01T00:00:00.000Z'))).to.equal(null);
    });

    it('checks the candidates found by word keys against the text: a word that only shares its key with the keyword is not found', async () => {
      expect(wordKey('glbpp')).to.equal(wordKey('yaczf')); // two words of one 32-bit FNV-1a hash
      await apply(projected([pool(251, 1, 'Glbpp quà tặng'), pool(252, 1, 'Yaczf quà tặng')]));
      expect(await ids('glbpp')).to.deep.equal([251]);
      expect(await ids('yaczf')).to.deep.equal([252]);
      expect(await ids('qua tang glbpp')).to.deep.equal([251]);
    });

    it('finds nothing for a keyword without letters or digits', async () => {
      expect(await ids('?!')).to.deep.equal([]);
    });

    it('follows display updates and campaign renames', async () => {
      await apply(
        projected([
          {
            type: 'VoucherPoolDisplayUpdated',
            data: { poolId: 223, display: display('Bánh mì Huỳnh Hoa', 'Huỳnh Hoa', 'Sài Gòn'), updatedAt: created },
          },
          {
            type: 'CampaignDetailsUpdated',
            data: {
              campaignId: 6,
              name: 'Tuần lễ cà phê',
              description: 'Ưu đãi',
              campaignTag: 'FLASH_SALE',
              displayPriority: 5,
              themeUrl: 'https://cdn.example.vn/theme.png',
              startAt: '2026-01-01T00:00:00.000Z',
              endAt: '2027-01-01T00:00:00.000Z',
              presale: null,
              updatedAt: created,
            },
          },
        ]),
      );
      expect(await ids('highlands')).to.deep.equal([222, 224]);
      expect(await ids('huynh hoa')).to.deep.equal([223]);
      expect(await ids('tuan le ca phe', { tags: ['FLASH_SALE'] })).to.deep.equal([221]);
      expect(await ids('hunyh')).to.deep.equal([223]); // a new word is in the typo vocabulary too
    });
  });
});
