import type { Knex } from 'knex';
import type { Buyer, CatalogVoucherRecord, Slice, VoucherFilter } from '../../application/shop/index.js';
import { BoundedCache } from '../../application/shared/bounded-cache.js';
import { ChangeTrackedCache, type ChangeSource } from '../shared/read-model-changes.js';
import type { BuyerHoldings } from './catalog-holdings.js';
import { pageCampaigns, rank, type CountedCampaign, type Ranking } from './catalog-ranking.js';
import { join, listedCampaign, listedPool, readRows, sql, voucherColumns, type ListingRow } from './catalog-sql.js';
import { voucherRecord, type VoucherParts } from './catalog-voucher-parts.js';

/**
 * Pages of the voucher list, and the first vouchers of given campaigns. Part
 * of the catalog read model (catalog-read-model.ts).
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
 * count row, whatever the filters, and a page seen at the current counts
 * version none at all (its vouchers come from the parts kept in memory,
 * catalog-voucher-parts.ts). While the counts keep changing (a bulk load), a
 * page is ranked and read in one statement instead.
 */

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

/** Rankings kept per counts epoch: a ranking walks every live campaign, the listing's main cost in the process. */
const maxRankings = 1000;

/** A voucher filter as a key of the rankings and pages kept. */
const filterKey = (filter: VoucherFilter) =>
  JSON.stringify([
    filter.categoryIds ?? null,
    filter.tags ?? null,
    filter.campaignIds ?? null,
    filter.excludeCampaignIds ?? null,
  ]);

/** The voucher list's pages, from the pool counts kept per counts epoch. */
export class VoucherPages {
  private epoch: CountsEpoch | undefined;
  /** The counts version last read, under `counts`: while it is the epoch's, the epoch's pages hold. */
  private readonly countsVersion: ChangeTrackedCache<string>;

  /** `source`: the catalog projector, which announces `counts` when the counts version may have moved. */
  constructor(
    private readonly knex: Knex,
    changes: ChangeSource,
    source: string,
    private readonly parts: VoucherParts,
    private readonly holdings: BuyerHoldings,
  ) {
    this.countsVersion = new ChangeTrackedCache(changes, source, maxRankings);
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
    const [row] = await readRows<Row>(this.knex, query);
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
    const [parts, purchased] = await Promise.all([
      this.parts.partsOf(ids),
      buyer && this.holdings.purchasedOf(buyer, ids),
    ]);
    return { version, records: this.parts.assemble(ids, parts, now, purchased) };
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
    const rows = await readRows<{ version: string; pool_id: number | null }>(this.knex, query);
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
    const rows = await readRows<ListingRow & { total: number }>(this.knex, query);
    return {
      records: await this.holdings.withPurchases(rows.filter((r) => r.pool_id !== null).map(voucherRecord), buyer),
      total: rows[0]!.total,
    };
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
    return this.holdings.withPurchases((await readRows<ListingRow>(this.knex, query)).map(voucherRecord), buyer);
  }
}
