import type { Knex } from 'knex';
import type { ProjectedEvent } from '../shared/projector.js';
import { addCounts, addCountsTables } from './catalog-counts.js';
import type { Tables } from './catalog-tables.js';

/**
 * The catalog's stock moves (VoucherStockReserved, VoucherStockReleased, VoucherStockSold) on the listing rows of
 * catalog-listings.ts, a run of them in one statement: what a flash sale's batches, and a catch-up after an outage,
 * are made of (docs/projections.md, "Recovery").
 */

/**
 * Runs of stock moves are written in one statement (moveStock): a flash sale's batches are made of them, and one
 * statement per event held a catching-up catalog to about 250 events a second on a busy machine (issue 31).
 */
export const stockRun = new Set(['VoucherStockReserved', 'VoucherStockReleased', 'VoucherStockSold']);

/** How a stock event moves a listing row's quantities. */
function stockMove(e: ProjectedEvent): { reserved: number; remaining: number; sold: number; at: string } {
  const d = e.data as { quantity: number; reservedAt?: string; releasedAt?: string; soldAt?: string };
  const q = d.quantity;
  switch (e.type) {
    case 'VoucherStockReserved':
      return { reserved: q, remaining: -q, sold: 0, at: d.reservedAt! };
    case 'VoucherStockReleased':
      return { reserved: -q, remaining: q, sold: 0, at: d.releasedAt! };
    case 'VoucherStockSold':
      return { reserved: -q, remaining: 0, sold: q, at: d.soldAt! };
    default:
      throw new Error(`not a stock move: ${e.type}`);
  }
}

/**
 * A run of stock events (stockRun) in one statement, giving the rows and counts that applying them one by one
 * (changePool in catalog-listings.ts) gives: per pool, the events after the row's last position add up, the row takes
 * the last one's position and time, and the counts move by the difference between the row's contribution before and
 * after. An event delivered again within the run (at or before an earlier one of its pool) is left out, as one by one.
 */
export async function moveStock(trx: Knex.Transaction, t: Tables, run: readonly ProjectedEvent[]): Promise<void> {
  const latest = new Map<number, string>();
  const moves: { pool_id: number; position: string; at: string; reserved: number; remaining: number; sold: number }[] =
    [];
  for (const e of run) {
    const poolId = (e.data as { poolId: number }).poolId;
    const seen = latest.get(poolId);
    if (seen !== undefined && e.position <= seen) continue;
    latest.set(poolId, e.position);
    moves.push({ pool_id: poolId, position: e.position, ...stockMove(e) });
  }
  await trx.raw(
    `WITH moves AS (
       SELECT * FROM json_to_recordset(?::json)
         AS m(pool_id bigint, position text, at timestamptz, reserved int, remaining int, sold int)
     ),
     rows AS (
       SELECT pool_id, campaign_id, category_id, deleted, remaining_quantity, sold_quantity, last_position
       FROM ?? WHERE pool_id IN (SELECT pool_id FROM moves)
     ),
     applied AS (
       SELECT m.pool_id, sum(m.reserved) AS reserved, sum(m.remaining) AS remaining, sum(m.sold) AS sold,
              max(m.position COLLATE "C") AS position, (array_agg(m.at ORDER BY m.position COLLATE "C" DESC))[1] AS at
       FROM moves m JOIN rows r ON r.pool_id = m.pool_id
       WHERE m.position COLLATE "C" > r.last_position
       GROUP BY m.pool_id
     ),
     before AS (SELECT r.* FROM rows r JOIN applied a ON a.pool_id = r.pool_id),
     after AS (
       UPDATE ?? l SET reserved_quantity = l.reserved_quantity + a.reserved,
         remaining_quantity = l.remaining_quantity + a.remaining, sold_quantity = l.sold_quantity + a.sold,
         updated_at = a.at, last_position = a.position
       FROM applied a WHERE l.pool_id = a.pool_id
       RETURNING l.pool_id, l.campaign_id, l.category_id, l.deleted, l.remaining_quantity, l.sold_quantity
     ),
     delta AS (
       SELECT pool_id, campaign_id, category_id, -(NOT deleted)::int AS pools, -(NOT deleted AND remaining_quantity > 0)::int AS in_stock, -sold_quantity AS sold
       FROM before
       UNION ALL
       SELECT pool_id, campaign_id, category_id, (NOT deleted)::int, (NOT deleted AND remaining_quantity > 0)::int, sold_quantity FROM after
     )
     ${addCounts}`,
    [JSON.stringify(moves), t.listings, t.listings, ...addCountsTables(t)],
  );
}
