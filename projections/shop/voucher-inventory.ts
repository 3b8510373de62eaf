import type { Knex } from 'knex';
import {
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
    for (const run of runs(events, [poolRun])) {
      if (poolRun.has(run[0]!.type)) await createPools(trx, names, run);
      else await applyOne(trx, names, run[0]!);
    }
    await announceChanges(trx, voucherInventoryProjector.name, buyersOf(events));
  },
};

/**
 * The buyers whose purchases the events change, keyed as the catalog's cache
 * of purchases keys them (infrastructure/shop/catalog-holdings.ts): the JSON
 * of [merchantId, userId].
 */
export const buyerKey = (merchantId: string, userId: string) => JSON.stringify([merchantId, userId]);

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
