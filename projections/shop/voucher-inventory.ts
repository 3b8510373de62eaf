import type { Knex } from 'knex';
import type { VoucherPoolEvent } from '../../domain/shop/events.js';
import { physical, type PhysicalNames, type ProjectedEvent, type Projector } from '../shared/projector.js';

const inventory = 'shop_voucher_inventory';
const purchases = 'shop_user_pool_purchases';

/** Stock per voucher pool, and how many vouchers each user holds per pool and day. */
export const voucherInventoryProjector: Projector = {
  name: 'shop-voucher-inventory',
  version: 1,
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

  async apply(trx: Knex.Transaction, event: ProjectedEvent, names: PhysicalNames) {
    const pools = physical(names, inventory);
    const e = { type: event.type, data: event.data } as VoucherPoolEvent;
    const pool = (poolId: number) => trx(pools).where({ pool_id: poolId });
    switch (e.type) {
      case 'VoucherPoolCreated': {
        const d = e.data;
        await trx(pools).insert({
          pool_id: d.poolId,
          campaign_id: d.campaignId,
          total_quantity: d.totalQuantity,
          reserved_quantity: 0,
          sold_quantity: 0,
          remaining_quantity: d.totalQuantity,
          deleted: false,
          updated_at: d.createdAt,
        });
        return;
      }
      case 'VoucherPoolStockAdded': {
        const { poolId, quantity, addedAt } = e.data;
        await pool(poolId).update({
          total_quantity: trx.raw('total_quantity + ?', [quantity]),
          remaining_quantity: trx.raw('remaining_quantity + ?', [quantity]),
          updated_at: addedAt,
        });
        return;
      }
      case 'VoucherPoolRepriced':
        await pool(e.data.poolId).update({ updated_at: e.data.repricedAt });
        return;
      case 'VoucherPoolDeleted':
        await pool(e.data.poolId).update({ deleted: true, updated_at: e.data.deletedAt });
        return;
      case 'VoucherStockReserved': {
        const { poolId, quantity, reservedAt, merchantId, userId, day } = e.data;
        await pool(poolId).update({
          reserved_quantity: trx.raw('reserved_quantity + ?', [quantity]),
          remaining_quantity: trx.raw('remaining_quantity - ?', [quantity]),
          updated_at: reservedAt,
        });
        await trx.raw(
          `INSERT INTO ?? AS p (merchant_id, user_id, pool_id, day, quantity) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (merchant_id, user_id, pool_id, day) DO UPDATE SET quantity = p.quantity + EXCLUDED.quantity`,
          [physical(names, purchases), merchantId, userId, poolId, day, quantity],
        );
        return;
      }
      case 'VoucherStockReleased': {
        const { poolId, quantity, releasedAt, merchantId, userId, day } = e.data;
        await pool(poolId).update({
          reserved_quantity: trx.raw('reserved_quantity - ?', [quantity]),
          remaining_quantity: trx.raw('remaining_quantity + ?', [quantity]),
          updated_at: releasedAt,
        });
        await trx(physical(names, purchases))
          .where({ merchant_id: merchantId, user_id: userId, pool_id: poolId, day })
          .update({ quantity: trx.raw('quantity - ?', [quantity]) });
        return;
      }
      case 'VoucherStockSold': {
        const { poolId, quantity, soldAt } = e.data;
        await pool(poolId).update({
          reserved_quantity: trx.raw('reserved_quantity - ?', [quantity]),
          sold_quantity: trx.raw('sold_quantity + ?', [quantity]),
          updated_at: soldAt,
        });
        return;
      }
      default:
        return;
    }
  },
};
