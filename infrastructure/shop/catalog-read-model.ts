import type { Knex } from 'knex';
import type {
  Buyer,
  CampaignFilter,
  CatalogCampaignRecord,
  CatalogReadModel,
  CatalogVoucherRecord,
  ShopChannel,
  Slice,
  VoucherFilter,
} from '../../application/shop/catalog-queries.js';
import type { CampaignBanner } from '../../domain/shop/campaign.js';
import type { Currency } from '../../domain/shop/events.js';
import { BoundedCache } from '../../application/shop/bounded-cache.js';
import { preparedRows } from '../shared/prepared-query.js';
import { ChangeTrackedCache, type ChangeSource } from '../shared/read-model-changes.js';
import { buyerKey } from '../../projections/shop/voucher-inventory.js';
import { pageCampaigns, rank, type CountedCampaign, type Ranking } from './catalog-ranking.js';

/**
 * The catalog read models (projections/shop/catalog.ts) in PostgreSQL, one
 * statement per read.
 *
 * A voucher page (order: campaign displayPriority, campaign id, pool id) is
 * found through the pool counts the projector keeps per campaign (and per
 * campaign and category), which carry the campaign's status, window, tag and
 * priority: the live campaigns matching the filters, read from that one
 * table, get a running total of their matching pools in that order (the
 * ranking, catalog-ranking.ts), whose end is totalElements; only the
 * campaigns the page overlaps are then read from the listing table, each from
 * the right offset of its (campaign_id, pool_id) index. The counts are kept in
 * memory (over all categories, and per category) and reused while the counts
 * version, read in the same statement as each page, is the same and no
 * campaign window opened or closed; any campaign-level filter is applied to
 * them in memory. So a page usually reads a handful of index entries and no
 * count row, whatever the filters. While the counts keep changing (a bulk
 * load), a page is ranked and read in one statement instead.
 *
 * Vouchers themselves are put together from parts kept in memory: a pool's
 * (its listing row, under `p<poolId>`) and its campaign's (under
 * `c<campaignId>`), each dropped when the catalog projector announces a
 * change of it (infrastructure/shared/read-model-changes.ts). A voucher read
 * by id then costs no statement at all, a page seen at the current counts
 * version none either; what each buyer holds is kept the same way, dropped
 * when the inventory projector announces the buyer. Whether a voucher is
 * listed at `now` is decided from the parts, so they need no clock.
 *
 * Right after a bulk load the tables have no statistics yet, and a join the
 * planner orders from guesses can cost seconds; so every join here is a
 * LATERAL lookup with LIMIT from the side known to be small, which leaves the
 * planner no order to choose.
 */

interface ListingRow {
  pool_id: number;
  campaign_id: number;
  category_id: number;
  mini_app_ids: string[];
  title: string;
  short_title: string;
  brand_name: string;
  logo_url: string;
  banner_url: string;
  thumbnail_url: string;
  description: string;
  face_value: number;
  selling_price: number;
  discounted_price: number | null;
  currency: Currency;
  total_quantity: number;
  remaining_quantity: number;
  usage_type: 'ONLINE' | 'OFFLINE';
  terms_and_conditions: string;
  validity_days: number;
  usage_limit: number | null;
  max_per_day: number | null;
  max_per_order: number | null;
  /** Times of vouchers come as ISO 8601 text (isoText), ready for the response. */
  validity_start_at: string | null;
  validity_end_at: string | null;
  campaign_name: string;
  campaign_tag: string;
  campaign_display_priority: number;
  campaign_start_at: string;
  campaign_end_at: string;
}

interface CampaignRow {
  campaign_id: number;
  code: string;
  name: string;
  description: string;
  campaign_tag: string;
  display_priority: number;
  theme_url: string;
  start_at: Date;
  end_at: Date;
  presale_enabled: boolean | null;
  presale_start_at: Date | null;
  presale_countdown_enabled: boolean | null;
  presale_teaser_text: string | null;
  presale_teaser_image_url: string | null;
  /** json_agg output: times as text, ids as numbers. */
  banners: {
    id: number;
    channelCode: CampaignBanner['channelCode'];
    positionCode: CampaignBanner['positionCode'];
    assetUrl: string;
    assetType: CampaignBanner['assetType'];
    altText: string;
    clickUrl: string | null;
    displayOrder: number;
  }[];
  pool_count: number;
  in_stock_count: number;
  sold_quantity: number;
}

/**
 * A timestamptz column as the responses write times, ISO 8601 in UTC with milliseconds (as Date.toISOString):
 * formatted by PostgreSQL, so the rows of a page need no date parsing and formatting in the process.
 */
const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The pool's columns of a voucher (alias l) and its campaign's (alias c), named as ListingRow. */
const voucherColumns = [
  'pool_id',
  'campaign_id',
  'category_id',
  'mini_app_ids',
  'title',
  'short_title',
  'brand_name',
  'logo_url',
  'banner_url',
  'thumbnail_url',
  'description',
  'face_value',
  'selling_price',
  'discounted_price',
  'currency',
  'total_quantity',
  'remaining_quantity',
  'usage_type',
  'terms_and_conditions',
  'validity_days',
  'usage_limit',
  'max_per_day',
  'max_per_order',
]
  .map((c) => `l.${c}`)
  .concat([
    `${isoText('l.validity_start_at')} AS validity_start_at`,
    `${isoText('l.validity_end_at')} AS validity_end_at`,
    'c.name AS campaign_name',
    'c.campaign_tag',
    'c.display_priority AS campaign_display_priority',
    `${isoText('c.start_at')} AS campaign_start_at`,
    `${isoText('c.end_at')} AS campaign_end_at`,
  ])
  .join(', ');

/**
 * The pool counts of the live campaigns as read at one counts version; they
 * hold for `now` in [from, until), no campaign window opening or closing in
 * between. Loaded per need: over all categories, or per category.
 */
interface CountsEpoch {
  version: string;
  from: number;
  until: number;
  all?: CountedCampaign[];
  byCategory: Map<number, CountedCampaign[]>;
  /** Rankings worked out from these counts, by filter (at most maxRankings). */
  rankings: BoundedCache<string, Ranking>;
  /** The pool ids of pages read at this version, by filter and slice (at most maxRankings), to be used while no change of the version was announced. */
  pages: BoundedCache<string, number[]>;
}

/** A pool's part of a voucher, kept under `p<poolId>`. */
interface PoolPart {
  campaignId: number;
  deleted: boolean;
  record: Omit<CatalogVoucherRecord, 'campaign' | 'purchased'>;
}

/** A campaign's part of its vouchers, kept under `c<campaignId>`: listed while selling and now is in [from, until). */
interface CampaignPart {
  selling: boolean;
  from: number;
  until: number;
  campaign: CatalogVoucherRecord['campaign'];
}

type Purchased = NonNullable<CatalogVoucherRecord['purchased']>;

/** What a buyer holds, kept under buyerKey: per pool, the quantity per purchase day. */
type Holdings = Map<number, { day: string; quantity: number }[]>;

/** Buyers whose holdings are kept. */
const cachedBuyers = 10_000;

/** The projectors whose announcements keep the cached parts right. */
export interface CatalogSources {
  /** Announces `p<poolId>`, `c<campaignId>` and `counts` (projections/shop/catalog.ts). */
  catalog: string;
  /** Announces the buyers whose purchases changed (projections/shop/voucher-inventory.ts). */
  inventory: string;
}

/** Rankings kept per counts epoch: a ranking walks every live campaign, the listing's main cost in the process. */
const maxRankings = 1000;

/** A piece of SQL and its bindings. */
interface Sql {
  text: string;
  bindings: Knex.RawBinding[];
}

const sql = (text: string, ...bindings: Knex.RawBinding[]): Sql => ({ text, bindings });

/** The pieces joined by `separator`, bindings in order. */
function join(pieces: Sql[], separator: string): Sql {
  return { text: pieces.map((p) => p.text).join(separator), bindings: pieces.flatMap((p) => p.bindings) };
}

/**
 * Placeholders for ids bound one by one (one statement per count, at most a page's size): PostgreSQL then settles on
 * a generic plan and stops planning the statement at each call, which it never does for an array of unknown length.
 */
const scalars = (ids: readonly number[]) => ids.map(() => '?').join(', ');

/** A voucher filter as a key of the rankings and pages kept. */
const filterKey = (filter: VoucherFilter) =>
  JSON.stringify([
    filter.categoryIds ?? null,
    filter.tags ?? null,
    filter.campaignIds ?? null,
    filter.excludeCampaignIds ?? null,
  ]);

/**
 * Conditions on campaign `c` for its vouchers to be listed at `now`, and the
 * campaign-level filters; `c` is a shop_campaigns row or a count row (which
 * carries the same campaign columns).
 */
function listedCampaign(
  now: Date,
  filter: Pick<VoucherFilter, 'tags' | 'campaignIds' | 'excludeCampaignIds'> = {},
): Sql {
  const conditions = [sql(`c.status = 'ACTIVE' AND c.type = 'SELL' AND c.start_at <= ? AND c.end_at > ?`, now, now)];
  if (filter.tags) conditions.push(sql('c.campaign_tag = ANY(?::text[])', filter.tags));
  if (filter.campaignIds) conditions.push(sql('c.campaign_id = ANY(?::bigint[])', filter.campaignIds));
  if (filter.excludeCampaignIds) conditions.push(sql('c.campaign_id <> ALL(?::bigint[])', filter.excludeCampaignIds));
  return join(conditions, ' AND ');
}

/** Campaign `c` (a shop_campaigns row) is shown at `now`. */
const shownCampaign = (now: Date) =>
  sql(`c.status = 'ACTIVE' AND c.type = 'SELL' AND c.shown_from <= ? AND c.end_at > ?`, now, now);

/** Pool-level conditions on listing row `l`. */
function listedPool(filter: Pick<VoucherFilter, 'categoryIds'> = {}): Sql {
  const conditions = [sql('NOT l.deleted')];
  if (filter.categoryIds) conditions.push(sql('l.category_id = ANY(?::bigint[])', filter.categoryIds));
  return join(conditions, ' AND ');
}

const iso = (d: Date) => d.toISOString();

/**
 * Parts are shared by every answer that shows them, so they are frozen, down
 * to their leaves: nothing can change one in place (and the API reuses the
 * JSON of frozen objects, api/shop/voucher-json.ts).
 */
const { freeze } = Object;
/** Freezes `items` in place; typed as it was, as the record's fields are. */
const frozenList = <T>(items: T[]): T[] => (freeze(items), items);

function poolPart(r: ListingRow & { deleted: boolean }): PoolPart {
  return {
    campaignId: r.campaign_id,
    deleted: r.deleted,
    record: freeze({
      poolId: r.pool_id,
      categoryId: r.category_id,
      miniAppIds: frozenList(r.mini_app_ids),
      display: freeze({
        title: r.title,
        shortTitle: r.short_title,
        brandName: r.brand_name,
        logoUrl: r.logo_url,
        bannerUrl: r.banner_url,
        thumbnailUrl: r.thumbnail_url,
        description: r.description,
      }),
      pricing: freeze({
        faceValue: r.face_value,
        sellingPrice: r.selling_price,
        discountedPrice: r.discounted_price,
        currency: r.currency,
      }),
      totalQuantity: r.total_quantity,
      remainingQuantity: r.remaining_quantity,
      validity:
        r.validity_start_at && r.validity_end_at
          ? freeze({ startAt: r.validity_start_at, endAt: r.validity_end_at })
          : null,
      terms: freeze({
        usageType: r.usage_type,
        termsAndConditions: r.terms_and_conditions,
        validityDays: r.validity_days,
        usageLimit: r.usage_limit,
        maxPerDay: r.max_per_day,
        maxPerOrder: r.max_per_order,
      }),
    }),
  };
}

function campaignPart(r: ListingRow & { selling: boolean }): CampaignPart {
  return {
    selling: r.selling,
    from: Date.parse(r.campaign_start_at),
    until: Date.parse(r.campaign_end_at),
    campaign: freeze({
      id: r.campaign_id,
      name: r.campaign_name,
      tag: r.campaign_tag,
      displayPriority: r.campaign_display_priority,
      startAt: r.campaign_start_at,
      endAt: r.campaign_end_at,
    }),
  };
}

/** A voucher row of a statement that lists it (listing and campaign columns). */
function voucherRecord(r: ListingRow): CatalogVoucherRecord {
  const { record } = poolPart({ ...r, deleted: false });
  return { ...record, campaign: campaignPart({ ...r, selling: true }).campaign };
}

function campaignRecord(r: CampaignRow): CatalogCampaignRecord {
  return {
    id: r.campaign_id,
    code: r.code,
    name: r.name,
    description: r.description,
    campaignTag: r.campaign_tag,
    displayPriority: r.display_priority,
    themeUrl: r.theme_url,
    startAt: iso(r.start_at),
    endAt: iso(r.end_at),
    presale:
      r.presale_enabled === null
        ? null
        : {
            enabled: r.presale_enabled,
            startAt: iso(r.presale_start_at!),
            countdownEnabled: r.presale_countdown_enabled!,
            teaserText: r.presale_teaser_text!,
            teaserImageUrl: r.presale_teaser_image_url!,
          },
    banners: r.banners,
    pools: { total: r.pool_count, inStock: r.in_stock_count, sold: r.sold_quantity },
  };
}

export class PostgresCatalogReadModel implements CatalogReadModel {
  private epoch: CountsEpoch | undefined;
  private readonly parts: ChangeTrackedCache<PoolPart | CampaignPart>;
  /** The counts version last read, under `counts`: while it is the epoch's, the epoch's pages hold. */
  private readonly countsVersion: ChangeTrackedCache<string>;
  private readonly holdings: ChangeTrackedCache<Holdings>;

  /** Bumped at each start of warming: a run that sees another number stops. */
  private warming = 0;

  /**
   * `changes`: the projectors' announcements, which keep what is cached right; `cachedParts` pool and campaign parts
   * are kept at most; with `warm`, they are filled in the background whenever the cache starts afresh (warm).
   */
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeSource,
    private readonly options: { sources: CatalogSources; cachedParts: number; warm?: boolean },
  ) {
    this.parts = new ChangeTrackedCache(changes, options.sources.catalog, options.cachedParts);
    this.countsVersion = new ChangeTrackedCache(changes, options.sources.catalog, maxRankings);
    this.holdings = new ChangeTrackedCache(changes, options.sources.inventory, cachedBuyers);
    if (options.warm) {
      changes.subscribe(options.sources.catalog, (keys) => {
        // Warming is best effort: a failed read leaves the parts to be read when asked for.
        if (keys === '*') this.warm(++this.warming).catch(() => undefined);
      });
    }
  }

  /**
   * Reads the parts of the vouchers of ACTIVE SELL campaigns, not deleted, in pool id order, a chunk at a time,
   * until all are kept or the cache is full: so that a voucher asked for by id, whichever it is, is found in
   * memory. Each chunk is a statement of its own, so requests are served in between.
   */
  private async warm(run: number): Promise<void> {
    const chunk = 200;
    let after = 0;
    while (run === this.warming && this.changes.connected && this.parts.size < this.options.cachedParts) {
      const mark = this.parts.mark();
      const rows = await this.rows<ListingRow & { deleted: boolean; selling: boolean }>(
        sql(
          `SELECT ${voucherColumns}, l.deleted, true AS selling
           FROM shop_voucher_listings l
           CROSS JOIN LATERAL (SELECT * FROM shop_campaigns c WHERE c.campaign_id = l.campaign_id AND c.status = 'ACTIVE' AND c.type = 'SELL' LIMIT 1) c
           WHERE l.pool_id > ? AND NOT l.deleted ORDER BY l.pool_id LIMIT ?`,
          after,
          chunk,
        ),
      );
      if (run !== this.warming) return;
      for (const row of rows) this.keep(row, mark);
      if (rows.length < chunk) return;
      after = rows[rows.length - 1]!.pool_id;
    }
  }

  /** Keeps the parts of a voucher read after `mark`. */
  private keep(row: ListingRow & { deleted: boolean; selling: boolean }, mark: number): [PoolPart, CampaignPart] {
    const parts: [PoolPart, CampaignPart] = [poolPart(row), campaignPart(row)];
    this.parts.put(`p${row.pool_id}`, parts[0], mark);
    this.parts.put(`c${row.campaign_id}`, parts[1], mark);
    return parts;
  }

  async listVouchers(
    filter: VoucherFilter,
    now: Date,
    slice: Slice,
    buyer?: Buyer,
  ): Promise<{ records: CatalogVoucherRecord[]; total: number }> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const counts = await this.countsFor(filter.categoryIds, now);
      if (!counts) continue;
      const key = filterKey(filter);
      const ranking = this.rankingOf(counts, key, filter);
      const page = await this.pageOf(
        ranking,
        counts.epoch,
        `${key}|${slice.offset}|${slice.limit}`,
        filter,
        slice,
        now,
        buyer,
      );
      if (page.version === counts.epoch.version) return { records: page.records, total: ranking.total };
      this.epoch = undefined;
    }
    // The counts keep moving (a bulk load under way): rank and read in one statement.
    return this.rankAndPage(filter, now, slice, buyer);
  }

  /**
   * The count lists `categoryIds` (or all categories) need at `now`, from the
   * epoch, loading what it lacks; undefined when the counts moved on while
   * some were kept (ask again).
   */
  private async countsFor(
    categoryIds: number[] | undefined,
    now: Date,
  ): Promise<{ epoch: CountsEpoch; lists: CountedCampaign[][] } | undefined> {
    const at = now.getTime();
    let epoch = this.epoch && at >= this.epoch.from && at < this.epoch.until ? this.epoch : undefined;
    const missing = categoryIds ? categoryIds.filter((id) => !epoch?.byCategory.has(id)) : epoch?.all ? [] : undefined;
    if (!missing || missing.length > 0) {
      const loaded = await this.loadCounts(now, missing);
      if (epoch && loaded.version !== epoch.version) {
        this.epoch = undefined;
        return undefined;
      }
      epoch ??= {
        version: loaded.version,
        from: loaded.from,
        until: loaded.until,
        byCategory: new Map(),
        rankings: new BoundedCache(maxRankings),
        pages: new BoundedCache(maxRankings),
      };
      if (missing) for (const id of missing) epoch.byCategory.set(id, loaded.byCategory.get(id) ?? []);
      else epoch.all = loaded.all;
      this.epoch = epoch;
    }
    const current = epoch!;
    return {
      epoch: current,
      lists: categoryIds ? categoryIds.map((id) => current.byCategory.get(id)!) : [current.all!],
    };
  }

  /** The ranking for `filter`, kept with the counts it comes from. */
  private rankingOf(
    counts: { epoch: CountsEpoch; lists: CountedCampaign[][] },
    key: string,
    filter: VoucherFilter,
  ): Ranking {
    const { rankings } = counts.epoch;
    let ranking = rankings.get(key);
    if (!ranking) {
      ranking = rank(counts.lists, filter);
      rankings.set(key, ranking);
    }
    return ranking;
  }

  /** One statement: the live campaigns' pool counts (all categories, or per category of `categoryIds`), the counts version and the window stretch around `now`. */
  private async loadCounts(
    now: Date,
    categoryIds: number[] | undefined,
  ): Promise<{
    version: string;
    from: number;
    until: number;
    all?: CountedCampaign[];
    byCategory: Map<number, CountedCampaign[]>;
  }> {
    const source = categoryIds
      ? sql('FROM shop_campaign_category_pool_counts c WHERE category_id = ANY(?::bigint[]) AND', categoryIds)
      : sql('FROM shop_campaign_pool_counts c WHERE');
    const query = join(
      [
        sql(
          `WITH windows AS (
             SELECT start_at AS at FROM shop_campaign_pool_counts WHERE status = 'ACTIVE' AND type = 'SELL'
             UNION ALL SELECT end_at FROM shop_campaign_pool_counts WHERE status = 'ACTIVE' AND type = 'SELL'
           )
           SELECT
             (SELECT epoch || ':' || version FROM shop_catalog_counts_version) AS version,
             (SELECT max(at) FROM windows WHERE at <= ?) AS window_from,
             (SELECT min(at) FROM windows WHERE at > ?) AS window_until,
             (SELECT coalesce(json_agg(json_build_array(campaign_id, campaign_tag, display_priority, pool_count, ${categoryIds ? 'category_id' : 'NULL'}) ORDER BY display_priority, campaign_id), '[]')`,
          now,
          now,
        ),
        source,
        sql('pool_count > 0 AND'),
        listedCampaign(now),
        sql(') AS counts'),
      ],
      '\n',
    );
    type Row = {
      version: string;
      window_from: Date | null;
      window_until: Date | null;
      counts: [number, string, number, number, number | null][];
    };
    const [row] = await this.rows<Row>(query);
    const byCategory = new Map<number, CountedCampaign[]>();
    const all: CountedCampaign[] = [];
    // In list order (the statement's), which each category's list keeps.
    for (const [id, tag, priority, pools, category] of row.counts) {
      const counted = { id, tag, priority, pools };
      if (category === null) all.push(counted);
      else if (byCategory.has(category)) byCategory.get(category)!.push(counted);
      else byCategory.set(category, [counted]);
    }
    return {
      version: row.version,
      from: row.window_from?.getTime() ?? -Infinity,
      until: row.window_until?.getTime() ?? Infinity,
      all: categoryIds ? undefined : all,
      byCategory,
    };
  }

  /**
   * The pool ids of a page, from the campaigns it overlaps in `ranking`, with the counts version they were read at
   * (kept in `epoch` under `pageKey` while no change of the version is announced); then its vouchers.
   */
  private async pageOf(
    ranking: Ranking,
    epoch: CountsEpoch,
    pageKey: string,
    filter: VoucherFilter,
    slice: Slice,
    now: Date,
    buyer: Buyer | undefined,
  ): Promise<{ version: string; records: CatalogVoucherRecord[] }> {
    const kept = this.countsVersion.get('counts') === epoch.version ? epoch.pages.get(pageKey) : undefined;
    const { version, ids } = kept
      ? { version: epoch.version, ids: kept }
      : await this.pageIds(ranking, epoch, pageKey, filter, slice);
    const [parts, purchased] = await Promise.all([this.partsOf(ids), buyer && this.purchasedOf(buyer, ids)]);
    return { version, records: this.assemble(ids, parts, now, purchased) };
  }

  private async pageIds(
    ranking: Ranking,
    epoch: CountsEpoch,
    pageKey: string,
    filter: VoucherFilter,
    slice: Slice,
  ): Promise<{ version: string; ids: number[] }> {
    const campaigns = pageCampaigns(ranking, slice);
    const mark = this.countsVersion.mark();
    const query = join(
      [
        sql(
          `SELECT v.epoch || ':' || v.version AS version, page.pool_id
           FROM shop_catalog_counts_version v
           LEFT JOIN LATERAL (
             SELECT l.pool_id, r.ord AS page_order
             FROM unnest(?::bigint[], ?::bigint[]) WITH ORDINALITY AS r(campaign_id, skip, ord)
             CROSS JOIN LATERAL (
               SELECT l.pool_id FROM shop_voucher_listings l WHERE l.campaign_id = r.campaign_id AND`,
          campaigns.map((c) => c.id),
          campaigns.map((c) => c.skip),
        ),
        listedPool(filter),
        sql(
          `ORDER BY l.pool_id OFFSET r.skip LIMIT ?
             ) l
             ORDER BY r.ord, l.pool_id
             LIMIT ?
           ) page ON true
           ORDER BY page.page_order, page.pool_id`,
          slice.limit,
          slice.limit,
        ),
      ],
      '\n',
    );
    const rows = await this.rows<{ version: string; pool_id: number | null }>(query);
    // A page past the end is one row, with the version and no pool.
    const version = rows[0]!.version;
    const ids = rows.flatMap((r) => (r.pool_id === null ? [] : [r.pool_id]));
    this.countsVersion.put('counts', version, mark);
    if (version === epoch.version) epoch.pages.set(pageKey, ids);
    return { version, ids };
  }

  /** The page and its total in one statement, ranking the campaigns in SQL: consistent however fast the counts change. */
  private async rankAndPage(
    filter: VoucherFilter,
    now: Date,
    slice: Slice,
    buyer: Buyer | undefined,
  ): Promise<{ records: CatalogVoucherRecord[]; total: number }> {
    // Per live campaign matching the filters, its matching pools: one count row, or its rows of the categories asked for.
    const matching = filter.categoryIds
      ? join(
          [
            sql(
              `SELECT campaign_id, display_priority, sum(pool_count)::int AS pools FROM shop_campaign_category_pool_counts c
                 WHERE category_id = ANY(?::bigint[]) AND`,
              filter.categoryIds,
            ),
            listedCampaign(now, filter),
            sql('GROUP BY campaign_id, display_priority HAVING sum(pool_count) > 0'),
          ],
          '\n',
        )
      : join(
          [
            sql(
              'SELECT campaign_id, display_priority, pool_count AS pools FROM shop_campaign_pool_counts c WHERE pool_count > 0 AND',
            ),
            listedCampaign(now, filter),
          ],
          '\n',
        );
    const query = join(
      [
        sql(
          'WITH ranked AS (SELECT m.*, sum(m.pools) OVER (ORDER BY m.display_priority, m.campaign_id ROWS UNBOUNDED PRECEDING) - m.pools AS before FROM (',
        ),
        matching,
        sql(
          `) m)
          SELECT (SELECT coalesce(sum(pools), 0)::int FROM ranked) AS total, page.*
          FROM (SELECT 1) AS one
          LEFT JOIN LATERAL (
            SELECT ${voucherColumns}
            FROM ranked r
            CROSS JOIN LATERAL (SELECT * FROM shop_campaigns c WHERE c.campaign_id = r.campaign_id LIMIT 1) c
            CROSS JOIN LATERAL (
              SELECT * FROM shop_voucher_listings l WHERE l.campaign_id = r.campaign_id AND`,
        ),
        listedPool(filter),
        sql(
          `ORDER BY l.pool_id OFFSET greatest(0, ?::bigint - r.before) LIMIT ?
            ) l
            WHERE r.before < ?::bigint AND r.before + r.pools > ?::bigint
            ORDER BY r.display_priority, r.campaign_id, l.pool_id
            LIMIT ?
          ) page ON true`,
          slice.offset,
          slice.limit,
          slice.offset + slice.limit,
          slice.offset,
          slice.limit,
        ),
        sql('ORDER BY page.campaign_display_priority, page.campaign_id, page.pool_id'),
      ],
      '\n',
    );
    const rows = await this.rows<ListingRow & { total: number }>(query);
    return {
      records: await this.withPurchases(rows.filter((r) => r.pool_id !== null).map(voucherRecord), buyer),
      total: rows[0]!.total,
    };
  }

  async vouchersByIds(poolIds: number[], now: Date, buyer?: Buyer): Promise<CatalogVoucherRecord[]> {
    const [parts, purchased] = await Promise.all([this.partsOf(poolIds), buyer && this.purchasedOf(buyer, poolIds)]);
    return this.assemble(poolIds, parts, now, purchased);
  }

  /** The vouchers of `poolIds` listed at `now`, in that order, with what the buyer holds of each when `purchased` is given. */
  private assemble(
    poolIds: number[],
    parts: Map<number, [PoolPart, CampaignPart]>,
    now: Date,
    purchased?: Map<number, Purchased>,
  ): CatalogVoucherRecord[] {
    const at = now.getTime();
    const records: CatalogVoucherRecord[] = [];
    for (const id of poolIds) {
      const [pool, campaign] = parts.get(id) ?? [];
      if (!pool || !campaign || pool.deleted || !campaign.selling || at < campaign.from || at >= campaign.until)
        continue;
      const record: CatalogVoucherRecord = { ...pool.record, campaign: campaign.campaign };
      if (purchased) record.purchased = purchased.get(id) ?? { daily: 0, total: 0 };
      records.push(record);
    }
    return records;
  }

  /** The parts of the vouchers of `poolIds` (those that exist), kept ones first, the others read and kept. */
  private async partsOf(poolIds: number[]): Promise<Map<number, [PoolPart, CampaignPart]>> {
    const found = new Map<number, [PoolPart, CampaignPart]>();
    const missing: number[] = [];
    for (const id of poolIds) {
      const pool = this.parts.get(`p${id}`) as PoolPart | undefined;
      const campaign = pool && (this.parts.get(`c${pool.campaignId}`) as CampaignPart | undefined);
      if (pool && campaign) found.set(id, [pool, campaign]);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const mark = this.parts.mark();
    const rows = await this.rows<ListingRow & { deleted: boolean; selling: boolean }>(
      sql(
        `SELECT ${voucherColumns}, l.deleted, c.status = 'ACTIVE' AND c.type = 'SELL' AS selling
         FROM shop_voucher_listings l
         CROSS JOIN LATERAL (SELECT * FROM shop_campaigns c WHERE c.campaign_id = l.campaign_id LIMIT 1) c
         WHERE l.pool_id IN (${scalars(missing)})`,
        ...missing,
      ),
    );
    for (const row of rows) found.set(row.pool_id, this.keep(row, mark));
    return found;
  }

  /** What `buyer` holds of each of `poolIds` (pools held by none are left out). */
  private async purchasedOf(buyer: Buyer, poolIds: number[]): Promise<Map<number, Purchased>> {
    const holdings = await this.holdingsOf(buyer);
    const purchased = new Map<number, Purchased>();
    for (const id of poolIds) {
      const days = holdings.get(id);
      if (days)
        purchased.set(id, {
          daily: days.reduce((n, d) => (d.day === buyer.day ? n + d.quantity : n), 0),
          total: days.reduce((n, d) => n + d.quantity, 0),
        });
    }
    return purchased;
  }

  /** `records` (made for this call) with what `buyer` holds of each, when a buyer was given. */
  private async withPurchases(
    records: CatalogVoucherRecord[],
    buyer: Buyer | undefined,
  ): Promise<CatalogVoucherRecord[]> {
    if (!buyer) return records;
    const purchased = await this.purchasedOf(
      buyer,
      records.map((r) => r.poolId),
    );
    for (const r of records) r.purchased = purchased.get(r.poolId) ?? { daily: 0, total: 0 };
    return records;
  }

  private async holdingsOf(buyer: Buyer): Promise<Holdings> {
    const key = buyerKey(buyer.merchantId, buyer.userId);
    const kept = this.holdings.get(key);
    if (kept) return kept;
    const mark = this.holdings.mark();
    const rows = await this.rows<{ pool_id: number; day: string; quantity: number }>(
      sql(
        `SELECT pool_id, to_char(day, 'YYYY-MM-DD') AS day, quantity FROM shop_user_pool_purchases WHERE merchant_id = ? AND user_id = ? AND quantity <> 0`,
        buyer.merchantId,
        buyer.userId,
      ),
    );
    const holdings: Holdings = new Map();
    for (const r of rows)
      holdings.set(r.pool_id, [...(holdings.get(r.pool_id) ?? []), { day: r.day, quantity: r.quantity }]);
    this.holdings.put(key, holdings, mark);
    return holdings;
  }

  async vouchersOfCampaigns(
    campaignIds: number[],
    perCampaign: number,
    now: Date,
    buyer?: Buyer,
  ): Promise<CatalogVoucherRecord[]> {
    const query = join(
      [
        sql(
          `SELECT ${voucherColumns}
           FROM unnest(?::bigint[]) AS ids(campaign_id)
           CROSS JOIN LATERAL (SELECT * FROM shop_campaigns c WHERE c.campaign_id = ids.campaign_id AND`,
          campaignIds,
        ),
        listedCampaign(now),
        sql(`LIMIT 1) c
             CROSS JOIN LATERAL (SELECT * FROM shop_voucher_listings l WHERE l.campaign_id = c.campaign_id AND`),
        listedPool(),
        sql('ORDER BY l.pool_id LIMIT ?) l', perCampaign),
        sql('ORDER BY c.campaign_id, l.pool_id'),
      ],
      '\n',
    );
    return this.withPurchases((await this.rows<ListingRow>(query)).map(voucherRecord), buyer);
  }

  async listCampaigns(
    filter: CampaignFilter,
    channel: ShopChannel,
    now: Date,
    slice: Slice,
  ): Promise<{ records: CatalogCampaignRecord[]; total: number }> {
    const conditions = [shownCampaign(now)];
    if (filter.tags) conditions.push(sql('c.campaign_tag = ANY(?::text[])', filter.tags));
    if (filter.carouselChannel) conditions.push(sql('? = ANY(c.carousel_channels)', filter.carouselChannel));
    const matching = join(conditions, ' AND ');
    const page = join(
      [
        sql('SELECT c.*, count(*) OVER ()::int AS total FROM shop_campaigns c WHERE'),
        matching,
        sql('ORDER BY c.display_priority, c.campaign_id OFFSET ? LIMIT ?', slice.offset, slice.limit),
      ],
      '\n',
    );
    const rows = await this.decoratedCampaigns(page, channel);
    // A page past the end has no row to carry the total.
    const total =
      rows.length > 0
        ? rows[0]!.total
        : (
            await this.rows<{ total: number }>(
              join([sql('SELECT count(*)::int AS total FROM shop_campaigns c WHERE'), matching], '\n'),
            )
          )[0]!.total;
    return { records: rows.map(campaignRecord), total };
  }

  async campaign(campaignId: number, channel: ShopChannel, now: Date): Promise<CatalogCampaignRecord | undefined> {
    const one = join(
      [sql('SELECT c.*, 1 AS total FROM shop_campaigns c WHERE c.campaign_id = ? AND', campaignId), shownCampaign(now)],
      '\n',
    );
    const [row] = await this.decoratedCampaigns(one, channel);
    return row && campaignRecord(row);
  }

  /** The (already paged) campaign rows of `campaigns`, with each campaign's banners of `channel` and its pool counts. */
  private async decoratedCampaigns(campaigns: Sql, channel: ShopChannel): Promise<(CampaignRow & { total: number })[]> {
    return this.rows<CampaignRow & { total: number }>(
      sql(
        `SELECT p.*,
           coalesce((
             SELECT json_agg(json_build_object('id', b.banner_id, 'channelCode', b.channel_code, 'positionCode', b.position_code,
               'assetUrl', b.asset_url, 'assetType', b.asset_type, 'altText', b.alt_text, 'clickUrl', b.click_url, 'displayOrder', b.display_order)
               ORDER BY b.display_order, b.banner_id)
             FROM shop_campaign_banners b WHERE b.campaign_id = p.campaign_id AND b.channel_code = ?
           ), '[]') AS banners,
           coalesce(n.pool_count, 0) AS pool_count, coalesce(n.in_stock_count, 0) AS in_stock_count, coalesce(n.sold_quantity, 0) AS sold_quantity
         FROM (${campaigns.text}) p
         LEFT JOIN LATERAL (SELECT * FROM shop_campaign_pool_counts n WHERE n.campaign_id = p.campaign_id LIMIT 1) n ON true
         ORDER BY p.display_priority, p.campaign_id`,
        channel,
        ...campaigns.bindings,
      ),
    );
  }

  /** Every read here is a prepared statement (infrastructure/shared/prepared-query.ts). */
  private rows<Row>(query: Sql): Promise<Row[]> {
    return preparedRows<Row>(this.knex, query.text, query.bindings);
  }
}
