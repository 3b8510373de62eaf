import type { Knex } from 'knex';
import type { CatalogVoucherRecord } from '../../application/shop/index.js';
import { ChangeTrackedCache, type ChangeSource } from '../shared/read-model-changes.js';
import type { Purchased } from './catalog-holdings.js';
import { readRows, scalars, sql, voucherColumns, type ListingRow } from './catalog-sql.js';

/**
 * The parts vouchers are put together from, kept in memory: a pool's (its
 * listing row, under `p<poolId>`) and its campaign's (under `c<campaignId>`),
 * each dropped when the catalog projector announces a change of it
 * (infrastructure/shared/read-model-changes.ts). A voucher read by id then
 * costs no statement at all. Whether a voucher is listed at `now` is decided
 * from the parts, so they need no clock. Part of the catalog read model
 * (catalog-read-model.ts).
 */

/** A pool's part of a voucher, kept under `p<poolId>`. */
export interface PoolPart {
  campaignId: number;
  deleted: boolean;
  record: Omit<CatalogVoucherRecord, 'campaign' | 'purchased'>;
}

/** A campaign's part of its vouchers, kept under `c<campaignId>`: listed while selling and now is in [from, until). */
export interface CampaignPart {
  selling: boolean;
  from: number;
  until: number;
  campaign: CatalogVoucherRecord['campaign'];
}

/**
 * Parts are shared by every answer that shows them, so they are frozen, down
 * to their leaves: nothing can change one in place (and the API reuses the
 * JSON of frozen objects, api/shop/voucher-json.ts).
 */
const { freeze } = Object;
/** Freezes `items` in place; typed as it was, as the record's fields are. */
const frozenList = <T>(items: T[]): T[] => (freeze(items), items);

function poolPart(r: ListingRow & { deleted: boolean }): PoolPart {
  return {
    campaignId: r.campaign_id,
    deleted: r.deleted,
    record: freeze({
      poolId: r.pool_id,
      categoryId: r.category_id,
      miniAppIds: frozenList(r.mini_app_ids),
      display: freeze({
        title: r.title,
        shortTitle: r.short_title,
        brandName: r.brand_name,
        logoUrl: r.logo_url,
        bannerUrl: r.banner_url,
        thumbnailUrl: r.thumbnail_url,
        description: r.description,
      }),
      pricing: freeze({
        faceValue: r.face_value,
        sellingPrice: r.selling_price,
        discountedPrice: r.discounted_price,
        currency: r.currency,
      }),
      totalQuantity: r.total_quantity,
      remainingQuantity: r.remaining_quantity,
      validity:
        r.validity_start_at && r.validity_end_at
          ? freeze({ startAt: r.validity_start_at, endAt: r.validity_end_at })
          : null,
      terms: freeze({
        usageType: r.usage_type,
        termsAndConditions: r.terms_and_conditions,
        validityDays: r.validity_days,
        usageLimit: r.usage_limit,
        maxPerDay: r.max_per_day,
        maxPerOrder: r.max_per_order,
      }),
    }),
  };
}

function campaignPart(r: ListingRow & { selling: boolean }): CampaignPart {
  return {
    selling: r.selling,
    from: Date.parse(r.campaign_start_at),
    until: Date.parse(r.campaign_end_at),
    campaign: freeze({
      id: r.campaign_id,
      name: r.campaign_name,
      tag: r.campaign_tag,
      displayPriority: r.campaign_display_priority,
      startAt: r.campaign_start_at,
      endAt: r.campaign_end_at,
    }),
  };
}

/** A voucher row of a statement that lists it (listing and campaign columns). */
export function voucherRecord(r: ListingRow): CatalogVoucherRecord {
  const { record } = poolPart({ ...r, deleted: false });
  return { ...record, campaign: campaignPart({ ...r, selling: true }).campaign };
}

/** The pool and campaign parts of vouchers, read from the listing rows and kept while no change of them is announced. */
export class VoucherParts {
  private readonly parts: ChangeTrackedCache<PoolPart | CampaignPart>;

  /** Bumped at each start of warming: a run that sees another number stops. */
  private warming = 0;

  /** `source`: the catalog projector, whose announcements keep the parts right; `cachedParts` parts are kept at most. */
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeSource,
    private readonly source: string,
    private readonly cachedParts: number,
  ) {
    this.parts = new ChangeTrackedCache(changes, source, cachedParts);
  }

  /** Fills the parts in the background (warm) whenever the cache starts afresh. */
  warmWhenReset(): void {
    this.changes.subscribe(this.source, (keys) => {
      // Warming is best effort: a failed read leaves the parts to be read when asked for.
      if (keys === '*') this.warm(++this.warming).catch(() => undefined);
    });
  }

  /**
   * Reads the parts of the vouchers of ACTIVE SELL campaigns, not deleted, in pool id order, a chunk at a time,
   * until all are kept or the cache is full: so that a voucher asked for by id, whichever it is, is found in
   * memory. Each chunk is a statement of its own, so requests are served in between.
   */
  private async warm(run: number): Promise<void> {
    const chunk = 200;
    let after = 0;
    while (run === this.warming && this.changes.connected && this.parts.size < this.cachedParts) {
      const mark = this.parts.mark();
      const rows = await readRows<ListingRow & { deleted: boolean; selling: boolean }>(
        this.knex,
        sql(
          `SELECT ${voucherColumns}, l.deleted, true AS selling
           FROM shop_voucher_listings l
           CROSS JOIN LATERAL (SELECT * FROM shop_campaigns c WHERE c.campaign_id = l.campaign_id AND c.status = 'ACTIVE' AND c.type = 'SELL' LIMIT 1) c
           WHERE l.pool_id > ? AND NOT l.deleted ORDER BY l.pool_id LIMIT ?`,
          after,
          chunk,
        ),
      );
      if (run !== this.warming) return;
      for (const row of rows) this.keep(row, mark);
      if (rows.length < chunk) return;
      after = rows[rows.length - 1]!.pool_id;
    }
  }

  /** Keeps the parts of a voucher read after `mark`. */
  private keep(row: ListingRow & { deleted: boolean; selling: boolean }, mark: number): [PoolPart, CampaignPart] {
    const parts: [PoolPart, CampaignPart] = [poolPart(row), campaignPart(row)];
    this.parts.put(`p${row.pool_id}`, parts[0], mark);
    this.parts.put(`c${row.campaign_id}`, parts[1], mark);
    return parts;
  }

  /** The vouchers of `poolIds` listed at `now`, in that order, with what the buyer holds of each when `purchased` is given. */
  assemble(
    poolIds: number[],
    parts: Map<number, [PoolPart, CampaignPart]>,
    now: Date,
    purchased?: Map<number, Purchased>,
  ): CatalogVoucherRecord[] {
    const at = now.getTime();
    const records: CatalogVoucherRecord[] = [];
    for (const id of poolIds) {
      const [pool, campaign] = parts.get(id) ?? [];
      if (!pool || !campaign || pool.deleted || !campaign.selling || at < campaign.from || at >= campaign.until)
        continue;
      const record: CatalogVoucherRecord = { ...pool.record, campaign: campaign.campaign };
      if (purchased) record.purchased = purchased.get(id) ?? { daily: 0, total: 0 };
      records.push(record);
    }
    return records;
  }

  /** The parts of the vouchers of `poolIds` (those that exist), kept ones first, the others read and kept. */
  async partsOf(poolIds: number[]): Promise<Map<number, [PoolPart, CampaignPart]>> {
    const found = new Map<number, [PoolPart, CampaignPart]>();
    const missing: number[] = [];
    for (const id of poolIds) {
      const pool = this.parts.get(`p${id}`) as PoolPart | undefined;
      const campaign = pool && (this.parts.get(`c${pool.campaignId}`) as CampaignPart | undefined);
      if (pool && campaign) found.set(id, [pool, campaign]);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const mark = this.parts.mark();
    const rows = await readRows<ListingRow & { deleted: boolean; selling: boolean }>(
      this.knex,
      sql(
        `SELECT ${voucherColumns}, l.deleted, c.status = 'ACTIVE' AND c.type = 'SELL' AS selling
         FROM shop_voucher_listings l
         CROSS JOIN LATERAL (SELECT * FROM shop_campaigns c WHERE c.campaign_id = l.campaign_id LIMIT 1) c
         WHERE l.pool_id IN (${scalars(missing)})`,
        ...missing,
      ),
    );
    for (const row of rows) found.set(row.pool_id, this.keep(row, mark));
    return found;
  }
}
