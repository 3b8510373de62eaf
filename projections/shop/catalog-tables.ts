import { physical, type PhysicalNames, type ReadModelTable } from '../shared/projector.js';

/**
 * The tables of the catalog projector (catalog.ts): their logical names, the
 * physical names of the generation being written, and what each table family
 * (catalog-campaigns.ts, catalog-listings.ts, catalog-counts.ts) declares of
 * its tables.
 */

export const campaigns = 'shop_campaigns';
export const banners = 'shop_campaign_banners';
export const listings = 'shop_voucher_listings';
export const campaignCounts = 'shop_campaign_pool_counts';
export const categoryCounts = 'shop_campaign_category_pool_counts';
export const countsVersion = 'shop_catalog_counts_version';

/** A quoted identifier. */
export const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The physical tables a batch writes; every family's statements may name any of them. */
export interface Tables {
  campaigns: string;
  banners: string;
  listings: string;
  campaignCounts: string;
  categoryCounts: string;
  countsVersion: string;
}

export function tablesOf(names: PhysicalNames): Tables {
  return {
    campaigns: physical(names, campaigns),
    banners: physical(names, banners),
    listings: physical(names, listings),
    campaignCounts: physical(names, campaignCounts),
    categoryCounts: physical(names, categoryCounts),
    countsVersion: physical(names, countsVersion),
  };
}

/** A table family's tables, with their comments, and the DDL that creates them empty. */
export interface TableFamily {
  tables: readonly ReadModelTable[];
  createSql(t: Tables): string;
}
