import type { Knex } from 'knex';
import type {
  Buyer,
  CampaignFilter,
  CatalogCampaignRecord,
  CatalogReadModel,
  CatalogVoucherRecord,
  ShopChannel,
  Slice,
  VoucherFilter,
} from '../../application/shop/index.js';
import type { ChangeSource } from '../shared/read-model-changes.js';
import { CampaignList } from './catalog-campaign-list.js';
import { BuyerHoldings } from './catalog-holdings.js';
import { VoucherPages } from './catalog-voucher-pages.js';
import { VoucherParts } from './catalog-voucher-parts.js';

/**
 * The catalog read models (projections/shop/catalog.ts) in PostgreSQL, one
 * statement per read at most: the CatalogReadModel port, composed of
 *
 * - catalog-voucher-parts.ts: the pool and campaign parts vouchers are put
 *   together from, kept in memory (and warmed);
 * - catalog-voucher-pages.ts: pages of the voucher list from the pool counts
 *   (counts epochs, rankings in catalog-ranking.ts), and the first vouchers of
 *   campaigns;
 * - catalog-holdings.ts: what each buyer holds, kept in memory;
 * - catalog-campaign-list.ts: the campaign list and detail;
 * - catalog-sql.ts: the SQL they share.
 *
 * What is kept is dropped when a projector announces a change of it
 * (docs/projections.md, "Announcing changes"); how the reads stay cheap:
 * docs/shop-api.md and docs/projections.md, "Shop catalog".
 */

/** The projectors whose announcements keep the cached parts right. */
export interface CatalogSources {
  /** Announces `p<poolId>`, `c<campaignId>` and `counts` (projections/shop/catalog.ts). */
  catalog: string;
  /** Announces the buyers whose purchases changed (projections/shop/voucher-inventory.ts). */
  inventory: string;
}

export class PostgresCatalogReadModel implements CatalogReadModel {
  private readonly parts: VoucherParts;
  private readonly pages: VoucherPages;
  private readonly holdings: BuyerHoldings;
  private readonly campaigns: CampaignList;

  /**
   * `changes`: the projectors' announcements, which keep what is cached right; `cachedParts` pool and campaign parts
   * are kept at most; with `warm`, they are filled in the background whenever the cache starts afresh (warm).
   */
  constructor(
    knex: Knex,
    changes: ChangeSource,
    options: { sources: CatalogSources; cachedParts: number; warm?: boolean },
  ) {
    this.parts = new VoucherParts(knex, changes, options.sources.catalog, options.cachedParts);
    this.holdings = new BuyerHoldings(knex, changes, options.sources.inventory);
    this.pages = new VoucherPages(knex, changes, options.sources.catalog, this.parts, this.holdings);
    this.campaigns = new CampaignList(knex);
    // After the caches subscribed: warming starts once the parts were dropped.
    if (options.warm) this.parts.warmWhenReset();
  }

  listVouchers(
    filter: VoucherFilter,
    now: Date,
    slice: Slice,
    buyer?: Buyer,
  ): Promise<{ records: CatalogVoucherRecord[]; total: number }> {
    return this.pages.listVouchers(filter, now, slice, buyer);
  }

  async vouchersByIds(poolIds: number[], now: Date, buyer?: Buyer): Promise<CatalogVoucherRecord[]> {
    const [parts, purchased] = await Promise.all([
      this.parts.partsOf(poolIds),
      buyer && this.holdings.purchasedOf(buyer, poolIds),
    ]);
    return this.parts.assemble(poolIds, parts, now, purchased);
  }

  vouchersOfCampaigns(
    campaignIds: number[],
    perCampaign: number,
    now: Date,
    buyer?: Buyer,
  ): Promise<CatalogVoucherRecord[]> {
    return this.pages.vouchersOfCampaigns(campaignIds, perCampaign, now, buyer);
  }

  listCampaigns(
    filter: CampaignFilter,
    channel: ShopChannel,
    now: Date,
    slice: Slice,
  ): Promise<{ records: CatalogCampaignRecord[]; total: number }> {
    return this.campaigns.listCampaigns(filter, channel, now, slice);
  }

  campaign(campaignId: number, channel: ShopChannel, now: Date): Promise<CatalogCampaignRecord | undefined> {
    return this.campaigns.campaign(campaignId, channel, now);
  }
}
