import type { Knex } from 'knex';
import type {
  CampaignBanner,
  CampaignCreated,
  CampaignEvent,
  CampaignStatusChanged,
} from '../../domain/shop/campaign.js';
import { shopEventDecoder } from '../../domain/shop/event-decoder.js';
import type { ShopEvent, VoucherPoolCreated, VoucherPoolEvent } from '../../domain/shop/events.js';
import { guardedChanges } from '../shared/guarded-changes.js';
import {
  announceChanges,
  firstOfEach,
  physical,
  runs,
  type PhysicalNames,
  type Projected,
  type ProjectedEvent,
  type Projector,
} from '../shared/projector.js';

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
  // 4: table comments name every event that feeds them (rows unchanged).
  version: 4,
  eventTypes: new Set<(CampaignEvent | VoucherPoolEvent)['type']>([
    'CampaignCreated',
    'CampaignStatusChanged',
    'CampaignDetailsUpdated',
    'CampaignBannerAdded',
    'CampaignBannerUpdated',
    'CampaignBannerRemoved',
    'VoucherPoolCreated',
    'VoucherPoolStockAdded',
    'VoucherPoolRepriced',
    'VoucherPoolDisplayUpdated',
    'VoucherPoolTermsUpdated',
    'VoucherPoolCategoryChanged',
    'VoucherPoolMiniAppsChanged',
    'VoucherPoolValidityChanged',
    'VoucherPoolDeleted',
    'VoucherStockReserved',
    'VoucherStockReleased',
    'VoucherStockSold',
  ]),
  decoder: shopEventDecoder,
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
        display_priority:
          'Display order, 1 = highest; the voucher listing sorts on it, then on campaign_id and pool_id.',
        theme_url: 'Theme/background image URL.',
        start_at: 'Start of the campaign window: its vouchers are listed from then.',
        end_at: 'End of the campaign window (exclusive).',
        presale_enabled: 'Presale on; null when the campaign has no presale settings.',
        presale_start_at: 'Presale start; null without presale settings.',
        presale_countdown_enabled: 'Presale shows a countdown; null without presale settings.',
        presale_teaser_text: 'Presale teaser text; null without presale settings.',
        presale_teaser_image_url: 'Presale teaser image URL; null without presale settings.',
        shown_from:
          'When the shop starts showing the campaign: presale_start_at when presale is enabled, else start_at.',
        carousel_channels:
          'Channels (APP, WEB) on which the campaign has a CAROUSEL banner: where the home carousel shows it.',
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
        'Voucher pool counts per campaign: the totals of the voucher listing and the voucherSummary of campaigns (narrow, so frequent updates stay cheap); eventually consistent (lag at /metrics). Derived from the rows of shop_voucher_listings, so fed by the same pool events; the campaign columns by CampaignCreated, CampaignStatusChanged and CampaignDetailsUpdated.',
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
        'Voucher pool counts per campaign and category: the totals of the voucher listing filtered by category; eventually consistent (lag at /metrics). Derived from the rows of shop_voucher_listings, so fed by the same pool events; the campaign columns by CampaignCreated, CampaignStatusChanged and CampaignDetailsUpdated.',
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
        'One row: changes whenever the pool counts or the campaign columns of the two count tables change (not with sales), so readers can keep what they derived from them until then. Fed by the events of those tables: VoucherPoolCreated, VoucherPoolDeleted, VoucherPoolCategoryChanged, CampaignCreated, CampaignStatusChanged, CampaignDetailsUpdated.',
      columns: {
        epoch: 'Random per generation of the tables, so a version is never repeated by a rebuild.',
        version: 'Incremented at each such change.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    const [c, b, l, n, s, v] = [campaigns, banners, listings, campaignCounts, categoryCounts, countsVersion].map((t) =>
      physical(names, t),
    );
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

  async apply(trx: Knex.Transaction, events: readonly Projected<ShopEvent>[], names: PhysicalNames) {
    const t = tablesOf(names);
    for (const run of runs(events, [campaignRun, poolRun])) {
      const type = run[0]!.type;
      if (campaignRun.has(type)) await applyCampaignRun(trx, t, run);
      else if (poolRun.has(type)) await createPools(trx, t, run);
      else await applyOne(trx, t, run[0]!);
    }
    await announceChanges(trx, catalogProjector.name, changedKeys(events));
  },
};

/**
 * The events that can move the counts version: they create, delete or move pools between categories, or change
 * what the count rows copy of a campaign. Announcing `counts` for them, redelivered ones too, costs readers a page
 * read again at most; reading the version before and after each batch would cost every batch two statements.
 */
const countsEvents = new Set([
  'CampaignCreated',
  'CampaignStatusChanged',
  'CampaignDetailsUpdated',
  'VoucherPoolCreated',
  'VoucherPoolCategoryChanged',
  'VoucherPoolDeleted',
]);

/**
 * What the events change, as the catalog's caches key them
 * (infrastructure/shop/catalog-read-model.ts): `p<poolId>` for a pool's
 * listing row, `c<campaignId>` for a campaign row (its status, window, name,
 * tag and priority go into every voucher of the campaign), and `counts` for
 * the events that can move the counts version (countsEvents), which is when
 * the pools on a page of the listing may have changed. Creations change no
 * row anyone can have read before.
 */
function changedKeys(events: readonly ProjectedEvent[]): Set<string> {
  const keys = new Set<string>();
  let counts = false;
  for (const { type, data } of events) {
    counts ||= countsEvents.has(type);
    if (type === 'CampaignCreated' || type === 'VoucherPoolCreated') continue;
    const { poolId, campaignId } = data as { poolId?: number; campaignId?: number };
    if (poolId !== undefined) keys.add(`p${poolId}`);
    else if (campaignId !== undefined) keys.add(`c${campaignId}`);
  }
  if (counts) keys.add('counts');
  return keys;
}

/** Runs of these events are written in a statement or two (a bulk catalog import, a rebuild). */
const campaignRun = new Set(['CampaignCreated', 'CampaignStatusChanged']);
const poolRun = new Set(['VoucherPoolCreated']);

/**
 * Campaigns created and their status changes: the creations first, then the
 * status changes. That is the order of the log for each campaign (its
 * creation comes first; a creation seen after a change of its campaign is a
 * redelivery, which changes nothing), and different campaigns' events commute.
 */
async function applyCampaignRun(trx: Knex.Transaction, t: Tables, run: readonly ProjectedEvent[]): Promise<void> {
  const created = run.filter((e) => e.type === 'CampaignCreated');
  const statusChanges = run.filter((e) => e.type === 'CampaignStatusChanged');
  if (created.length > 0) await createCampaigns(trx, t, created);
  if (statusChanges.length > 0) await changeStatuses(trx, t, statusChanges);
}

interface Tables {
  campaigns: string;
  banners: string;
  listings: string;
  campaignCounts: string;
  categoryCounts: string;
  countsVersion: string;
}

function tablesOf(names: PhysicalNames): Tables {
  return {
    campaigns: physical(names, campaigns),
    banners: physical(names, banners),
    listings: physical(names, listings),
    campaignCounts: physical(names, campaignCounts),
    categoryCounts: physical(names, categoryCounts),
    countsVersion: physical(names, countsVersion),
  };
}

/** Any other event, on its own. */
async function applyOne(trx: Knex.Transaction, t: Tables, e: Projected<ShopEvent>): Promise<void> {
  const position = e.position;
  switch (e.type) {
    case 'CampaignDetailsUpdated': {
      const d = e.data;
      await changeCampaign(trx, t, d.campaignId, position, {
        name: d.name,
        description: d.description,
        campaign_tag: d.campaignTag,
        display_priority: d.displayPriority,
        theme_url: d.themeUrl,
        start_at: d.startAt,
        end_at: d.endAt,
        ...presaleColumns(d.presale),
        updated_at: d.updatedAt,
      });
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
      await trx(t.banners)
        .where({ campaign_id: campaignId, banner_id: banner.id })
        .update(bannerRow(campaignId, banner));
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
    case 'VoucherPoolStockAdded': {
      const { poolId, quantity, addedAt } = e.data;
      await changePool(
        trx,
        t,
        poolId,
        position,
        addedAt,
        'total_quantity = l.total_quantity + ?, remaining_quantity = l.remaining_quantity + ?',
        [quantity, quantity],
      );
      return;
    }
    case 'VoucherPoolRepriced': {
      const { poolId, pricing, repricedAt } = e.data;
      await changePool(
        trx,
        t,
        poolId,
        position,
        repricedAt,
        'face_value = ?, selling_price = ?, discounted_price = ?, currency = ?',
        [pricing.faceValue, pricing.sellingPrice, pricing.discountedPrice, pricing.currency],
      );
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
        [
          terms.usageType,
          terms.termsAndConditions,
          terms.validityDays,
          terms.usageLimit,
          terms.maxPerDay,
          terms.maxPerOrder,
        ],
      );
      return;
    }
    case 'VoucherPoolCategoryChanged':
      // The counts move from the old category's row to the new one's.
      await changePool(trx, t, e.data.poolId, position, e.data.updatedAt, 'category_id = ?', [e.data.categoryId]);
      return;
    case 'VoucherPoolMiniAppsChanged':
      await changePool(
        trx,
        t,
        e.data.poolId,
        position,
        e.data.updatedAt,
        'mini_app_ids = ARRAY(SELECT jsonb_array_elements_text(?::jsonb))',
        [JSON.stringify(e.data.miniAppIds)],
      );
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
      await changePool(
        trx,
        t,
        poolId,
        position,
        reservedAt,
        'reserved_quantity = l.reserved_quantity + ?, remaining_quantity = l.remaining_quantity - ?',
        [quantity, quantity],
      );
      return;
    }
    case 'VoucherStockReleased': {
      const { poolId, quantity, releasedAt } = e.data;
      await changePool(
        trx,
        t,
        poolId,
        position,
        releasedAt,
        'reserved_quantity = l.reserved_quantity - ?, remaining_quantity = l.remaining_quantity + ?',
        [quantity, quantity],
      );
      return;
    }
    case 'VoucherStockSold': {
      const { poolId, quantity, soldAt } = e.data;
      await changePool(
        trx,
        t,
        poolId,
        position,
        soldAt,
        'reserved_quantity = l.reserved_quantity - ?, sold_quantity = l.sold_quantity + ?',
        [quantity, quantity],
      );
      return;
    }
    default:
      return;
  }
}

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

/** A run of CampaignStatusChanged in one statement, as applying them one by one (guardedChanges), then copied into the count rows. */
async function changeStatuses(trx: Knex.Transaction, t: Tables, run: readonly ProjectedEvent[]): Promise<void> {
  const changes = run.map((e, ordinal) => {
    const d = e.data as CampaignStatusChanged['data'];
    return { ordinal, campaign_id: d.campaignId, position: e.position, status: d.to, updated_at: d.changedAt };
  });
  await trx.raw(
    `WITH ${guardedChanges({ key: 'campaign_id', keyType: 'bigint' }, { status: 'text', updated_at: 'timestamptz' })},
     changed AS (
       UPDATE ?? c SET status = l.status, updated_at = l.updated_at, last_position = l.position FROM latest l WHERE c.campaign_id = l.campaign_id
       RETURNING c.campaign_id, ${copiedFromCampaign}
     )${copyIntoCounts}`,
    [JSON.stringify(changes), t.campaigns, t.campaigns, ...countTables(t)],
  );
}

/**
 * Moves the campaign row to `position` with `changes`, unless it already
 * applied that event (or a later one of its stream); answers whether it did.
 */
async function advanceCampaign(
  trx: Knex.Transaction,
  table: string,
  campaignId: number,
  position: string,
  changes: Record<string, unknown>,
): Promise<boolean> {
  const updated = await trx(table)
    .where({ campaign_id: campaignId })
    .where('last_position', '<', position)
    .update({ ...changes, last_position: position });
  return updated > 0;
}

/** Recomputes where the campaign's CAROUSEL banners show, after its banners changed. */
async function refreshCarouselChannels(trx: Knex.Transaction, t: Tables, campaignId: number): Promise<void> {
  await trx.raw(
    `UPDATE ?? SET carousel_channels = ARRAY(SELECT DISTINCT channel_code FROM ?? WHERE campaign_id = ? AND position_code = 'CAROUSEL' ORDER BY 1)
     WHERE campaign_id = ?`,
    [t.campaigns, t.banners, campaignId, campaignId],
  );
}

function presaleColumns(presale: CampaignCreated['data']['presale']) {
  return {
    presale_enabled: presale?.enabled ?? null,
    presale_start_at: presale?.startAt ?? null,
    presale_countdown_enabled: presale?.countdownEnabled ?? null,
    presale_teaser_text: presale?.teaserText ?? null,
    presale_teaser_image_url: presale?.teaserImageUrl ?? null,
  };
}

/** A campaign's row as CampaignCreated makes it. */
function campaignRow(d: CampaignCreated['data'], position: string) {
  // As refreshCarouselChannels has them: distinct, sorted (APP, WEB sort alike in any collation).
  const carousel = [
    ...new Set(d.banners.filter((b) => b.positionCode === 'CAROUSEL').map((b) => b.channelCode)),
  ].sort();
  return {
    campaign_id: d.campaignId,
    code: d.code,
    name: d.name,
    description: d.description,
    campaign_tag: d.campaignTag,
    type: d.type,
    status: d.status,
    display_priority: d.displayPriority,
    theme_url: d.themeUrl,
    start_at: d.startAt,
    end_at: d.endAt,
    ...presaleColumns(d.presale),
    carousel_channels: carousel,
    created_at: d.createdAt,
    updated_at: d.createdAt,
    last_position: position,
  };
}

/**
 * A run of CampaignCreated in one statement: the campaigns not projected yet
 * (a campaign already there, or twice in the run, keeps its first), their
 * banners and carousel channels; and, should pools of theirs have come first,
 * their columns copied into those pools' count rows.
 */
async function createCampaigns(trx: Knex.Transaction, t: Tables, run: readonly ProjectedEvent[]): Promise<void> {
  const created = firstOfEach(run, (e) => (e.data as CampaignCreated['data']).campaignId);
  const rows = created.map((e) => campaignRow(e.data as CampaignCreated['data'], e.position));
  const bannerRows = created.flatMap((e) => {
    const d = e.data as CampaignCreated['data'];
    return d.banners.map((banner) => bannerRow(d.campaignId, banner));
  });
  const columns = Object.keys(rows[0]!).join(', ');
  await trx.raw(
    `WITH changed AS (
       INSERT INTO ?? AS c (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::??, ?::json)
       ON CONFLICT (campaign_id) DO NOTHING
       RETURNING c.campaign_id, ${copiedColumns}
     ),
     applied AS (SELECT campaign_id FROM changed),
     banners AS (
       INSERT INTO ?? SELECT b.* FROM json_populate_recordset(NULL::??, ?::json) b WHERE b.campaign_id IN (SELECT campaign_id FROM changed)
     )${copyIntoCounts}`,
    [
      t.campaigns,
      t.campaigns,
      JSON.stringify(rows),
      t.banners,
      t.banners,
      JSON.stringify(bannerRows),
      ...countTables(t),
    ],
  );
}

/**
 * Applies a campaign event's `changes` unless the row already applied it (or
 * a later event of the campaign), and copies the campaign into its count rows.
 */
async function changeCampaign(
  trx: Knex.Transaction,
  t: Tables,
  campaignId: number,
  position: string,
  changes: Record<string, string | number | boolean | null>,
): Promise<void> {
  const columns = Object.keys(changes);
  await trx.raw(
    `WITH changed AS (
       UPDATE ?? SET ${columns.map(() => '?? = ?').join(', ')}, last_position = ? WHERE campaign_id = ? AND last_position < ?
       RETURNING campaign_id, ${copiedColumns}
     ),
     applied AS (SELECT campaign_id FROM changed)${copyIntoCounts}`,
    [
      t.campaigns,
      ...columns.flatMap((column) => [column, changes[column]]),
      position,
      campaignId,
      position,
      ...countTables(t),
    ],
  );
}

/** The campaign's columns the count tables carry, so that the listing's totals and page boundaries read one table. */
const copied = ['status', 'type', 'campaign_tag', 'display_priority', 'start_at', 'end_at'];
const copiedColumns = copied.join(', ');
const copiedFromCampaign = copied.map((column) => `c.${column}`).join(', ');
const setCopied = copied.map((column) => `${column} = c.${column}`).join(', ');

/** Bindings of the tails below: the count tables and the version table. */
const countTables = (t: Tables) => [t.campaignCounts, t.categoryCounts, t.countsVersion];

/**
 * The tail of a statement whose CTE `changed` returns the campaign rows it
 * wrote (campaign_id and the copied columns), and `applied` the events that
 * changed them: copies those columns into the campaigns' rows of both count
 * tables, and moves the version once per event (bindings: countTables).
 */
const copyIntoCounts = `,
  per_campaign AS (UPDATE ?? n SET ${setCopied} FROM changed c WHERE n.campaign_id = c.campaign_id),
  per_category AS (UPDATE ?? s SET ${setCopied} FROM changed c WHERE s.campaign_id = c.campaign_id)
  UPDATE ?? SET version = version + (SELECT count(*) FROM applied) WHERE EXISTS (SELECT 1 FROM applied)`;

/**
 * The tail of a statement whose CTE `delta(pool_id, campaign_id, category_id,
 * pools, in_stock, sold)` holds the change of listing rows' contributions: adds
 * it to the counts per campaign and per campaign and category (bindings:
 * countTables); a new count row takes the campaign's columns from its row
 * (bindings: campaigns table). The version moves once per pool whose change
 * moved a pool count, as many times as applying the events one by one would.
 */
const addCounts = `,
  moved AS (
    SELECT campaign_id, category_id, sum(pools)::int AS pools, sum(in_stock)::int AS in_stock, sum(sold)::bigint AS sold
    FROM delta GROUP BY campaign_id, category_id
  ),
  campaign_counts AS (
    INSERT INTO ?? AS n (campaign_id, pool_count, in_stock_count, sold_quantity, ${copiedColumns})
    SELECT m.campaign_id, m.pools, m.in_stock, m.sold, ${copiedFromCampaign}
    FROM (
      SELECT campaign_id, sum(pools) AS pools, sum(in_stock) AS in_stock, sum(sold) AS sold FROM moved GROUP BY campaign_id
      HAVING sum(pools) <> 0 OR sum(in_stock) <> 0 OR sum(sold) <> 0
    ) m LEFT JOIN ?? c ON c.campaign_id = m.campaign_id
    ON CONFLICT (campaign_id) DO UPDATE SET pool_count = n.pool_count + EXCLUDED.pool_count,
      in_stock_count = n.in_stock_count + EXCLUDED.in_stock_count, sold_quantity = n.sold_quantity + EXCLUDED.sold_quantity
  ),
  category_counts AS (
    INSERT INTO ?? AS s (campaign_id, category_id, pool_count, ${copiedColumns})
    SELECT m.campaign_id, m.category_id, m.pools, ${copiedFromCampaign}
    FROM moved m LEFT JOIN ?? c ON c.campaign_id = m.campaign_id WHERE m.pools <> 0
    ON CONFLICT (campaign_id, category_id) DO UPDATE SET pool_count = s.pool_count + EXCLUDED.pool_count
  )
  UPDATE ?? SET version = version + steps.n
  FROM (SELECT count(DISTINCT pool_id) AS n FROM (SELECT pool_id FROM delta GROUP BY pool_id, campaign_id, category_id HAVING sum(pools) <> 0) p) steps
  WHERE steps.n > 0`;

/** Bindings of addCounts. */
const addCountsTables = (t: Tables) => [t.campaignCounts, t.campaigns, t.categoryCounts, t.campaigns, t.countsVersion];

/** A pool's listing row as VoucherPoolCreated makes it. */
function listingRow(d: VoucherPoolCreated['data'], position: string) {
  return {
    pool_id: d.poolId,
    campaign_id: d.campaignId,
    category_id: d.categoryId,
    mini_app_ids: d.miniAppIds,
    title: d.display.title,
    short_title: d.display.shortTitle,
    brand_name: d.display.brandName,
    logo_url: d.display.logoUrl,
    banner_url: d.display.bannerUrl,
    thumbnail_url: d.display.thumbnailUrl,
    description: d.display.description,
    face_value: d.pricing.faceValue,
    selling_price: d.pricing.sellingPrice,
    discounted_price: d.pricing.discountedPrice,
    currency: d.pricing.currency,
    total_quantity: d.totalQuantity,
    reserved_quantity: 0,
    sold_quantity: 0,
    remaining_quantity: d.totalQuantity,
    usage_type: d.terms.usageType,
    terms_and_conditions: d.terms.termsAndConditions,
    validity_days: d.terms.validityDays,
    usage_limit: d.terms.usageLimit,
    max_per_day: d.terms.maxPerDay,
    max_per_order: d.terms.maxPerOrder,
    validity_start_at: d.validity?.startAt ?? null,
    validity_end_at: d.validity?.endAt ?? null,
    deleted: false,
    created_at: d.createdAt,
    updated_at: d.createdAt,
    last_position: position,
  };
}

/**
 * A run of VoucherPoolCreated in one statement: the listing rows of pools not
 * projected yet (a pool already there, or twice in the run, keeps its first),
 * and their contribution to the counts, which goes in with the rows, once.
 */
async function createPools(trx: Knex.Transaction, t: Tables, run: readonly ProjectedEvent[]): Promise<void> {
  const rows = firstOfEach(run, (e) => (e.data as VoucherPoolCreated['data']).poolId).map((e) =>
    listingRow(e.data as VoucherPoolCreated['data'], e.position),
  );
  const columns = Object.keys(rows[0]!).join(', ');
  await trx.raw(
    `WITH inserted AS (
       INSERT INTO ?? AS l (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::??, ?::json)
       ON CONFLICT (pool_id) DO NOTHING
       RETURNING l.pool_id, l.campaign_id, l.category_id, l.remaining_quantity
     ),
     delta AS (SELECT pool_id, campaign_id, category_id, 1 AS pools, (remaining_quantity > 0)::int AS in_stock, 0 AS sold FROM inserted)
     ${addCounts}`,
    [t.listings, t.listings, JSON.stringify(rows), ...addCountsTables(t)],
  );
}

/**
 * Applies `set` to a pool's listing row unless the row already applied this
 * event, and moves the campaign/category counts by the difference between
 * the row's contribution before and after, in one statement.
 */
async function changePool(
  trx: Knex.Transaction,
  t: Tables,
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
       RETURNING l.pool_id, l.campaign_id, l.category_id, l.deleted, l.remaining_quantity, l.sold_quantity
     ),
     delta AS (
       SELECT pool_id, campaign_id, category_id, -(NOT deleted)::int AS pools, -(NOT deleted AND remaining_quantity > 0)::int AS in_stock, -sold_quantity AS sold
       FROM before
       UNION ALL
       SELECT pool_id, campaign_id, category_id, (NOT deleted)::int, (NOT deleted AND remaining_quantity > 0)::int, sold_quantity FROM after
     )
     ${addCounts}`,
    [t.listings, poolId, position, t.listings, ...bindings, at, position, ...addCountsTables(t)],
  );
}
