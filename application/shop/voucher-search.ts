/**
 * Voucher search (endpoint 3 of the shop interface): a keyword over campaign
 * name, voucher title, brand name and description, insensitive to case,
 * Unicode normalisation and Vietnamese diacritics, as a user types (every
 * keyword word finds the words it starts), forgiving one typo in words of five
 * letters or more. Reads the search read model, which is eventually
 * consistent with the event store; the vouchers of a page come from the
 * catalog (CatalogQueries.vouchersByIds), which applies the same visibility.
 *
 * Ranking, per keyword word, the best of its matches over the fields (the
 * sum over the words orders the results; ties: campaign displayPriority,
 * then pool id):
 *   found as typed, diacritics included (or their absence) ... 20 + field weight
 *   found folded (diacritics and case ignored)            ... 10 + field weight
 *   found only through one typo                             ...  0 + field weight
 * field weights: title 4, campaign name 3, brand name 2, description 1.
 */
import { searchTerms, withinOneTypo, type SearchTerm } from '../../domain/shop/vietnamese-text.js';
import type { Clock } from '../shared/clock.js';
import { BoundedCache } from './bounded-cache.js';
import type { CatalogCaller, CatalogQueries, Page, PageRequest, ShopChannel, ShopVoucherResponse } from './catalog-queries.js';

/** Shortest keyword, in Unicode code points of the trimmed NFC text (domain keywordLength). */
export const minimumKeywordLength = 2;
export const searchPageSize = { defaultSize: 20, maxSize: 100 };

/** A keyword word with the vocabulary words one typo away from it (folded). */
export interface RankedTerm extends SearchTerm {
  typos: string[];
}

export interface VoucherSearchCriteria {
  /** Every term must match (in any of the fields). */
  terms: RankedTerm[];
  /** Campaign tags, any of; no filter when undefined. */
  tags?: string[];
  /** Visibility as in the catalog: pool not deleted, campaign ACTIVE, type SELL, now in [startAt, endAt). */
  now: Date;
  offset: number;
  limit: number;
}

export interface VoucherSearchReadModel {
  /** Pool ids of the slice, best first (see the ranking above), and how many pools match in all. */
  search(criteria: VoucherSearchCriteria): Promise<{ poolIds: number[]; total: number }>;
  /**
   * Vocabulary words that may be one typo away from each of `words` (they
   * share a deletion key): a superset, to be checked with withinOneTypo.
   */
  typoCandidates(words: string[]): Promise<Map<string, string[]>>;
  /** Changes whenever the read model does: cached results of another version are not used. */
  version(): Promise<string>;
}

export interface VoucherSearchQuery extends PageRequest {
  q: string;
  /** Campaign tags, any of (the tag filter). */
  tags?: string[];
  channel: ShopChannel;
}

type SearchIds = Awaited<ReturnType<VoucherSearchReadModel['search']>>;

interface CachedIds {
  /** Of the read model the ids were read from. */
  version: string;
  /** Clock time (ms) of the search. */
  at: number;
  ids: Promise<SearchIds>;
  /** A search to replace these ids is under way. */
  refreshing: boolean;
}

export interface VoucherSearchOptions {
  /**
   * How long a page of results (pool ids and total) is reused while the read
   * model has not changed (default 5 s; 0 disables the cache). For up to as
   * long again it is still answered while one search refreshes it, so a
   * campaign window opening or closing shows at most twice this late.
   */
  cacheTtlMs?: number;
  /** Most cached pages (default 2000). */
  cacheEntries?: number;
}

/**
 * Searches, reusing the ranked ids of a page for identical searches while the
 * read model is unchanged: a popular keyword costs one small query instead of
 * a ranking over every match. Concurrent identical searches share one query.
 * Vouchers are read afresh each time (stock, the caller's purchases).
 */
export class VoucherSearch {
  private readonly cache: BoundedCache<string, CachedIds>;
  private readonly cacheTtlMs: number;
  private versionRead: Promise<string> | undefined;

  constructor(
    private readonly deps: { readModel: VoucherSearchReadModel; catalog: Pick<CatalogQueries, 'vouchersByIds'>; clock: Clock },
    options: VoucherSearchOptions = {},
  ) {
    this.cacheTtlMs = options.cacheTtlMs ?? 5000;
    this.cache = new BoundedCache(options.cacheEntries ?? 2000);
  }

  /** The keyword must be at least minimumKeywordLength long (checked by the caller); one without any letter or digit finds nothing. */
  async search(query: VoucherSearchQuery, caller: CatalogCaller): Promise<Page<ShopVoucherResponse>> {
    const now = this.deps.clock.now();
    const terms = searchTerms(query.q);
    const { poolIds, total } = terms.length === 0 ? { poolIds: [], total: 0 } : await this.rankedIds(terms, query, now);
    const content = await this.deps.catalog.vouchersByIds(poolIds, { channel: query.channel, userId: caller.userId, merchantId: caller.merchantId, now });
    return { content, page: { size: query.size, number: query.page, totalElements: total, totalPages: Math.ceil(total / query.size) } };
  }

  private async rankedIds(terms: SearchTerm[], query: VoucherSearchQuery, now: Date): Promise<SearchIds> {
    const offset = query.page * query.size;
    const run = async () => this.deps.readModel.search({ terms: await this.withTypos(terms), tags: query.tags, now, offset, limit: query.size });
    if (this.cacheTtlMs <= 0) return run();
    const key = JSON.stringify([terms.map((t) => t.typed), query.tags ?? null, offset, query.size]);
    const version = await this.version();
    const cached = this.cache.get(key);
    const age = cached && cached.version === version ? now.getTime() - cached.at : Infinity;
    if (age >= 0 && age < this.cacheTtlMs) return cached!.ids;
    if (age >= 0 && age < 2 * this.cacheTtlMs) {
      // Still the same read model, only older than the TTL: answer from it while one search refreshes it.
      const stale = cached!;
      if (!stale.refreshing) {
        stale.refreshing = true;
        run().then(
          (ids) => this.cache.set(key, { version, at: now.getTime(), ids: Promise.resolve(ids), refreshing: false }),
          () => {
            stale.refreshing = false;
          },
        );
      }
      return stale.ids;
    }
    return this.remember(key, version, now, run());
  }

  /** Caches the coming ids under `key`, for identical searches meanwhile too; forgets them if the search fails. */
  private remember(key: string, version: string, now: Date, ids: Promise<SearchIds>): Promise<SearchIds> {
    const entry: CachedIds = { version, at: now.getTime(), ids, refreshing: false };
    this.cache.set(key, entry);
    ids.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return ids;
  }

  private async withTypos(terms: SearchTerm[]): Promise<RankedTerm[]> {
    const tolerant = terms.filter((t) => t.typoTolerant).map((t) => t.folded);
    const candidates = tolerant.length > 0 ? await this.deps.readModel.typoCandidates(tolerant) : new Map<string, string[]>();
    return terms.map((t) => ({
      ...t,
      typos: t.typoTolerant ? (candidates.get(t.folded) ?? []).filter((word) => word !== t.folded && withinOneTypo(word, t.folded)) : [],
    }));
  }

  /** Concurrent searches share one read of the version. */
  private version(): Promise<string> {
    this.versionRead ??= this.deps.readModel.version().finally(() => {
      this.versionRead = undefined;
    });
    return this.versionRead;
  }
}
