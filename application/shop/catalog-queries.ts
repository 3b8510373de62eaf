/**
 * The shop catalog's reads (endpoints 1, 2, 4, 5, 6 of the shop interface and
 * the vouchers of search results): ShopVoucherResponse and
 * ShopCampaignResponse built from the catalog read models, which are
 * eventually consistent with the event store. Everything that depends on the
 * time (visibility windows, countdowns, the purchase day) is computed here at
 * read time from the injected clock.
 *
 * Visibility (docs/shop-api.md, "Catalog"): a campaign is shown while it is
 * ACTIVE, of type SELL and now is in [shownFrom, endAt), shownFrom being the
 * presale start when presale is enabled, else startAt; its vouchers (pools
 * not deleted) are listed while now is in [startAt, endAt).
 */
import {
  type CampaignBanner,
  type CampaignPresale,
  type PoolDisplay,
  type PoolPricing,
  type PoolTerms,
  purchaseDay,
} from '../../domain/shop/index.js';
import type { Clock } from '../shared/clock.js';

export const shopChannels = ['APP', 'WEB'] as const;
export type ShopChannel = (typeof shopChannels)[number];

// ---- the read model port ----

/** A listed voucher pool as the read model holds it. */
export interface CatalogVoucherRecord {
  poolId: number;
  categoryId: number;
  miniAppIds: string[];
  campaign: { id: number; name: string; tag: string; displayPriority: number; startAt: string; endAt: string };
  display: PoolDisplay;
  pricing: PoolPricing;
  totalQuantity: number;
  remainingQuantity: number;
  validity: { startAt: string; endAt: string } | null;
  terms: PoolTerms;
  /** What the buyer asked about holds of the pool (reserved or bought, releases subtracted); only when a buyer was given. */
  purchased?: { daily: number; total: number };
}

/** Whose purchases to read along with the vouchers (for userPurchaseUsage), and which purchase day is today. */
export interface Buyer {
  merchantId: string;
  userId: string;
  day: string;
}

/** A shown campaign with the banners of one channel and its pool counts. */
export interface CatalogCampaignRecord extends Omit<ShopCampaignResponse, 'voucherSummary' | 'vouchers'> {
  /** Pools not deleted, those of them in stock, vouchers sold. */
  pools: { total: number; inStock: number; sold: number };
}

export interface VoucherFilter {
  /** Campaign tags, any of. */
  tags?: string[];
  categoryIds?: number[];
  campaignIds?: number[];
  excludeCampaignIds?: number[];
}

export interface CampaignFilter {
  tags?: string[];
  /** Only campaigns with a CAROUSEL banner on this channel. */
  carouselChannel?: ShopChannel;
}

export interface Slice {
  offset: number;
  limit: number;
}

export interface CatalogReadModel {
  /** Listed vouchers matching `filter` at `now`, by campaign displayPriority then pool id; total counts all matches. */
  listVouchers(
    filter: VoucherFilter,
    now: Date,
    slice: Slice,
    buyer?: Buyer,
  ): Promise<{ records: CatalogVoucherRecord[]; total: number }>;
  /** Those of `poolIds` listed at `now`, in any order. */
  vouchersByIds(poolIds: number[], now: Date, buyer?: Buyer): Promise<CatalogVoucherRecord[]>;
  /** Up to `perCampaign` listed vouchers of each campaign, by pool id. */
  vouchersOfCampaigns(
    campaignIds: number[],
    perCampaign: number,
    now: Date,
    buyer?: Buyer,
  ): Promise<CatalogVoucherRecord[]>;
  /** Shown campaigns matching `filter` at `now`, by displayPriority then id; total counts all matches. */
  listCampaigns(
    filter: CampaignFilter,
    channel: ShopChannel,
    now: Date,
    slice: Slice,
  ): Promise<{ records: CatalogCampaignRecord[]; total: number }>;
  /** The campaign if it is shown at `now`. */
  campaign(campaignId: number, channel: ShopChannel, now: Date): Promise<CatalogCampaignRecord | undefined>;
}

// ---- responses (spec 000: ShopVoucherResponse, ShopCampaignResponse) ----

export interface ShopVoucherResponse {
  id: number;
  categoryId: number;
  miniAppIds: string[];
  campaign: {
    id: number;
    name: string;
    tag: string;
    displayPriority: number;
    validity: { startAt: string; endAt: string };
    countdown: { endAt: string; remainingSeconds: number } | null;
  };
  display: PoolDisplay;
  pricing: PoolPricing & { discountPercentage: number };
  inventory: { totalQuantity: number; remainingQuantity: number; isOutOfStock: boolean };
  userPurchaseUsage: {
    dailyPurchasedQty: number;
    totalPurchasedQty: number;
    dailyRemaining: number | null;
    totalRemaining: number | null;
  } | null;
  validity: { startAt: string; endAt: string } | null;
  terms: PoolTerms;
}

export interface ShopCampaignResponse {
  id: number;
  code: string;
  name: string;
  description: string;
  campaignTag: string;
  displayPriority: number;
  themeUrl: string;
  startAt: string;
  endAt: string;
  presale: CampaignPresale | null;
  /** Of the requested channel, by displayOrder then id. */
  banners: CampaignBanner[];
  voucherSummary: { totalCount: number; availableCount: number; soldCount: number; displayedCount: number };
  vouchers: ShopVoucherResponse[] | null;
}

export interface Page<T> {
  content: T[];
  page: { size: number; number: number; totalElements: number; totalPages: number };
}

export interface PageRequest {
  /** 0-indexed. */
  page: number;
  size: number;
}

/** Who asks: the merchant of the API key and, when X-User-Id was sent, the user. */
export interface CatalogCaller {
  merchantId: string;
  userId?: string;
}

export interface VoucherListQuery extends VoucherFilter, PageRequest {
  channel: ShopChannel;
}

export interface CampaignListQuery extends PageRequest {
  tags?: string[];
  channel: ShopChannel;
  includeVouchers: boolean;
  vouchersPerCampaign: number;
}

/**
 * The pricing a listing shows (docs/shop-api.md, "Pricing"; the spec's contradiction 5): the buyer pays
 * sellingPrice, which reserve demands, so the listing advertises nothing else. discountedPrice is the price after
 * the discount off face value, i.e. sellingPrice when it is below faceValue, else null; discountPercentage is
 * round((faceValue - sellingPrice) × 100 / faceValue), 0 when faceValue is 0. A discountedPrice stored by an older
 * operator call is kept in its event for audit but never shown.
 */
export function advertisedPricing(pricing: PoolPricing): PoolPricing & { discountPercentage: number } {
  const { faceValue, sellingPrice, currency } = pricing;
  return {
    faceValue,
    sellingPrice,
    discountedPrice: sellingPrice < faceValue ? sellingPrice : null,
    currency,
    discountPercentage: faceValue === 0 ? 0 : Math.round(((faceValue - sellingPrice) * 100) / faceValue),
  };
}

/**
 * What a user may still buy: totalRemaining = usageLimit - total; dailyRemaining =
 * maxPerDay - today, also capped by totalRemaining (a day cannot allow more than
 * the total does); null where the pool sets no such limit; never below 0.
 */
export function purchaseUsage(
  terms: PoolTerms,
  counts: { daily: number; total: number },
): NonNullable<ShopVoucherResponse['userPurchaseUsage']> {
  const totalRemaining = terms.usageLimit === null ? null : Math.max(0, terms.usageLimit - counts.total);
  const dailyLeft = terms.maxPerDay === null ? null : Math.max(0, terms.maxPerDay - counts.daily);
  const dailyRemaining =
    dailyLeft === null ? null : totalRemaining === null ? dailyLeft : Math.min(dailyLeft, totalRemaining);
  return { dailyPurchasedQty: counts.daily, totalPurchasedQty: counts.total, dailyRemaining, totalRemaining };
}

const countdownTags = new Set(['FLASH_SALE']);

function page<T>(content: T[], request: PageRequest, total: number): Page<T> {
  return {
    content,
    page: {
      size: request.size,
      number: request.page,
      totalElements: total,
      totalPages: Math.ceil(total / request.size),
    },
  };
}

const sliceOf = (request: PageRequest): Slice => ({ offset: request.page * request.size, limit: request.size });

export class CatalogQueries {
  constructor(private readonly deps: { readModel: CatalogReadModel; clock: Clock; dayUtcOffsetMinutes: number }) {}

  /** Endpoint 1. The channel is validated but changes nothing: a voucher has no channel-specific fields. */
  async listVouchers(query: VoucherListQuery, caller: CatalogCaller): Promise<Page<ShopVoucherResponse>> {
    const now = this.deps.clock.now();
    const { records, total } = await this.deps.readModel.listVouchers(
      query,
      now,
      sliceOf(query),
      this.buyer(caller, now),
    );
    return page(this.vouchers(records, now), query, total);
  }

  /** Endpoint 2: the pool if it is listed now (not deleted, its campaign live), else undefined. */
  async voucher(
    poolId: number,
    options: { channel: ShopChannel } & CatalogCaller,
  ): Promise<ShopVoucherResponse | undefined> {
    const [voucher] = await this.vouchersByIds([poolId], { ...options, now: this.deps.clock.now() });
    return voucher;
  }

  /** The listed ones of `ids`, in the order given (for search results); ids not listed at `now` are left out. */
  async vouchersByIds(
    ids: number[],
    options: { channel: ShopChannel; userId?: string; merchantId: string; now: Date },
  ): Promise<ShopVoucherResponse[]> {
    if (ids.length === 0) return [];
    const records = await this.deps.readModel.vouchersByIds(ids, options.now, this.buyer(options, options.now));
    const byId = new Map(records.map((r) => [r.poolId, r]));
    const ordered = ids.map((id) => byId.get(id)).filter((r): r is CatalogVoucherRecord => r !== undefined);
    return this.vouchers(ordered, options.now);
  }

  /** Endpoint 4: shown campaigns with a CAROUSEL banner on the channel, banners of that channel. */
  async carousel(query: PageRequest & { channel: ShopChannel }): Promise<Page<ShopCampaignResponse>> {
    const now = this.deps.clock.now();
    const { records, total } = await this.deps.readModel.listCampaigns(
      { carouselChannel: query.channel },
      query.channel,
      now,
      sliceOf(query),
    );
    return page(
      records.map((r) => this.campaignResponse(r, now, null)),
      query,
      total,
    );
  }

  /** Endpoint 5. */
  async listCampaigns(query: CampaignListQuery, caller: CatalogCaller): Promise<Page<ShopCampaignResponse>> {
    const now = this.deps.clock.now();
    const { records, total } = await this.deps.readModel.listCampaigns(
      { tags: query.tags },
      query.channel,
      now,
      sliceOf(query),
    );
    let vouchers: Map<number, ShopVoucherResponse[]> | undefined;
    if (query.includeVouchers && records.length > 0) {
      const listed = await this.deps.readModel.vouchersOfCampaigns(
        records.map((r) => r.id),
        query.vouchersPerCampaign,
        now,
        this.buyer(caller, now),
      );
      vouchers = new Map(records.map((r) => [r.id, []]));
      for (const v of this.vouchers(listed, now)) vouchers.get(v.campaign.id)!.push(v);
    }
    return page(
      records.map((r) => this.campaignResponse(r, now, vouchers?.get(r.id) ?? null)),
      query,
      total,
    );
  }

  /** Endpoint 6: the campaign if it is shown now, else undefined. */
  async campaign(campaignId: number, channel: ShopChannel): Promise<ShopCampaignResponse | undefined> {
    const now = this.deps.clock.now();
    const record = await this.deps.readModel.campaign(campaignId, channel, now);
    return record && this.campaignResponse(record, now, null);
  }

  private buyer(caller: CatalogCaller, now: Date): Buyer | undefined {
    if (caller.userId === undefined) return undefined;
    return {
      merchantId: caller.merchantId,
      userId: caller.userId,
      day: purchaseDay(now, this.deps.dayUtcOffsetMinutes),
    };
  }

  private vouchers(records: CatalogVoucherRecord[], now: Date): ShopVoucherResponse[] {
    return records.map((r) => this.voucherResponse(r, now));
  }

  private voucherResponse(r: CatalogVoucherRecord, now: Date): ShopVoucherResponse {
    const { campaign } = r;
    return {
      id: r.poolId,
      categoryId: r.categoryId,
      miniAppIds: r.miniAppIds,
      campaign: {
        id: campaign.id,
        name: campaign.name,
        tag: campaign.tag,
        displayPriority: campaign.displayPriority,
        validity: { startAt: campaign.startAt, endAt: campaign.endAt },
        countdown: countdownTags.has(campaign.tag)
          ? {
              endAt: campaign.endAt,
              remainingSeconds: Math.max(0, Math.floor((Date.parse(campaign.endAt) - now.getTime()) / 1000)),
            }
          : null,
      },
      display: r.display,
      pricing: advertisedPricing(r.pricing),
      inventory: {
        totalQuantity: r.totalQuantity,
        remainingQuantity: r.remainingQuantity,
        isOutOfStock: r.remainingQuantity <= 0,
      },
      userPurchaseUsage: r.purchased ? purchaseUsage(r.terms, r.purchased) : null,
      validity: r.validity,
      terms: r.terms,
    };
  }

  /** displayedCount: the pools the voucher listing shows for the campaign now, none before startAt (presale). */
  private campaignResponse(
    r: CatalogCampaignRecord,
    now: Date,
    vouchers: ShopVoucherResponse[] | null,
  ): ShopCampaignResponse {
    const live = Date.parse(r.startAt) <= now.getTime();
    return {
      id: r.id,
      code: r.code,
      name: r.name,
      description: r.description,
      campaignTag: r.campaignTag,
      displayPriority: r.displayPriority,
      themeUrl: r.themeUrl,
      startAt: r.startAt,
      endAt: r.endAt,
      presale: r.presale,
      banners: r.banners,
      voucherSummary: {
        totalCount: r.pools.total,
        availableCount: r.pools.inStock,
        soldCount: r.pools.sold,
        displayedCount: live ? r.pools.total : 0,
      },
      vouchers,
    };
  }
}
