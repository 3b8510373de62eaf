import type { Knex } from 'knex';
import type { VoucherPoolCreated, VoucherPoolEvent } from '../../domain/shop/index.js';
import { firstOfEach, type ProjectedEvent } from '../shared/projector.js';
import { addCounts, addCountsTables } from './catalog-counts.js';
import { listings, q, type TableFamily, type Tables } from './catalog-tables.js';

/**
 * The catalog's voucher listings (shop_voucher_listings), one row per voucher pool, from the pool and stock events
 * (runs of stock moves in catalog-stock.ts): a table family of the catalog projector (catalog.ts). Each statement that
 * changes a listing row adds the change of its contribution to the pool counts in the same statement
 * (catalog-counts.ts).
 */

/** The events of this family: every voucher pool event. */
export const listingEventTypes = new Set<VoucherPoolEvent['type']>([
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
]);

/** Runs of these events are written in one statement (a bulk catalog import, a rebuild). */
export const poolRun = new Set(['VoucherPoolCreated']);

export const listingsFamily: TableFamily = {
  tables: [
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
  ],

  createSql: (t) => `
      CREATE TABLE ${q(t.listings)} (
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
      CREATE INDEX ${q(`${t.listings}_campaign`)} ON ${q(t.listings)} (campaign_id, pool_id) WHERE NOT deleted;
      CREATE INDEX ${q(`${t.listings}_campaign_category`)} ON ${q(t.listings)} (campaign_id, category_id, pool_id) WHERE NOT deleted;
  `,
};

/** A pool event outside a run, on its own. */
export async function applyPoolEvent(
  trx: Knex.Transaction,
  t: Tables,
  e: VoucherPoolEvent,
  position: string,
): Promise<void> {
  switch (e.type) {
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
export async function createPools(trx: Knex.Transaction, t: Tables, run: readonly ProjectedEvent[]): Promise<void> {
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
