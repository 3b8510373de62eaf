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
import { isDomainError, type DomainError } from '../../domain/shared/errors.js';
import {
  shopError,
  type CatalogErrorCode,
  keywordLength,
  searchTerms,
  withinOneTypo,
  type SearchTerm,
} from '../../domain/shop/index.js';
import type { Clock } from '../shared/clock.js';
import { BoundedCache } from '../shared/bounded-cache.js';
import type {
  CatalogCaller,
  CatalogQueries,
  Page,
  PageRequest,
  ShopChannel,
  ShopVoucherResponse,
} from './catalog-queries.js';

/**
 * The keyword: at least minLength characters (Unicode code points of the
 * trimmed NFC text; the spec's minimum, else KEYWORD_TOO_SHORT), at most
 * maxLength characters and maxWords words (this service's bounds on the
 * query's size, else INVALID_KEYWORD).
 */
export const keywordLimits = { minLength: 2, maxLength: 200, maxWords: 10 };
export const searchPageSize = { defaultSize: 20, maxSize: 100 };

/** The search was refused because its keyword is shorter than keywordLimits.minLength. */
export const isKeywordTooShort = (e: unknown): e is DomainError => isDomainError(e) && e.code === 'KEYWORD_TOO_SHORT';

function keywordTerms(q: string): SearchTerm[] {
  const length = keywordLength(q);
  const refuse = (code: CatalogErrorCode, rule: string) => shopError(code, `q must be ${rule}`, { field: 'q' });
  if (length < keywordLimits.minLength)
    throw refuse('KEYWORD_TOO_SHORT', `at least ${keywordLimits.minLength} characters`);
  if (length > keywordLimits.maxLength)
    throw refuse('INVALID_KEYWORD', `at most ${keywordLimits.maxLength} characters`);
  const terms = searchTerms(q);
  if (terms.length > keywordLimits.maxWords) throw refuse('INVALID_KEYWORD', `at most ${keywordLimits.maxWords} words`);
  return terms;
}

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
  /** Changes whenever what the search finds changes through an event. */
  version(): Promise<string>;
  /**
   * The first moment after `after` at which a campaign that can be listed
   * (ACTIVE, SELL) starts or ends, changing what is listed with no event;
   * null if none will.
   */
  nextWindowChange(after: Date): Promise<Date | null>;
}

export interface VoucherSearchQuery extends PageRequest {
  q: string;
  /** Campaign tags, any of (the tag filter). */
  tags?: string[];
  channel: ShopChannel;
}

type SearchIds = Awaited<ReturnType<VoucherSearchReadModel['search']>>;

/** A stretch of time over which search results stay what they are: one read model version, no campaign window opening or closing. */
interface Epoch {
  version: string;
  /** Clock times (ms): the results hold for `from` <= now < `until`. */
  from: number;
  until: number;
}

export interface VoucherSearchOptions {
  /** Most cached result pages (pool ids and total); default 2000, 0: no cache. */
  cacheEntries?: number;
}

/**
 * Searches, reusing the ranked ids of a page for identical searches as long
 * as they cannot have changed: the read model version is the same and no
 * campaign window opened or closed since. A popular keyword then costs one
 * small query (or none, the read model keeping its version in memory) instead
 * of a ranking over every match, and the answer is never staler than the read
 * model. Concurrent identical searches share one query. The vouchers come from
 * the catalog at each search, with their stock and the caller's purchases.
 */
export class VoucherSearch {
  private readonly cache: BoundedCache<string, { epoch: Epoch; ids: Promise<SearchIds> }> | undefined;
  private epoch: Epoch | undefined;
  private versionRead: Promise<string> | undefined;
  private epochRead: Promise<Epoch> | undefined;

  constructor(
    private readonly deps: {
      readModel: VoucherSearchReadModel;
      catalog: Pick<CatalogQueries, 'vouchersByIds'>;
      clock: Clock;
    },
    options: VoucherSearchOptions = {},
  ) {
    const entries = options.cacheEntries ?? 2000;
    this.cache = entries > 0 ? new BoundedCache(entries) : undefined;
  }

  /** Refuses a keyword outside keywordLimits; one without any letter or digit finds nothing. */
  async search(query: VoucherSearchQuery, caller: CatalogCaller): Promise<Page<ShopVoucherResponse>> {
    const terms = keywordTerms(query.q);
    const now = this.deps.clock.now();
    const { poolIds, total } = terms.length === 0 ? { poolIds: [], total: 0 } : await this.rankedIds(terms, query, now);
    const content = await this.deps.catalog.vouchersByIds(poolIds, {
      channel: query.channel,
      userId: caller.userId,
      merchantId: caller.merchantId,
      now,
    });
    return {
      content,
      page: { size: query.size, number: query.page, totalElements: total, totalPages: Math.ceil(total / query.size) },
    };
  }

  private async rankedIds(terms: SearchTerm[], query: VoucherSearchQuery, now: Date): Promise<SearchIds> {
    const offset = query.page * query.size;
    const run = async () =>
      this.deps.readModel.search({
        terms: await this.withTypos(terms),
        tags: query.tags,
        now,
        offset,
        limit: query.size,
      });
    if (!this.cache) return run();
    const key = JSON.stringify([terms.map((t) => t.typed), query.tags ?? null, offset, query.size]);
    const epoch = await this.epochAt(now.getTime());
    if (!epoch) return run();
    const cached = this.cache.get(key);
    if (cached?.epoch === epoch) return cached.ids;
    const entry = { epoch, ids: run() };
    this.cache.set(key, entry);
    entry.ids.catch(() => {
      if (this.cache?.get(key) === entry) this.cache.delete(key);
    });
    return entry.ids;
  }

  private async withTypos(terms: SearchTerm[]): Promise<RankedTerm[]> {
    const tolerant = terms.filter((t) => t.typoTolerant).map((t) => t.folded);
    const candidates =
      tolerant.length > 0 ? await this.deps.readModel.typoCandidates(tolerant) : new Map<string, string[]>();
    return terms.map((t) => ({
      ...t,
      typos: t.typoTolerant
        ? (candidates.get(t.folded) ?? []).filter((word) => word !== t.folded && withinOneTypo(word, t.folded))
        : [],
    }));
  }

  /** The epoch `now` is in: the current one, or a new one when the version changed or now left it; undefined if a concurrent read made one that does not fit. */
  private async epochAt(now: number): Promise<Epoch | undefined> {
    const version = await this.version();
    const fits = (e: Epoch | undefined): e is Epoch =>
      e !== undefined && e.version === version && now >= e.from && now < e.until;
    if (fits(this.epoch)) return this.epoch;
    this.epochRead ??= this.deps.readModel
      .nextWindowChange(new Date(now))
      .then((next) => (this.epoch = { version, from: now, until: next?.getTime() ?? Infinity }))
      .finally(() => {
        this.epochRead = undefined;
      });
    const epoch = await this.epochRead;
    return fits(epoch) ? epoch : undefined;
  }

  /** Concurrent searches share one read of the version. */
  private version(): Promise<string> {
    this.versionRead ??= this.deps.readModel.version().finally(() => {
      this.versionRead = undefined;
    });
    return this.versionRead;
  }
}
