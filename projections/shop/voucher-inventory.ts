import type { Knex } from 'knex';
import {
  buyerKey,
  shopEventDecoder,
  type ShopEvent,
  type VoucherPoolCreated,
  type VoucherPoolEvent,
} from '../../domain/shop/index.js';
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

const inventory = 'shop_voucher_inventory';
const purchases = 'shop_user_pool_purchases';

/** Stock per voucher pool, and how many vouchers each user holds per pool and day. */
export const voucherInventoryProjector: Projector = {
  name: 'shop-voucher-inventory',
  version: 2,
  eventTypes: new Set<VoucherPoolEvent['type']>([
    'VoucherPoolCreated',
    'VoucherPoolStockAdded',
    'VoucherPoolRepriced',
    'VoucherPoolDeleted',
    'VoucherStockReserved',
    'VoucherStockReleased',
    'VoucherStockSold',
  ]),
  decoder: shopEventDecoder,
  tables: [
    {
      name: inventory,
      comment:
        'Stock of each voucher pool; eventually consistent with the event store (lag at /metrics). Fed by VoucherPoolCreated, VoucherPoolStockAdded, VoucherPoolRepriced, VoucherPoolDeleted, VoucherStockReserved, VoucherStockReleased, VoucherStockSold.',
      columns: {
        pool_id: 'Voucher pool id.',
        campaign_id: 'Campaign the pool belongs to.',
        total_quantity: 'Vouchers ever put in the pool (initial stock plus additions).',
        reserved_quantity: 'Vouchers held by open reservations.',
        sold_quantity: 'Vouchers sold (reservations committed).',
        remaining_quantity: 'Vouchers still available: total - reserved - sold.',
        deleted: 'True once the pool was deleted (soft delete).',
        updated_at: 'Time of the last event that changed the pool (event time).',
        last_position:
          'Global position of the last event of the pool stream applied to this row; an event at or before it is not applied again.',
      },
    },
    {
      name: purchases,
      comment:
        'Vouchers each user holds per pool and purchase day (reserved or sold, releases subtracted), as counted by the purchase limits; eventually consistent (lag at /metrics). Fed by VoucherStockReserved and VoucherStockReleased.',
      columns: {
        merchant_id: 'Merchant the user bought through.',
        user_id: 'User.',
        pool_id: 'Voucher pool id.',
        day: 'Purchase day (YYYY-MM-DD) in the configured day zone (SHOP_DAY_UTC_OFFSET_MINUTES).',
        quantity: 'Vouchers reserved or sold that day, minus those released.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    await knex.schema.createTable(physical(names, inventory), (b) => {
      b.bigInteger('pool_id').primary();
      b.bigInteger('campaign_id').notNullable();
      b.integer('total_quantity').notNullable();
      b.integer('reserved_quantity').notNullable();
      b.integer('sold_quantity').notNullable();
      b.integer('remaining_quantity').notNullable();
      b.boolean('deleted').notNullable();
      b.timestamp('updated_at', { useTz: true }).notNullable();
      b.specificType('last_position', 'text COLLATE "C" NOT NULL');
      b.index(['campaign_id'], `${physical(names, inventory)}_campaign`);
    });
    await knex.schema.createTable(physical(names, purchases), (b) => {
      b.text('merchant_id').notNullable();
      b.text('user_id').notNullable();
      b.bigInteger('pool_id').notNullable();
      b.date('day').notNullable();
      b.integer('quantity').notNullable();
      b.primary(['merchant_id', 'user_id', 'pool_id', 'day']);
    });
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<ShopEvent>[], names: PhysicalNames) {
    for (const run of runs(events, [poolRun, stockRun])) {
      if (poolRun.has(run[0]!.type)) await createPools(trx, names, run);
      else if (stockRun.has(run[0]!.type)) await moveStock(trx, names, run);
      else await applyOne(trx, names, run[0]!);
    }
    await announceChanges(trx, voucherInventoryProjector.name, buyersOf(events));
  },
};

/**
 * The buyers whose purchases the events change, by their buyerKey (domain/shop/voucher-pool.ts), as the catalog's
 * cache of purchases keys them (infrastructure/shop/catalog-holdings.ts).
 */
function buyersOf(events: readonly ProjectedEvent[]): Set<string> {
  const keys = new Set<string>();
  for (const { type, data } of events) {
    if (type !== 'VoucherStockReserved' && type !== 'VoucherStockReleased') continue;
    const { merchantId, userId } = data as { merchantId: string; userId: string };
    keys.add(buyerKey(merchantId, userId));
  }
  return keys;
}

/** Runs of these events are written in one statement (a bulk catalog import, a rebuild). */
const poolRun = new Set(['VoucherPoolCreated']);

/**
 * Runs of stock moves are written in one statement too (moveStock): a flash sale's batches are made of them, and one
 * statement per event held a catching-up projector to a few hundred events a second on a busy machine (issue 31).
 */
const stockRun = new Set(['VoucherStockReserved', 'VoucherStockReleased', 'VoucherStockSold']);

/** How a stock event moves its pool's row, and the buyer's purchases of the day (`held`; Sold moves none). */
function stockMove(e: ProjectedEvent) {
  const d = e.data as Partial<{ merchantId: string; userId: string; day: string }> & {
    poolId: number;
    quantity: number;
    reservedAt?: string;
    releasedAt?: string;
    soldAt?: string;
  };
  const q = d.quantity;
  const buyer = { merchant_id: d.merchantId ?? null, user_id: d.userId ?? null, day: d.day ?? null };
  switch (e.type) {
    case 'VoucherStockReserved':
      return { ...buyer, reserved: q, remaining: -q, sold: 0, held: q, reserves: true, at: d.reservedAt! };
    case 'VoucherStockReleased':
      return { ...buyer, reserved: -q, remaining: q, sold: 0, held: -q, reserves: false, at: d.releasedAt! };
    case 'VoucherStockSold':
      return { ...buyer, reserved: -q, remaining: 0, sold: q, held: 0, reserves: false, at: d.soldAt! };
    default:
      throw new Error(`not a stock move: ${e.type}`);
  }
}

/**
 * A run of stock events in one statement, giving the rows that applying them one by one (applyOne) gives: per pool,
 * the events after the row's last position add up and the row takes the last one's position and time; per buyer,
 * pool and day, their vouchers held add up, into a new row where a reserve is among them (as a reserve inserts), into
 * the row there is otherwise (as a release updates; a release always follows its reserve, which made the row). An
 * event delivered again within the run (at or before an earlier one of its pool) is left out, as one by one.
 */
async function moveStock(trx: Knex.Transaction, names: PhysicalNames, run: readonly ProjectedEvent[]): Promise<void> {
  const latest = new Map<number, string>();
  const moves = [];
  for (const e of run) {
    const poolId = (e.data as { poolId: number }).poolId;
    const seen = latest.get(poolId);
    if (seen !== undefined && e.position <= seen) continue;
    latest.set(poolId, e.position);
    moves.push({ pool_id: poolId, position: e.position, ...stockMove(e) });
  }
  await trx.raw(
    `WITH moves AS (
       SELECT * FROM json_to_recordset(?::json) AS m(pool_id bigint, position text, at timestamptz, reserved int,
         remaining int, sold int, merchant_id text, user_id text, day date, held int, reserves boolean)
     ),
     applied AS (
       SELECT m.* FROM moves m JOIN ?? r ON r.pool_id = m.pool_id WHERE m.position COLLATE "C" > r.last_position
     ),
     pools AS (
       UPDATE ?? r SET reserved_quantity = r.reserved_quantity + a.reserved,
         remaining_quantity = r.remaining_quantity + a.remaining, sold_quantity = r.sold_quantity + a.sold,
         updated_at = a.at, last_position = a.position
       FROM (
         SELECT pool_id, sum(reserved) AS reserved, sum(remaining) AS remaining, sum(sold) AS sold,
                max(position COLLATE "C") AS position, (array_agg(at ORDER BY position COLLATE "C" DESC))[1] AS at
         FROM applied GROUP BY pool_id
       ) a
       WHERE r.pool_id = a.pool_id
     ),
     held AS (
       SELECT merchant_id, user_id, pool_id, day, sum(held)::int AS held, bool_or(reserves) AS reserves
       FROM applied WHERE merchant_id IS NOT NULL GROUP BY merchant_id, user_id, pool_id, day
     ),
     bought AS (
       INSERT INTO ?? AS p (merchant_id, user_id, pool_id, day, quantity)
       SELECT merchant_id, user_id, pool_id, day, held FROM held WHERE reserves
       ON CONFLICT (merchant_id, user_id, pool_id, day) DO UPDATE SET quantity = p.quantity + EXCLUDED.quantity
     )
     UPDATE ?? p SET quantity = p.quantity + h.held FROM held h
     WHERE NOT h.reserves AND p.merchant_id = h.merchant_id AND p.user_id = h.user_id AND p.pool_id = h.pool_id
       AND p.day = h.day`,
    [
      JSON.stringify(moves),
      physical(names, inventory),
      physical(names, inventory),
      physical(names, purchases),
      physical(names, purchases),
    ],
  );
}

/** A pool's row as VoucherPoolCreated makes it. */
function inventoryRow(d: VoucherPoolCreated['data'], position: string) {
  return {
    pool_id: d.poolId,
    campaign_id: d.campaignId,
    total_quantity: d.totalQuantity,
    reserved_quantity: 0,
    sold_quantity: 0,
    remaining_quantity: d.totalQuantity,
    deleted: false,
    updated_at: d.createdAt,
    last_position: position,
  };
}

/** A run of VoucherPoolCreated in one statement: the pools not there yet (a pool already there, or twice in the run, keeps its first). */
async function createPools(trx: Knex.Transaction, names: PhysicalNames, run: readonly ProjectedEvent[]): Promise<void> {
  const rows = firstOfEach(run, (e) => (e.data as VoucherPoolCreated['data']).poolId).map((e) =>
    inventoryRow(e.data as VoucherPoolCreated['data'], e.position),
  );
  const columns = Object.keys(rows[0]!).join(', ');
  const table = physical(names, inventory);
  await trx.raw(
    `INSERT INTO ?? (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::??, ?::json) ON CONFLICT (pool_id) DO NOTHING`,
    [table, table, JSON.stringify(rows)],
  );
}

/**
 * The statement that applies `set` to a pool's row, unless the row already
 * has this event (or a later one of the pool's stream); returns the pool_id
 * of the row it changed, if any.
 */
function advancePool(
  table: string,
  event: ProjectedEvent,
  poolId: number,
  at: string,
  set = '',
  values: number[] = [],
) {
  return {
    sql: `UPDATE ?? SET ${set && `${set}, `}updated_at = ?, last_position = ? WHERE pool_id = ? AND last_position < ? RETURNING pool_id`,
    bindings: [table, ...values, at, event.position, poolId, event.position],
  };
}

/** Any other event, on its own. */
async function applyOne(trx: Knex.Transaction, names: PhysicalNames, e: Projected<ShopEvent>): Promise<void> {
  const pools = physical(names, inventory);
  const run = async ({ sql, bindings }: { sql: string; bindings: Knex.RawBinding[] }) => {
    await trx.raw(sql, bindings);
  };
  switch (e.type) {
    case 'VoucherPoolStockAdded': {
      const { poolId, quantity, addedAt } = e.data;
      await run(
        advancePool(
          pools,
          e,
          poolId,
          addedAt,
          'total_quantity = total_quantity + ?, remaining_quantity = remaining_quantity + ?',
          [quantity, quantity],
        ),
      );
      return;
    }
    case 'VoucherPoolRepriced':
      await run(advancePool(pools, e, e.data.poolId, e.data.repricedAt));
      return;
    case 'VoucherPoolDeleted':
      await run(advancePool(pools, e, e.data.poolId, e.data.deletedAt, 'deleted = true'));
      return;
    case 'VoucherStockReserved': {
      const { poolId, quantity, reservedAt, merchantId, userId, day } = e.data;
      const pool = advancePool(
        pools,
        e,
        poolId,
        reservedAt,
        'reserved_quantity = reserved_quantity + ?, remaining_quantity = remaining_quantity - ?',
        [quantity, quantity],
      );
      await run({
        sql: `WITH pool AS (${pool.sql})
              INSERT INTO ?? AS p (merchant_id, user_id, pool_id, day, quantity) SELECT ?::text, ?::text, pool_id, ?::date, ?::int FROM pool
              ON CONFLICT (merchant_id, user_id, pool_id, day) DO UPDATE SET quantity = p.quantity + EXCLUDED.quantity`,
        bindings: [...pool.bindings, physical(names, purchases), merchantId, userId, day, quantity],
      });
      return;
    }
    case 'VoucherStockReleased': {
      const { poolId, quantity, releasedAt, merchantId, userId, day } = e.data;
      const pool = advancePool(
        pools,
        e,
        poolId,
        releasedAt,
        'reserved_quantity = reserved_quantity - ?, remaining_quantity = remaining_quantity + ?',
        [quantity, quantity],
      );
      await run({
        sql: `WITH pool AS (${pool.sql})
              UPDATE ?? p SET quantity = p.quantity - ? FROM pool WHERE p.merchant_id = ? AND p.user_id = ? AND p.pool_id = pool.pool_id AND p.day = ?`,
        bindings: [...pool.bindings, physical(names, purchases), quantity, merchantId, userId, day],
      });
      return;
    }
    case 'VoucherStockSold': {
      const { poolId, quantity, soldAt } = e.data;
      await run(
        advancePool(
          pools,
          e,
          poolId,
          soldAt,
          'reserved_quantity = reserved_quantity - ?, sold_quantity = sold_quantity + ?',
          [quantity, quantity],
        ),
      );
      return;
    }
    default:
      return;
  }
}
