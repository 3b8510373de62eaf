import type { Knex } from 'knex';
import type { CampaignBanner, CampaignCreated, CampaignEvent, CampaignStatusChanged } from '../../domain/shop/index.js';
import { guardedChanges } from '../shared/guarded-changes.js';
import { firstOfEach, type ProjectedEvent } from '../shared/projector.js';
import { copiedColumns, copiedFromCampaign, copyIntoCounts, countTables } from './catalog-counts.js';
import { banners, campaigns, q, type TableFamily, type Tables } from './catalog-tables.js';

/**
 * The catalog's campaigns and their banners (shop_campaigns,
 * shop_campaign_banners), from the campaign events: a table family of the
 * catalog projector (catalog.ts). Each statement that changes what the count
 * rows copy of a campaign copies it into them, and moves the counts version,
 * in the same statement (catalog-counts.ts).
 */

/** The events of this family: every campaign event. */
export const campaignEventTypes = new Set<CampaignEvent['type']>([
  'CampaignCreated',
  'CampaignStatusChanged',
  'CampaignDetailsUpdated',
  'CampaignBannerAdded',
  'CampaignBannerUpdated',
  'CampaignBannerRemoved',
]);

/** Runs of these events are written in a statement or two (a bulk catalog import, a rebuild). */
export const campaignRun = new Set(['CampaignCreated', 'CampaignStatusChanged']);

export const campaignsFamily: TableFamily = {
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
  ],

  createSql: (t) => `
      CREATE TABLE ${q(t.campaigns)} (
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
      CREATE INDEX ${q(`${t.campaigns}_shown`)} ON ${q(t.campaigns)} (display_priority, campaign_id) WHERE status = 'ACTIVE' AND type = 'SELL';
      CREATE INDEX ${q(`${t.campaigns}_tag_shown`)} ON ${q(t.campaigns)} (campaign_tag, display_priority, campaign_id) WHERE status = 'ACTIVE' AND type = 'SELL';

      CREATE TABLE ${q(t.banners)} (
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
      CREATE INDEX ${q(`${t.banners}_channel`)} ON ${q(t.banners)} (campaign_id, channel_code, position_code);
  `,
};

/**
 * Campaigns created and their status changes: the creations first, then the
 * status changes. That is the order of the log for each campaign (its
 * creation comes first; a creation seen after a change of its campaign is a
 * redelivery, which changes nothing), and different campaigns' events commute.
 */
export async function applyCampaignRun(
  trx: Knex.Transaction,
  t: Tables,
  run: readonly ProjectedEvent[],
): Promise<void> {
  const created = run.filter((e) => e.type === 'CampaignCreated');
  const statusChanges = run.filter((e) => e.type === 'CampaignStatusChanged');
  if (created.length > 0) await createCampaigns(trx, t, created);
  if (statusChanges.length > 0) await changeStatuses(trx, t, statusChanges);
}

/** A campaign event outside a run, on its own. */
export async function applyCampaignEvent(
  trx: Knex.Transaction,
  t: Tables,
  e: CampaignEvent,
  position: string,
): Promise<void> {
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
