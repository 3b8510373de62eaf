import type { Knex } from 'knex';
import type { CampaignBanner, CampaignEvent } from '../../domain/shop/campaign.js';
import type { VoucherPoolEvent } from '../../domain/shop/events.js';
import { physical, type PhysicalNames, type ProjectedEvent, type Projector } from '../shared/projector.js';

/**
 * The shop catalog's read models: campaigns, their banners, one listing row
 * per voucher pool, and pool counts per campaign and per campaign and
 * category (the listing's totals and the campaigns' voucherSummary, without
 * counting listing rows).
 *
 * Idempotent on its own, not only behind the runner's checkpoint: a campaign
 * row and a listing row each keep the global position of the last event of
 * their stream they applied, and an event at or before it changes nothing
 * (counts move only together with the listing row they derive from).
 */

const campaigns = 'shop_campaigns';
const banners = 'shop_campaign_banners';
const listings = 'shop_voucher_listings';
const campaignCounts = 'shop_campaign_pool_counts';
const categoryCounts = 'shop_campaign_category_pool_counts';
const countsVersion = 'shop_catalog_counts_version';

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

export const catalogProjector: Projector = {
  name: 'shop-catalog',
  version: 3,
  tables: [
    {
      name: campaigns,
      comment: `Shop campaigns, one row per campaign in any status; eventually consistent with the event store (lag at /metrics). Time windows are checked when read, so a row stays the same while a campaign starts or ends. Fed by CampaignCreated, CampaignStatusChanged, CampaignDetailsUpdated, and CampaignBannerAdded/Updated/Removed (updated_at).`,
      columns: {
        campaign_id: 'Campaign id.',
        code: 'Campaign code, unique (case-insensitive).',
        name: 'Campaign name.',
        description: 'Campaign description.',
        campaign_tag: 'Classification tag, e.g. HOT_DEAL, FLASH_SALE.',
        type: 'Campaign type; the shop shows only SELL campaigns.',
        status: 'DRAFT, APPROVED, ACTIVE, PAUSED or ENDED; the shop shows only ACTIVE ones.',
        display_priority: 'Display order, 1 = highest; the voucher listing sorts on it, then on campaign_id and pool_id.',
        theme_url: 'Theme/background image URL.',
        start_at: 'Start of the campaign window: its vouchers are listed from then.',
        end_at: 'End of the campaign window (exclusive).',
        presale_enabled: 'Presale on; null when the campaign has no presale settings.',
        presale_start_at: 'Presale start; null without presale settings.',
        presale_countdown_enabled: 'Presale shows a countdown; null without presale settings.',
        presale_teaser_text: 'Presale teaser text; null without presale settings.',
        presale_teaser_image_url: 'Presale teaser image URL; null without presale settings.',
        shown_from: 'When the shop starts showing the campaign: presale_start_at when presale is enabled, else start_at.',
        carousel_channels: 'Channels (APP, WEB) on which the campaign has a CAROUSEL banner: where the home carousel shows it.',
        created_at: 'When the campaign was created.',
        updated_at: 'Event time of the last change.',
        last_position: 'Global position of the last event of the campaign stream applied to this row.',
      },
    },
    {
      name: banners,
      comment: `Banners of the shop campaigns, per channel and position; eventually consistent (lag at /metrics). Fed by CampaignCreated, CampaignBannerAdded, CampaignBannerUpdated, CampaignBannerRemoved.`,
      columns: {
        campaign_id: 'Campaign the banner belongs to.',
        banner_id: 'Banner id.',
        channel_code: 'Channel the banner is shown on: APP or WEB.',
        position_code: 'Where it is shown: CAROUSEL (home carousel) or DETAIL_TOP.',
        asset_url: 'Image or video URL.',
        asset_type: 'IMAGE or VIDEO.',
        alt_text: 'Alternative text.',
        click_url: 'Click target; null for none.',
        display_order: 'Order among the banners of the campaign (ascending).',
      },
    },
    {
      name: listings,
      comment: `Voucher pools as the shop lists them, one row per pool (deleted ones kept, flagged); the campaign (shop_campaigns, by campaign_id) decides whether and in which order they are listed; eventually consistent (lag at /metrics). Fed by VoucherPoolCreated, VoucherPoolStockAdded, VoucherPoolRepriced, VoucherPoolDisplayUpdated, VoucherPoolTermsUpdated, VoucherPoolCategoryChanged, VoucherPoolMiniAppsChanged, VoucherPoolValidityChanged, VoucherPoolDeleted, VoucherStockReserved, VoucherStockReleased, VoucherStockSold.`,
      columns: {
        pool_id: 'Voucher pool id.',
        campaign_id: 'Campaign the pool belongs to.',
        category_id: 'Voucher category.',
        mini_app_ids: 'Mini-app ids allowed to use the vouchers.',
        title: 'Full title.',
        short_title: 'Short title for cards.',
        brand_name: 'Brand name.',
        logo_url: 'Logo image URL.',
        banner_url: 'Banner image URL.',
        thumbnail_url: 'Thumbnail image URL.',
        description: 'Detailed description.',
        face_value: 'Face value, minor units of currency.',
        selling_price: 'Selling price, minor units of currency.',
        discounted_price: 'Price after discount, minor units; null when there is none.',
        currency: 'VND or VPOINT.',
        total_quantity: 'Vouchers ever put in the pool (initial stock plus additions).',
        reserved_quantity: 'Vouchers held by open reservations.',
        sold_quantity: 'Vouchers sold (reservations committed).',
        remaining_quantity: 'Vouchers still available: total - reserved - sold.',
        usage_type: 'ONLINE or OFFLINE.',
        terms_and_conditions: 'Terms text.',
        validity_days: 'Days an issued voucher stays valid after purchase.',
        usage_limit: 'Most vouchers of the pool one user may hold in total; null: no limit.',
        max_per_day: 'Most vouchers of the pool one user may buy per day; null: no limit.',
        max_per_order: 'Most vouchers of the pool in one reservation; null: no limit.',
        validity_start_at: 'Voucher-level validity start; null when the pool has none.',
        validity_end_at: 'Voucher-level validity end; null when the pool has none.',
        deleted: 'True once the pool was deleted (soft delete); never listed then.',
        created_at: 'When the pool was created.',
        updated_at: 'Event time of the last change to the pool.',
        last_position: 'Global position of the last event of the pool stream applied to this row.',
      },
    },
    {
      name: campaignCounts,
      comment:
        'Voucher pool counts per campaign: the totals of the voucher listing and the voucherSummary of campaigns (narrow, so frequent updates stay cheap); eventually consistent (lag at /metrics). Derived from the rows of shop_voucher_listings, so fed by the same pool events.',
      columns: {
        campaign_id: 'Campaign.',
        pool_count: 'Pools of the campaign that are not deleted.',
        in_stock_count: 'Of those, pools with remaining stock.',
        sold_quantity: 'Vouchers sold from pools of the campaign, deleted pools included.',
        status:
          "The campaign's status (copied from shop_campaigns, as are the next columns, so the listing's totals read this table alone); null until the campaign is projected.",
        type: "The campaign's type.",
        campaign_tag: "The campaign's tag.",
        display_priority: "The campaign's display priority.",
        start_at: "The campaign's window start.",
        end_at: "The campaign's window end.",
      },
    },
    {
      name: categoryCounts,
      comment:
        'Voucher pool counts per campaign and category: the totals of the voucher listing filtered by category; eventually consistent (lag at /metrics). Derived from the rows of shop_voucher_listings, so fed by the same pool events.',
      columns: {
        campaign_id: 'Campaign.',
        category_id: 'Voucher category.',
        pool_count: 'Pools of the campaign in this category that are not deleted.',
        status:
          "The campaign's status (copied from shop_campaigns, as are the next columns, so the listing's totals read this table alone); null until the campaign is projected.",
        type: "The campaign's type.",
        campaign_tag: "The campaign's tag.",
        display_priority: "The campaign's display priority.",
        start_at: "The campaign's window start.",
        end_at: "The campaign's window end.",
      },
    },
    {
      name: countsVersion,
      comment:
        'One row: changes whenever the pool counts or the campaign columns of the two count tables change (not with sales), so readers can keep what they derived from them until then.',
      columns: {
        epoch: 'Random per generation of the tables, so a version is never repeated by a rebuild.',
        version: 'Incremented at each such change.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    const [c, b, l, n, s, v] = [campaigns, banners, listings, campaignCounts, categoryCounts, countsVersion].map((t) => physical(names, t));
    await knex.raw(`
      CREATE TABLE ${q(c!)} (
        campaign_id bigint PRIMARY KEY,
        code text NOT NULL,
        name text NOT NULL,
        description text NOT NULL,
        campaign_tag text NOT NULL,
        type text NOT NULL,
        status text NOT NULL,
        display_priority integer NOT NULL,
        theme_url text NOT NULL,
        start_at timestamptz NOT NULL,
        end_at timestamptz NOT NULL,
        presale_enabled boolean,
        presale_start_at timestamptz,
        presale_countdown_enabled boolean,
        presale_teaser_text text,
        presale_teaser_image_url text,
        shown_from timestamptz GENERATED ALWAYS AS (CASE WHEN presale_enabled THEN presale_start_at ELSE start_at END) STORED,
        carousel_channels text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        last_position text COLLATE "C" NOT NULL
      );
      CREATE INDEX ${q(`${c}_shown`)} ON ${q(c!)} (display_priority, campaign_id) WHERE status = 'ACTIVE' AND type = 'SELL';
      CREATE INDEX ${q(`${c}_tag_shown`)} ON ${q(c!)} (campaign_tag, display_priority, campaign_id) WHERE status = 'ACTIVE' AND type = 'SELL';

      CREATE TABLE ${q(b!)} (
        campaign_id bigint NOT NULL,
        banner_id bigint NOT NULL,
        channel_code text NOT NULL,
        position_code text NOT NULL,
        asset_url text NOT NULL,
        asset_type text NOT NULL,
        alt_text text NOT NULL,
        click_url text,
        display_order integer NOT NULL,
        PRIMARY KEY (campaign_id, banner_id)
      );
      CREATE INDEX ${q(`${b}_channel`)} ON ${q(b!)} (campaign_id, channel_code, position_code);

      CREATE TABLE ${q(l!)} (
        pool_id bigint PRIMARY KEY,
        campaign_id bigint NOT NULL,
        category_id bigint NOT NULL,
        mini_app_ids text[] NOT NULL,
        title text NOT NULL,
        short_title text NOT NULL,
        brand_name text NOT NULL,
        logo_url text NOT NULL,
        banner_url text NOT NULL,
        thumbnail_url text NOT NULL,
        description text NOT NULL,
        face_value bigint NOT NULL,
        selling_price bigint NOT NULL,
        discounted_price bigint,
        currency text NOT NULL,
        total_quantity integer NOT NULL,
        reserved_quantity integer NOT NULL,
        sold_quantity integer NOT NULL,
        remaining_quantity integer NOT NULL,
        usage_type text NOT NULL,
        terms_and_conditions text NOT NULL,
        validity_days integer NOT NULL,
        usage_limit integer,
        max_per_day integer,
        max_per_order integer,
        validity_start_at timestamptz,
        validity_end_at timestamptz,
        deleted boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        last_position text COLLATE "C" NOT NULL
      );
      CREATE INDEX ${q(`${l}_campaign`)} ON ${q(l!)} (campaign_id, pool_id) WHERE NOT deleted;
      CREATE INDEX ${q(`${l}_campaign_category`)} ON ${q(l!)} (campaign_id, category_id, pool_id) WHERE NOT deleted;

      CREATE TABLE ${q(n!)} (
        campaign_id bigint PRIMARY KEY,
        pool_count integer NOT NULL,
        in_stock_count integer NOT NULL,
        sold_quantity bigint NOT NULL,
        status text,
        type text,
        campaign_tag text,
        display_priority integer,
        start_at timestamptz,
        end_at timestamptz
      );

      CREATE TABLE ${q(s!)} (
        campaign_id bigint NOT NULL,
        category_id bigint NOT NULL,
        pool_count integer NOT NULL,
        status text,
        type text,
        campaign_tag text,
        display_priority integer,
        start_at timestamptz,
        end_at timestamptz,
        PRIMARY KEY (campaign_id, category_id)
      );
      CREATE INDEX ${q(`${s}_category`)} ON ${q(s!)} (category_id);

      CREATE TABLE ${q(v!)} (epoch uuid NOT NULL, version bigint NOT NULL);
      INSERT INTO ${q(v!)} VALUES (gen_random_uuid(), 0);
    `);
  },

  async apply(trx: Knex.Transaction, event: ProjectedEvent, names: PhysicalNames) {
    const e = { type: event.type, data: event.data } as CampaignEvent | VoucherPoolEvent;
    const t = {
      campaigns: physical(names, campaigns),
      banners: physical(names, banners),
      listings: physical(names, listings),
      campaignCounts: physical(names, campaignCounts),
      categoryCounts: physical(names, categoryCounts),
      countsVersion: physical(names, countsVersion),
    };
    const position = event.position;
    switch (e.type) {
      case 'CampaignCreated': {
        const d = e.data;
        const inserted = await trx.raw(
          `INSERT INTO ?? (campaign_id, code, name, description, campaign_tag, type, status, display_priority, theme_url, start_at, end_at,
             presale_enabled, presale_start_at, presale_countdown_enabled, presale_teaser_text, presale_teaser_image_url, created_at, updated_at, last_position)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (campaign_id) DO NOTHING RETURNING campaign_id`,
          [
            t.campaigns,
            d.campaignId,
            d.code,
            d.name,
            d.description,
            d.campaignTag,
            d.type,
            d.status,
            d.displayPriority,
            d.themeUrl,
            d.startAt,
            d.endAt,
            d.presale?.enabled ?? null,
            d.presale?.startAt ?? null,
            d.presale?.countdownEnabled ?? null,
            d.presale?.teaserText ?? null,
            d.presale?.teaserImageUrl ?? null,
            d.createdAt,
            d.createdAt,
            position,
          ],
        );
        if (inserted.rows.length === 0) return;
        if (d.banners.length > 0) await trx(t.banners).insert(d.banners.map((banner) => bannerRow(d.campaignId, banner)));
        await refreshCarouselChannels(trx, t, d.campaignId);
        // Pools are created after their campaign; should one come first, its counts get the campaign's columns now.
        await copyCampaignIntoCounts(trx, t, d.campaignId);
        return;
      }
      case 'CampaignStatusChanged': {
        const { campaignId, to, changedAt } = e.data;
        if (await advanceCampaign(trx, t.campaigns, campaignId, position, { status: to, updated_at: changedAt }))
          await copyCampaignIntoCounts(trx, t, campaignId);
        return;
      }
      case 'CampaignDetailsUpdated': {
        const d = e.data;
        const changes = {
          name: d.name,
          description: d.description,
          campaign_tag: d.campaignTag,
          display_priority: d.displayPriority,
          theme_url: d.themeUrl,
          start_at: d.startAt,
          end_at: d.endAt,
          presale_enabled: d.presale?.enabled ?? null,
          presale_start_at: d.presale?.startAt ?? null,
          presale_countdown_enabled: d.presale?.countdownEnabled ?? null,
          presale_teaser_text: d.presale?.teaserText ?? null,
          presale_teaser_image_url: d.presale?.teaserImageUrl ?? null,
          updated_at: d.updatedAt,
        };
        if (await advanceCampaign(trx, t.campaigns, d.campaignId, position, changes)) await copyCampaignIntoCounts(trx, t, d.campaignId);
        return;
      }
      case 'CampaignBannerAdded': {
        const { campaignId, banner, addedAt } = e.data;
        if (!(await advanceCampaign(trx, t.campaigns, campaignId, position, { updated_at: addedAt }))) return;
        await trx(t.banners).insert(bannerRow(campaignId, banner));
        await refreshCarouselChannels(trx, t, campaignId);
        return;
      }
      case 'CampaignBannerUpdated': {
        const { campaignId, banner, updatedAt } = e.data;
        if (!(await advanceCampaign(trx, t.campaigns, campaignId, position, { updated_at: updatedAt }))) return;
        await trx(t.banners).where({ campaign_id: campaignId, banner_id: banner.id }).update(bannerRow(campaignId, banner));
        await refreshCarouselChannels(trx, t, campaignId);
        return;
      }
      case 'CampaignBannerRemoved': {
        const { campaignId, bannerId, removedAt } = e.data;
        if (!(await advanceCampaign(trx, t.campaigns, campaignId, position, { updated_at: removedAt }))) return;
        await trx(t.banners).where({ campaign_id: campaignId, banner_id: bannerId }).delete();
        await refreshCarouselChannels(trx, t, campaignId);
        return;
      }
      case 'VoucherPoolCreated': {
        const d = e.data;
        // The pool's contribution to the counts goes in with its row, once.
        await trx.raw(
          `WITH inserted AS (
             INSERT INTO ?? AS l (pool_id, campaign_id, category_id, mini_app_ids, title, short_title, brand_name, logo_url, banner_url, thumbnail_url,
               description, face_value, selling_price, discounted_price, currency, total_quantity, reserved_quantity, sold_quantity, remaining_quantity,
               usage_type, terms_and_conditions, validity_days, usage_limit, max_per_day, max_per_order, validity_start_at, validity_end_at, deleted,
               created_at, updated_at, last_position)
             VALUES (?, ?, ?, ARRAY(SELECT jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?,
               ?, ?, ?, ?, ?, ?, ?, ?, false, ?, ?, ?)
             ON CONFLICT (pool_id) DO NOTHING
             RETURNING l.campaign_id, l.category_id, l.remaining_quantity
           ),
           delta AS (SELECT campaign_id, category_id, 1 AS pools, (remaining_quantity > 0)::int AS in_stock, 0 AS sold FROM inserted)
           ${addCounts}`,
          [
            t.listings,
            d.poolId,
            d.campaignId,
            d.categoryId,
            JSON.stringify(d.miniAppIds),
            d.display.title,
            d.display.shortTitle,
            d.display.brandName,
            d.display.logoUrl,
            d.display.bannerUrl,
            d.display.thumbnailUrl,
            d.display.description,
            d.pricing.faceValue,
            d.pricing.sellingPrice,
            d.pricing.discountedPrice,
            d.pricing.currency,
            d.totalQuantity,
            d.totalQuantity,
            d.terms.usageType,
            d.terms.termsAndConditions,
            d.terms.validityDays,
            d.terms.usageLimit,
            d.terms.maxPerDay,
            d.terms.maxPerOrder,
            d.validity?.startAt ?? null,
            d.validity?.endAt ?? null,
            d.createdAt,
            d.createdAt,
            position,
            t.countsVersion,
            t.campaignCounts,
            t.campaigns,
            t.categoryCounts,
            t.campaigns,
          ],
        );
        return;
      }
      case 'VoucherPoolStockAdded': {
        const { poolId, quantity, addedAt } = e.data;
        await changePool(trx, t, poolId, position, addedAt, 'total_quantity = l.total_quantity + ?, remaining_quantity = l.remaining_quantity + ?', [
          quantity,
          quantity,
        ]);
        return;
      }
      case 'VoucherPoolRepriced': {
        const { poolId, pricing, repricedAt } = e.data;
        await changePool(trx, t, poolId, position, repricedAt, 'face_value = ?, selling_price = ?, discounted_price = ?, currency = ?', [
          pricing.faceValue,
          pricing.sellingPrice,
          pricing.discountedPrice,
          pricing.currency,
        ]);
        return;
      }
      case 'VoucherPoolDisplayUpdated': {
        const { poolId, display: d, updatedAt } = e.data;
        await changePool(
          trx,
          t,
          poolId,
          position,
          updatedAt,
          'title = ?, short_title = ?, brand_name = ?, logo_url = ?, banner_url = ?, thumbnail_url = ?, description = ?',
          [d.title, d.shortTitle, d.brandName, d.logoUrl, d.bannerUrl, d.thumbnailUrl, d.description],
        );
        return;
      }
      case 'VoucherPoolTermsUpdated': {
        const { poolId, terms, updatedAt } = e.data;
        await changePool(
          trx,
          t,
          poolId,
          position,
          updatedAt,
          'usage_type = ?, terms_and_conditions = ?, validity_days = ?, usage_limit = ?, max_per_day = ?, max_per_order = ?',
          [terms.usageType, terms.termsAndConditions, terms.validityDays, terms.usageLimit, terms.maxPerDay, terms.maxPerOrder],
        );
        return;
      }
      case 'VoucherPoolCategoryChanged':
        // The counts move from the old category's row to the new one's.
        await changePool(trx, t, e.data.poolId, position, e.data.updatedAt, 'category_id = ?', [e.data.categoryId]);
        return;
      case 'VoucherPoolMiniAppsChanged':
        await changePool(trx, t, e.data.poolId, position, e.data.updatedAt, 'mini_app_ids = ARRAY(SELECT jsonb_array_elements_text(?::jsonb))', [
          JSON.stringify(e.data.miniAppIds),
        ]);
        return;
      case 'VoucherPoolValidityChanged': {
        const { poolId, validity, updatedAt } = e.data;
        await changePool(trx, t, poolId, position, updatedAt, 'validity_start_at = ?, validity_end_at = ?', [
          validity?.startAt ?? null,
          validity?.endAt ?? null,
        ]);
        return;
      }
      case 'VoucherPoolDeleted':
        await changePool(trx, t, e.data.poolId, position, e.data.deletedAt, 'deleted = true', []);
        return;
      case 'VoucherStockReserved': {
        const { poolId, quantity, reservedAt } = e.data;
        await changePool(trx, t, poolId, position, reservedAt, 'reserved_quantity = l.reserved_quantity + ?, remaining_quantity = l.remaining_quantity - ?', [
          quantity,
          quantity,
        ]);
        return;
      }
      case 'VoucherStockReleased': {
        const { poolId, quantity, releasedAt } = e.data;
        await changePool(trx, t, poolId, position, releasedAt, 'reserved_quantity = l.reserved_quantity - ?, remaining_quantity = l.remaining_quantity + ?', [
          quantity,
          quantity,
        ]);
        return;
      }
      case 'VoucherStockSold': {
        const { poolId, quantity, soldAt } = e.data;
        await changePool(trx, t, poolId, position, soldAt, 'reserved_quantity = l.reserved_quantity - ?, sold_quantity = l.sold_quantity + ?', [
          quantity,
          quantity,
        ]);
        return;
      }
      default:
        return;
    }
  },
};

function bannerRow(campaignId: number, b: CampaignBanner) {
  return {
    campaign_id: campaignId,
    banner_id: b.id,
    channel_code: b.channelCode,
    position_code: b.positionCode,
    asset_url: b.assetUrl,
    asset_type: b.assetType,
    alt_text: b.altText,
    click_url: b.clickUrl,
    display_order: b.displayOrder,
  };
}

/**
 * Moves the campaign row to `position` with `changes`, unless it already
 * applied that event (or a later one of its stream); answers whether it did.
 */
async function advanceCampaign(trx: Knex.Transaction, table: string, campaignId: number, position: string, changes: Record<string, unknown>): Promise<boolean> {
  const updated = await trx(table)
    .where({ campaign_id: campaignId })
    .where('last_position', '<', position)
    .update({ ...changes, last_position: position });
  return updated > 0;
}

/** Recomputes where the campaign's CAROUSEL banners show, after its banners changed. */
async function refreshCarouselChannels(trx: Knex.Transaction, t: { campaigns: string; banners: string }, campaignId: number): Promise<void> {
  await trx.raw(
    `UPDATE ?? SET carousel_channels = ARRAY(SELECT DISTINCT channel_code FROM ?? WHERE campaign_id = ? AND position_code = 'CAROUSEL' ORDER BY 1)
     WHERE campaign_id = ?`,
    [t.campaigns, t.banners, campaignId, campaignId],
  );
}

/** The campaign's columns the count tables carry, so that the listing's totals and page boundaries read one table. */
const copied = ['status', 'type', 'campaign_tag', 'display_priority', 'start_at', 'end_at'];
const copiedColumns = copied.join(', ');
const copiedFromCampaign = copied.map((column) => `c.${column}`).join(', ');

/** Copies the campaign's columns into its rows of both count tables, after the campaign changed. */
async function copyCampaignIntoCounts(
  trx: Knex.Transaction,
  t: { campaigns: string; campaignCounts: string; categoryCounts: string; countsVersion: string },
  campaignId: number,
): Promise<void> {
  const set = copied.map((column) => `${column} = c.${column}`).join(', ');
  await trx.raw(
    `WITH per_campaign AS (UPDATE ?? n SET ${set} FROM ?? c WHERE c.campaign_id = ? AND n.campaign_id = c.campaign_id),
       bump AS (UPDATE ?? SET version = version + 1)
     UPDATE ?? s SET ${set} FROM ?? c WHERE c.campaign_id = ? AND s.campaign_id = c.campaign_id`,
    [t.campaignCounts, t.campaigns, campaignId, t.countsVersion, t.categoryCounts, t.campaigns, campaignId],
  );
}

/**
 * The tail of a statement whose CTE `delta(campaign_id, category_id, pools,
 * in_stock, sold)` holds the change of listing rows' contributions: adds it to
 * the counts per campaign and per campaign and category (bindings: version
 * table, counts table, campaigns table, category counts table, campaigns
 * table); a new count row takes the campaign's columns from its row; a change
 * of pool counts moves the version.
 */
const addCounts = `,
  moved AS (
    SELECT campaign_id, category_id, sum(pools)::int AS pools, sum(in_stock)::int AS in_stock, sum(sold)::bigint AS sold
    FROM delta GROUP BY campaign_id, category_id
  ),
  bump AS (UPDATE ?? SET version = version + 1 WHERE EXISTS (SELECT 1 FROM moved WHERE pools <> 0)),
  campaign_counts AS (
    INSERT INTO ?? AS n (campaign_id, pool_count, in_stock_count, sold_quantity, ${copiedColumns})
    SELECT m.campaign_id, m.pools, m.in_stock, m.sold, ${copiedFromCampaign}
    FROM (
      SELECT campaign_id, sum(pools) AS pools, sum(in_stock) AS in_stock, sum(sold) AS sold FROM moved GROUP BY campaign_id
      HAVING sum(pools) <> 0 OR sum(in_stock) <> 0 OR sum(sold) <> 0
    ) m LEFT JOIN ?? c ON c.campaign_id = m.campaign_id
    ON CONFLICT (campaign_id) DO UPDATE SET pool_count = n.pool_count + EXCLUDED.pool_count,
      in_stock_count = n.in_stock_count + EXCLUDED.in_stock_count, sold_quantity = n.sold_quantity + EXCLUDED.sold_quantity
  )
  INSERT INTO ?? AS s (campaign_id, category_id, pool_count, ${copiedColumns})
  SELECT m.campaign_id, m.category_id, m.pools, ${copiedFromCampaign}
  FROM moved m LEFT JOIN ?? c ON c.campaign_id = m.campaign_id WHERE m.pools <> 0
  ON CONFLICT (campaign_id, category_id) DO UPDATE SET pool_count = s.pool_count + EXCLUDED.pool_count`;

/**
 * Applies `set` to a pool's listing row unless the row already applied this
 * event, and moves the campaign/category counts by the difference between
 * the row's contribution before and after, in one statement.
 */
async function changePool(
  trx: Knex.Transaction,
  t: { listings: string; campaigns: string; campaignCounts: string; categoryCounts: string; countsVersion: string },
  poolId: number,
  position: string,
  at: string,
  set: string,
  bindings: (string | number | null)[],
): Promise<void> {
  await trx.raw(
    `WITH before AS (
       SELECT pool_id, campaign_id, category_id, deleted, remaining_quantity, sold_quantity FROM ?? WHERE pool_id = ? AND last_position < ?
     ),
     after AS (
       UPDATE ?? l SET ${set}, updated_at = ?, last_position = ? FROM before WHERE l.pool_id = before.pool_id
       RETURNING l.campaign_id, l.category_id, l.deleted, l.remaining_quantity, l.sold_quantity
     ),
     delta AS (
       SELECT campaign_id, category_id, -(NOT deleted)::int AS pools, -(NOT deleted AND remaining_quantity > 0)::int AS in_stock, -sold_quantity AS sold FROM before
       UNION ALL
       SELECT campaign_id, category_id, (NOT deleted)::int, (NOT deleted AND remaining_quantity > 0)::int, sold_quantity FROM after
     )
     ${addCounts}`,
    [t.listings, poolId, position, t.listings, ...bindings, at, position, t.countsVersion, t.campaignCounts, t.campaigns, t.categoryCounts, t.campaigns],
  );
}
