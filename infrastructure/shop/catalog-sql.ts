import type { Knex } from 'knex';
import type { VoucherFilter } from '../../application/shop/index.js';
import type { Currency } from '../../domain/shop/index.js';
import { preparedRows } from '../shared/prepared-query.js';

/**
 * The SQL the catalog read model (catalog-read-model.ts) shares between its parts: the voucher row's columns and
 * shape, the listing conditions, and how a statement is built and read.
 *
 * Right after a bulk load the tables have no statistics yet, and a join the
 * planner orders from guesses can cost seconds; so every join of the catalog's
 * reads is a LATERAL lookup with LIMIT from the side known to be small, which
 * leaves the planner no order to choose.
 */

export interface ListingRow {
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
  /** Times of vouchers come as ISO 8601 text (isoText), ready for the response. */
  validity_start_at: string | null;
  validity_end_at: string | null;
  campaign_name: string;
  campaign_tag: string;
  campaign_display_priority: number;
  campaign_start_at: string;
  campaign_end_at: string;
}

/**
 * A timestamptz column as the responses write times, ISO 8601 in UTC with milliseconds (as Date.toISOString):
 * formatted by PostgreSQL, so the rows of a page need no date parsing and formatting in the process.
 */
const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The pool's columns of a voucher (alias l) and its campaign's (alias c), named as ListingRow. */
export const voucherColumns = [
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
]
  .map((c) => `l.${c}`)
  .concat([
    `${isoText('l.validity_start_at')} AS validity_start_at`,
    `${isoText('l.validity_end_at')} AS validity_end_at`,
    'c.name AS campaign_name',
    'c.campaign_tag',
    'c.display_priority AS campaign_display_priority',
    `${isoText('c.start_at')} AS campaign_start_at`,
    `${isoText('c.end_at')} AS campaign_end_at`,
  ])
  .join(', ');

/** A piece of SQL and its bindings. */
export interface Sql {
  text: string;
  bindings: Knex.RawBinding[];
}

export const sql = (text: string, ...bindings: Knex.RawBinding[]): Sql => ({ text, bindings });

/** The pieces joined by `separator`, bindings in order. */
export function join(pieces: Sql[], separator: string): Sql {
  return { text: pieces.map((p) => p.text).join(separator), bindings: pieces.flatMap((p) => p.bindings) };
}

/**
 * Placeholders for ids bound one by one (one statement per count, at most a page's size): PostgreSQL then settles on
 * a generic plan and stops planning the statement at each call, which it never does for an array of unknown length.
 */
export const scalars = (ids: readonly number[]) => ids.map(() => '?').join(', ');

/**
 * Conditions on campaign `c` for its vouchers to be listed at `now`, and the
 * campaign-level filters; `c` is a shop_campaigns row or a count row (which
 * carries the same campaign columns).
 */
export function listedCampaign(
  now: Date,
  filter: Pick<VoucherFilter, 'tags' | 'campaignIds' | 'excludeCampaignIds'> = {},
): Sql {
  const conditions = [sql(`c.status = 'ACTIVE' AND c.type = 'SELL' AND c.start_at <= ? AND c.end_at > ?`, now, now)];
  if (filter.tags) conditions.push(sql('c.campaign_tag = ANY(?::text[])', filter.tags));
  if (filter.campaignIds) conditions.push(sql('c.campaign_id = ANY(?::bigint[])', filter.campaignIds));
  if (filter.excludeCampaignIds) conditions.push(sql('c.campaign_id <> ALL(?::bigint[])', filter.excludeCampaignIds));
  return join(conditions, ' AND ');
}

/** Campaign `c` (a shop_campaigns row) is shown at `now`. */
export const shownCampaign = (now: Date) =>
  sql(`c.status = 'ACTIVE' AND c.type = 'SELL' AND c.shown_from <= ? AND c.end_at > ?`, now, now);

/** Pool-level conditions on listing row `l`. */
export function listedPool(filter: Pick<VoucherFilter, 'categoryIds'> = {}): Sql {
  const conditions = [sql('NOT l.deleted')];
  if (filter.categoryIds) conditions.push(sql('l.category_id = ANY(?::bigint[])', filter.categoryIds));
  return join(conditions, ' AND ');
}

/** Every read of the catalog is a prepared statement (infrastructure/shared/prepared-query.ts). */
export function readRows<Row>(knex: Knex, query: Sql): Promise<Row[]> {
  return preparedRows<Row>(knex, query.text, query.bindings);
}
