import type { Knex } from 'knex';
import type { Buyer, CatalogVoucherRecord } from '../../application/shop/index.js';
import { ChangeTrackedCache, type ChangeSource } from '../shared/read-model-changes.js';
import { buyerKey } from '../../domain/shop/index.js';
import { readRows, sql } from './catalog-sql.js';

/**
 * What each buyer holds of each pool (shop_user_pool_purchases), for the
 * `purchased` of the vouchers they are shown: kept in memory per buyer and
 * dropped when the inventory projector announces the buyer
 * (infrastructure/shared/read-model-changes.ts). Part of the catalog read
 * model (catalog-read-model.ts).
 */

export type Purchased = NonNullable<CatalogVoucherRecord['purchased']>;

/** What a buyer holds, kept under buyerKey: per pool, the quantity per purchase day. */
type Holdings = Map<number, { day: string; quantity: number }[]>;

/** Buyers whose holdings are kept. */
const cachedBuyers = 10_000;

/** Buyers' holdings, read per buyer and kept while no change of the buyer is announced. */
export class BuyerHoldings {
  private readonly holdings: ChangeTrackedCache<Holdings>;

  /** `source`: the inventory projector, whose announcements keep the holdings right. */
  constructor(
    private readonly knex: Knex,
    changes: ChangeSource,
    source: string,
  ) {
    this.holdings = new ChangeTrackedCache(changes, source, cachedBuyers);
  }

  /** What `buyer` holds of each of `poolIds` (pools held by none are left out). */
  async purchasedOf(buyer: Buyer, poolIds: number[]): Promise<Map<number, Purchased>> {
    const holdings = await this.holdingsOf(buyer);
    const purchased = new Map<number, Purchased>();
    for (const id of poolIds) {
      const days = holdings.get(id);
      if (days)
        purchased.set(id, {
          daily: days.reduce((n, d) => (d.day === buyer.day ? n + d.quantity : n), 0),
          total: days.reduce((n, d) => n + d.quantity, 0),
        });
    }
    return purchased;
  }

  /** `records` (made for this call) with what `buyer` holds of each, when a buyer was given. */
  async withPurchases(records: CatalogVoucherRecord[], buyer: Buyer | undefined): Promise<CatalogVoucherRecord[]> {
    if (!buyer) return records;
    const purchased = await this.purchasedOf(
      buyer,
      records.map((r) => r.poolId),
    );
    for (const r of records) r.purchased = purchased.get(r.poolId) ?? { daily: 0, total: 0 };
    return records;
  }

  private async holdingsOf(buyer: Buyer): Promise<Holdings> {
    const key = buyerKey(buyer.merchantId, buyer.userId);
    const kept = this.holdings.get(key);
    if (kept) return kept;
    const mark = this.holdings.mark();
    const rows = await readRows<{ pool_id: number; day: string; quantity: number }>(
      this.knex,
      sql(
        `SELECT pool_id, to_char(day, 'YYYY-MM-DD') AS day, quantity FROM shop_user_pool_purchases WHERE merchant_id = ? AND user_id = ? AND quantity <> 0`,
        buyer.merchantId,
        buyer.userId,
      ),
    );
    const holdings: Holdings = new Map();
    for (const r of rows)
      holdings.set(r.pool_id, [...(holdings.get(r.pool_id) ?? []), { day: r.day, quantity: r.quantity }]);
    this.holdings.put(key, holdings, mark);
    return holdings;
  }
}
