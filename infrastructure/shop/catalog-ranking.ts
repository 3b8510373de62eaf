/**
 * Where a voucher page lies, worked out from pool counts instead of listing
 * rows. The voucher list is ordered by campaign displayPriority, campaign id,
 * then pool id, so a page is a run of whole campaigns cut at both ends: from
 * each live campaign's count of matching pools and the ones ahead of it, a
 * page needs only the few campaigns it overlaps, and how many of their first
 * pools to skip.
 */
import type { Slice, VoucherFilter } from '../../application/shop/index.js';

/** A live campaign and how many of its pools match (all of them, or those of one category). */
export interface CountedCampaign {
  id: number;
  tag: string;
  priority: number;
  pools: number;
}

/** A campaign of the list in order, with the matching pools of the campaigns ahead of it. */
export interface RankedCampaign {
  id: number;
  pools: number;
  before: number;
}

/**
 * The campaigns of the list for a filter, in order. Typed arrays, not an
 * object per campaign: a ranking is kept while the counts stay the same, and
 * many of them (one per filter) would otherwise be so many objects for the
 * garbage collector to go through.
 */
export interface Ranking {
  ids: Float64Array;
  /** before[i]: the matching pools of the campaigns ahead of ids[i]; before[ids.length]: all of them. */
  before: Float64Array;
  total: number;
}

/** The ranking's campaigns as objects. */
export const rankedCampaigns = (ranking: Ranking): RankedCampaign[] =>
  Array.from(ranking.ids, (id, i) => ({
    id,
    pools: ranking.before[i + 1]! - ranking.before[i]!,
    before: ranking.before[i]!,
  }));

/** The voucher list's order of campaigns: displayPriority, then id. */
const inListOrder = (a: CountedCampaign, b: CountedCampaign) => a.priority - b.priority || a.id - b.id;

/**
 * The campaigns of the list for `filter`, in order. `counts` holds one list
 * per category asked for (a campaign's pools add up over them), or a single
 * list of all-category counts; each list in list order (inListOrder), so that
 * a single list, the common case, is only filtered.
 */
export function rank(
  counts: readonly (readonly CountedCampaign[])[],
  filter: Pick<VoucherFilter, 'tags' | 'campaignIds' | 'excludeCampaignIds'>,
): Ranking {
  const tags = filter.tags && new Set(filter.tags);
  const only = filter.campaignIds && new Set(filter.campaignIds);
  const excluded = filter.excludeCampaignIds && new Set(filter.excludeCampaignIds);
  const matches = (c: CountedCampaign) =>
    c.pools > 0 && (!tags || tags.has(c.tag)) && (!only || only.has(c.id)) && !excluded?.has(c.id);
  const ordered = (counts.length === 1 ? counts[0]! : merged(counts)).filter(matches);
  const ids = new Float64Array(ordered.length);
  const before = new Float64Array(ordered.length + 1);
  ordered.forEach((c, i) => {
    ids[i] = c.id;
    before[i + 1] = before[i]! + c.pools;
  });
  return { ids, before, total: before[ordered.length]! };
}

/** Several lists as one in list order, each campaign's pools added up over them. */
function merged(counts: readonly (readonly CountedCampaign[])[]): CountedCampaign[] {
  const byId = new Map<number, CountedCampaign>();
  for (const list of counts) {
    for (const c of list) {
      const seen = byId.get(c.id);
      byId.set(c.id, seen ? { ...seen, pools: seen.pools + c.pools } : c);
    }
  }
  return [...byId.values()].sort(inListOrder);
}

/** The campaigns a page overlaps, in order, and how many of each one's first matching pools the page skips. */
export function pageCampaigns(ranking: Ranking, slice: Slice): { id: number; skip: number }[] {
  const { ids, before } = ranking;
  const end = slice.offset + slice.limit;
  // The first campaign whose pools reach past the offset.
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before[middle + 1]! <= slice.offset) low = middle + 1;
    else high = middle;
  }
  const page: { id: number; skip: number }[] = [];
  for (let i = low; i < ids.length && before[i]! < end; i++)
    page.push({ id: ids[i]!, skip: Math.max(0, slice.offset - before[i]!) });
  return page;
}
