import type { Knex } from 'knex';
import type { CampaignFilter, CatalogCampaignRecord, ShopChannel, Slice } from '../../application/shop/index.js';
import type { CampaignBanner } from '../../domain/shop/index.js';
import { join, readRows, shownCampaign, sql, type Sql } from './catalog-sql.js';

/**
 * The shown campaigns (shop_campaigns), with their banners of a channel and
 * their pool counts: a page of them, or one. A statement per read (two for a
 * page past the end); nothing kept in memory. Part of the catalog read model
 * (catalog-read-model.ts).
 */

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

const iso = (d: Date) => d.toISOString();

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

/** The campaign list and detail. */
export class CampaignList {
  constructor(private readonly knex: Knex) {}

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
            await readRows<{ total: number }>(
              this.knex,
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
    return readRows<CampaignRow & { total: number }>(
      this.knex,
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
}
