import type { Knex } from 'knex';
import {
  type CampaignEvent,
  shopEventDecoder,
  type ShopEvent,
  type VoucherPoolEvent,
} from '../../domain/shop/index.js';
import {
  announceChanges,
  runs,
  type PhysicalNames,
  type Projected,
  type ProjectedEvent,
  type Projector,
} from '../shared/projector.js';
import {
  applyCampaignEvent,
  applyCampaignRun,
  campaignEventTypes,
  campaignRun,
  campaignsFamily,
} from './catalog-campaigns.js';
import { countsFamily } from './catalog-counts.js';
import { applyPoolEvent, createPools, listingEventTypes, listingsFamily, poolRun } from './catalog-listings.js';
import { moveStock, stockRun } from './catalog-stock.js';
import { tablesOf, type Tables } from './catalog-tables.js';

/**
 * The shop catalog's read models: campaigns, their banners, one listing row
 * per voucher pool, and pool counts per campaign and per campaign and
 * category (the listing's totals and the campaigns' voucherSummary, without
 * counting listing rows). Tables and columns: docs/projections.md, "Shop catalog".
 *
 * Idempotent on its own, not only behind the runner's checkpoint: a campaign
 * row and a listing row each keep the global position of the last event of
 * their stream they applied, and an event at or before it changes nothing
 * (counts move only together with the listing row they derive from).
 *
 * One projector, one module per table family: catalog-campaigns.ts (campaigns
 * and banners), catalog-listings.ts (voucher listings), catalog-counts.ts (the
 * pool counts and the counts version, written by the others' statements);
 * catalog-tables.ts names them. The projector's name and version are its
 * checkpoint and rebuild identity, and the read model hears its changes under
 * that name (infrastructure/shop/catalog-read-model.ts).
 */

/** The table families, in the order their tables are created. */
const families = [campaignsFamily, listingsFamily, countsFamily];

export const catalogProjector: Projector = {
  name: 'shop-catalog',
  // 4: table comments name every event that feeds them (rows unchanged).
  version: 4,
  eventTypes: new Set<(CampaignEvent | VoucherPoolEvent)['type']>([...campaignEventTypes, ...listingEventTypes]),
  decoder: shopEventDecoder,
  tables: families.flatMap((family) => family.tables),

  async createTables(knex: Knex, names: PhysicalNames) {
    const t = tablesOf(names);
    await knex.raw(families.map((family) => family.createSql(t)).join('\n'));
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<ShopEvent>[], names: PhysicalNames) {
    const t = tablesOf(names);
    for (const run of runs(events, [campaignRun, poolRun, stockRun])) {
      const type = run[0]!.type;
      if (campaignRun.has(type)) await applyCampaignRun(trx, t, run);
      else if (poolRun.has(type)) await createPools(trx, t, run);
      else if (stockRun.has(type)) await moveStock(trx, t, run);
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
 * (infrastructure/shop/catalog-voucher-parts.ts, catalog-voucher-pages.ts): `p<poolId>` for a pool's
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

/** Which family applies an event: the campaigns family's, or the listings family's. */
const isCampaignEvent = (e: { type: string }): e is CampaignEvent =>
  campaignEventTypes.has(e.type as CampaignEvent['type']);
const isPoolEvent = (e: { type: string }): e is VoucherPoolEvent =>
  listingEventTypes.has(e.type as VoucherPoolEvent['type']);

/** Any other event, on its own. */
async function applyOne(trx: Knex.Transaction, t: Tables, e: Projected<ShopEvent>): Promise<void> {
  if (isCampaignEvent(e)) await applyCampaignEvent(trx, t, e, e.position);
  else if (isPoolEvent(e)) await applyPoolEvent(trx, t, e, e.position);
}
