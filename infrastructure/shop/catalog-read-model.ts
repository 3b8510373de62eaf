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

/**
 * The catalog read models (projections/shop/catalog.ts) in PostgreSQL. Each
 * read is one statement over indexed columns: listings sort on
 * (campaign_display_priority, pool_id) under partial indexes `WHERE listed`,
 * and totals add up the pool counts the projector keeps per campaign (and per
 * campaign and category) instead of counting listing rows. A page past the end costs a second,
 * count-only statement.
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
  validity_start_at: Date | null;
  validity_end_at: Date | null;
  campaign_name: string;
  campaign_tag: string;
  campaign_display_priority: number;
  campaign_start_at: Date;
  campaign_end_at: Date;
  /** Only when a buyer was given. */
  purchased_daily?: number;
  purchased_total?: number;
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

const listingColumns = [
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
  'validity_start_at',
  'validity_end_at',
  'campaign_name',
  'campaign_tag',
  'campaign_display_priority',
  'campaign_start_at',
  'campaign_end_at',
].map((c) => `l.${c}`);

const iso = (d: Date) => d.toISOString();

function voucherRecord(r: ListingRow): CatalogVoucherRecord {
  return {
    poolId: r.pool_id,
    categoryId: r.category_id,
    miniAppIds: r.mini_app_ids,
    campaign: {
      id: r.campaign_id,
      name: r.campaign_name,
      tag: r.campaign_tag,
      displayPriority: r.campaign_display_priority,
      startAt: iso(r.campaign_start_at),
      endAt: iso(r.campaign_end_at),
    },
    display: {
      title: r.title,
      shortTitle: r.short_title,
      brandName: r.brand_name,
      logoUrl: r.logo_url,
      bannerUrl: r.banner_url,
      thumbnailUrl: r.thumbnail_url,
      description: r.description,
    },
    pricing: { faceValue: r.face_value, sellingPrice: r.selling_price, discountedPrice: r.discounted_price, currency: r.currency },
    totalQuantity: r.total_quantity,
    remainingQuantity: r.remaining_quantity,
    validity: r.validity_start_at && r.validity_end_at ? { startAt: iso(r.validity_start_at), endAt: iso(r.validity_end_at) } : null,
    terms: {
      usageType: r.usage_type,
      termsAndConditions: r.terms_and_conditions,
      validityDays: r.validity_days,
      usageLimit: r.usage_limit,
      maxPerDay: r.max_per_day,
      maxPerOrder: r.max_per_order,
    },
    ...(r.purchased_total === undefined ? {} : { purchased: { daily: r.purchased_daily!, total: r.purchased_total } }),
  };
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
  constructor(private readonly knex: Knex) {}

  async listVouchers(filter: VoucherFilter, now: Date, slice: Slice, buyer?: Buyer): Promise<{ records: CatalogVoucherRecord[]; total: number }> {
    const page = this.listed(now)
      .modify((query) => this.filterListings(query, filter))
      .select(...listingColumns, this.countListed(filter, now).as('total'))
      .orderBy([{ column: 'l.campaign_display_priority' }, { column: 'l.pool_id' }])
      .offset(slice.offset)
      .limit(slice.limit);
    const rows = await this.withPurchases<ListingRow & { total: number }>(page, buyer);
    const total = rows.length > 0 ? rows[0]!.total : ((await this.countListed(filter, now)) as { total: number }[])[0]!.total;
    return { records: rows.map(voucherRecord), total };
  }

  async vouchersByIds(poolIds: number[], now: Date, buyer?: Buyer): Promise<CatalogVoucherRecord[]> {
    const rows = await this.withPurchases<ListingRow>(
      this.listed(now)
        .whereIn('l.pool_id', poolIds)
        .select(...listingColumns),
      buyer,
    );
    return rows.map(voucherRecord);
  }

  async vouchersOfCampaigns(campaignIds: number[], perCampaign: number, now: Date, buyer?: Buyer): Promise<CatalogVoucherRecord[]> {
    const perCampaignPage = this.knex
      .select(...listingColumns)
      .from(this.knex.raw('unnest(?::bigint[]) AS c(campaign_id)', [`{${campaignIds.join(',')}}`]))
      .joinRaw(
        `CROSS JOIN LATERAL (
           SELECT * FROM shop_voucher_listings
           WHERE campaign_id = c.campaign_id AND listed AND campaign_start_at <= ? AND campaign_end_at > ?
           ORDER BY pool_id LIMIT ?
         ) l`,
        [now, now, perCampaign],
      );
    return (await this.withPurchases<ListingRow>(perCampaignPage, buyer)).map(voucherRecord);
  }

  async listCampaigns(filter: CampaignFilter, channel: ShopChannel, now: Date, slice: Slice): Promise<{ records: CatalogCampaignRecord[]; total: number }> {
    const matching = () =>
      this.shownCampaigns(now).modify((query) => {
        if (filter.tags) query.whereIn('c.campaign_tag', filter.tags);
        if (filter.carouselChannel) query.whereRaw('? = ANY (c.carousel_channels)', [filter.carouselChannel]);
      });
    const count = () => matching().select(this.knex.raw('count(*)::int AS total'));
    const pageOf = matching()
      .select('c.*', count().as('total'))
      .orderBy([{ column: 'c.display_priority' }, { column: 'c.campaign_id' }])
      .offset(slice.offset)
      .limit(slice.limit);
    const rows = await this.decorateCampaigns(pageOf, channel);
    const total = rows.length > 0 ? rows[0]!.total : ((await count()) as { total: number }[])[0]!.total;
    return { records: rows.map(campaignRecord), total };
  }

  async campaign(campaignId: number, channel: ShopChannel, now: Date): Promise<CatalogCampaignRecord | undefined> {
    const [row] = await this.decorateCampaigns(this.shownCampaigns(now).where('c.campaign_id', campaignId).select('c.*', this.knex.raw('1 AS total')), channel);
    return row && campaignRecord(row);
  }

  /**
   * The rows of a listing query, each with what `buyer` holds of the pool
   * (shop_user_pool_purchases, fed by the voucher inventory projector) when a
   * buyer is given, in the same statement; in listing order.
   */
  private async withPurchases<Row>(vouchers: Knex.QueryBuilder, buyer: Buyer | undefined): Promise<Row[]> {
    if (!buyer) return (await vouchers) as Row[];
    const { rows } = await this.knex.raw<{ rows: Row[] }>(
      `SELECT v.*, p.daily AS purchased_daily, p.total AS purchased_total
       FROM (?) v
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(u.quantity) FILTER (WHERE u.day = ?), 0)::int AS daily, coalesce(sum(u.quantity), 0)::int AS total
         FROM shop_user_pool_purchases u WHERE u.merchant_id = ? AND u.user_id = ? AND u.pool_id = v.pool_id
       ) p
       ORDER BY v.campaign_display_priority, v.pool_id`,
      [vouchers, buyer.day, buyer.merchantId, buyer.userId],
    );
    return rows;
  }

  /** Listing rows listed at `now`. */
  private listed(now: Date): Knex.QueryBuilder {
    return this.knex('shop_voucher_listings as l').whereRaw('l.listed').where('l.campaign_start_at', '<=', now).where('l.campaign_end_at', '>', now);
  }

  private filterListings(query: Knex.QueryBuilder, filter: VoucherFilter): void {
    if (filter.tags) query.whereIn('l.campaign_tag', filter.tags);
    if (filter.categoryIds) query.whereIn('l.category_id', filter.categoryIds);
    if (filter.campaignIds) query.whereIn('l.campaign_id', filter.campaignIds);
    if (filter.excludeCampaignIds) query.whereNotIn('l.campaign_id', filter.excludeCampaignIds);
  }

  /**
   * How many listing rows `listVouchers` matches: the pool counts of the
   * campaigns live at `now`, per campaign, or per campaign and category when
   * filtering by category.
   */
  private countListed(filter: VoucherFilter, now: Date): Knex.QueryBuilder {
    const query = this.knex('shop_campaigns as c')
      .where({ 'c.status': 'ACTIVE', 'c.type': 'SELL' })
      .where('c.start_at', '<=', now)
      .where('c.end_at', '>', now)
      .select(this.knex.raw('coalesce(sum(n.pool_count), 0)::int AS total'));
    if (filter.categoryIds)
      query.join('shop_campaign_category_pool_counts as n', 'n.campaign_id', 'c.campaign_id').whereIn('n.category_id', filter.categoryIds);
    else query.join('shop_campaign_pool_counts as n', 'n.campaign_id', 'c.campaign_id');
    if (filter.tags) query.whereIn('c.campaign_tag', filter.tags);
    if (filter.campaignIds) query.whereIn('c.campaign_id', filter.campaignIds);
    if (filter.excludeCampaignIds) query.whereNotIn('c.campaign_id', filter.excludeCampaignIds);
    return query;
  }

  /** Campaigns shown at `now`. */
  private shownCampaigns(now: Date): Knex.QueryBuilder {
    return this.knex('shop_campaigns as c').where({ 'c.status': 'ACTIVE', 'c.type': 'SELL' }).where('c.shown_from', '<=', now).where('c.end_at', '>', now);
  }

  /** Adds each campaign's banners of `channel` and its pool counts to the (already paged) campaign rows of `campaigns`. */
  private async decorateCampaigns(campaigns: Knex.QueryBuilder, channel: ShopChannel): Promise<(CampaignRow & { total: number })[]> {
    const { rows } = await this.knex.raw<{ rows: (CampaignRow & { total: number })[] }>(
      `SELECT p.*,
         coalesce((
           SELECT json_agg(json_build_object('id', b.banner_id, 'channelCode', b.channel_code, 'positionCode', b.position_code,
             'assetUrl', b.asset_url, 'assetType', b.asset_type, 'altText', b.alt_text, 'clickUrl', b.click_url, 'displayOrder', b.display_order)
             ORDER BY b.display_order, b.banner_id)
           FROM shop_campaign_banners b WHERE b.campaign_id = p.campaign_id AND b.channel_code = ?
         ), '[]') AS banners,
         coalesce(n.pool_count, 0) AS pool_count, coalesce(n.in_stock_count, 0) AS in_stock_count, coalesce(n.sold_quantity, 0) AS sold_quantity
       FROM (?) p
       LEFT JOIN shop_campaign_pool_counts n ON n.campaign_id = p.campaign_id
       ORDER BY p.display_priority, p.campaign_id`,
      [channel, campaigns],
    );
    return rows.map((r) => ({ ...r, total: Number(r.total) }));
  }
}
