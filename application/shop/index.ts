/**
 * The voucher shop's application layer, as the API and the composition root see it: its services, their
 * views and the ports its adapters implement. Import this file from outside application/shop.
 */
export * from './campaign-admin.js';
export * from './catalog-queries.js';
export * from './category-admin.js';
export * from './credentials.js';
export * from './merchant-admin.js';
export * from './purchase-service.js';
export * from './reservation-view.js';
export * from './voucher-codes.js';
export * from './voucher-pool-admin.js';
export * from './voucher-search.js';

import type { CampaignAdmin } from './campaign-admin.js';
import type { CatalogQueries } from './catalog-queries.js';
import type { CategoryAdmin } from './category-admin.js';
import type { ShopCredentials } from './credentials.js';
import type { MerchantAdmin } from './merchant-admin.js';
import type { PurchaseService } from './purchase-service.js';
import type { VoucherPoolAdmin } from './voucher-pool-admin.js';
import type { VoucherSearch } from './voucher-search.js';

/** The shop's services, as its module builds them (infrastructure/shop) and its interfaces use them (api/shop). */
export interface ShopServices {
  merchants: MerchantAdmin;
  campaigns: CampaignAdmin;
  categories: CategoryAdmin;
  pools: VoucherPoolAdmin;
  purchases: PurchaseService;
  credentials: ShopCredentials;
  catalog: CatalogQueries;
  search: VoucherSearch;
}

// The domain's vocabulary the interfaces need (commands' value types, enums, typed error codes) reaches them
// through this file: api/ imports application/ only.
export * from '../../domain/shop/index.js';
export { CampaignSaleSync, campaignSaleReactor } from './campaign-sale-sync.js';
export * from './vouchers-to-wallet.js';
