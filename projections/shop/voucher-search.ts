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
import { createSearchTables, searchTables } from './voucher-search-tables.js';
import { campaignName, displayTexts, poolText, wordsOf } from './voucher-search-text.js';
import {
  addWords,
  advancePool,
  changeCampaign,
  changeStatuses,
  createCampaigns,
  createPools,
  markChange,
} from './voucher-search-writes.js';

/**
 * The search read model of the shop's vouchers (endpoint 3): one row per
 * voucher pool with its searched text (title, brand, description, campaign
 * name) lower-cased and folded, the keys of its words (the index), and what
 * decides whether it is listed; the campaigns as far as pools need them (a
 * pool may arrive before or after its campaign); every word with its key, for
 * prefixes; and the vocabulary the search finds typo candidates in. The
 * search rows hold only what the search reads, so that a scan over many
 * matches touches few pages.
 *
 * Here, which event changes what; the tables in voucher-search-tables.ts,
 * the text forms in voucher-search-text.ts, the statements in
 * voucher-search-writes.ts. Docs: docs/shop-search.md.
 */
export const voucherSearchProjector: Projector = {
  name: 'shop-voucher-search',
  version: 2,
  eventTypes: new Set<(VoucherPoolEvent | CampaignEvent)['type']>([
    'VoucherPoolCreated',
    'VoucherPoolDisplayUpdated',
    'VoucherPoolDeleted',
    'CampaignCreated',
    'CampaignStatusChanged',
    'CampaignDetailsUpdated',
  ]),
  decoder: shopEventDecoder,
  tables: searchTables,
  createTables: createSearchTables,

  async apply(trx: Knex.Transaction, events: readonly Projected<ShopEvent>[], names: PhysicalNames) {
    for (const run of runs(events, [poolRun, campaignRun])) {
      const type = run[0]!.type;
      if (poolRun.has(type)) await createPools(trx, names, run);
      else if (campaignRun.has(type)) await applyCampaignRun(trx, names, run);
      else await applyOne(trx, names, run[0]!);
    }
    // What the search finds may have changed: readers keeping the version (infrastructure/shop/voucher-search-read-model.ts)
    // read it again. Announced for every batch, redelivered ones too, rather than reading the version before and after
    // each batch: a needless announcement costs a reader one small read, those two reads cost every batch.
    await announceChanges(trx, voucherSearchProjector.name, new Set(['version']));
  },
};

/** Runs of these events are written in a statement or two (a bulk catalog import, a rebuild). */
const poolRun = new Set(['VoucherPoolCreated']);
const campaignRun = new Set(['CampaignCreated', 'CampaignStatusChanged']);

/**
 * Campaigns created and their status changes: the creations first, then the
 * status changes. That is the order of the log for each campaign (its
 * creation comes first; a creation seen after a change of its campaign is a
 * redelivery, which changes nothing), and different campaigns' events commute.
 */
async function applyCampaignRun(
  trx: Knex.Transaction,
  names: PhysicalNames,
  run: readonly ProjectedEvent[],
): Promise<void> {
  const created = run.filter((e) => e.type === 'CampaignCreated');
  const statusChanges = run.filter((e) => e.type === 'CampaignStatusChanged');
  if (created.length > 0) await createCampaigns(trx, names, created);
  if (statusChanges.length > 0) await changeStatuses(trx, names, statusChanges);
}

/** Any other event, on its own. */
async function applyOne(trx: Knex.Transaction, names: PhysicalNames, e: Projected<ShopEvent>): Promise<void> {
  const { position } = e;
  switch (e.type) {
    case 'VoucherPoolDisplayUpdated': {
      const text = poolText(e.data.display);
      if (await advancePool(trx, names, e.data.poolId, position, { ...text, updated_at: e.data.updatedAt })) {
        await addWords(trx, names, wordsOf(displayTexts(e.data.display)));
        await markChange(trx, names, position);
      }
      return;
    }
    case 'VoucherPoolDeleted':
      if (await advancePool(trx, names, e.data.poolId, position, { pool_deleted: true, updated_at: e.data.deletedAt }))
        await markChange(trx, names, position);
      return;
    case 'CampaignDetailsUpdated': {
      const d = e.data;
      const name = campaignName(d.name);
      const changed = {
        ...name,
        tag: d.campaignTag,
        display_priority: d.displayPriority,
        start_at: d.startAt,
        end_at: d.endAt,
        updated_at: d.updatedAt,
      };
      await changeCampaign(trx, names, d.campaignId, position, changed, wordsOf([d.name]));
      return;
    }
    default:
      return;
  }
}
