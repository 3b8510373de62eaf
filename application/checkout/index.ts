/**
 * The promotion checkout's application layer, as the API and the composition root see it: its services and their
 * views. Import this file from outside application/checkout (docs/conventions.md, "Modules").
 */
export * from './applicable.js';
export * from './checkout-service.js';
export * from './promotion-master-admin.js';
export * from './promotion-wallet.js';
export * from './wallet-process.js';

import type { MerchantApiKeys } from '../shared/merchant-api-keys.js';
import type { ApplicableQuery } from './applicable.js';
import type { CheckoutService } from './checkout-service.js';
import type { PromotionMasterAdmin } from './promotion-master-admin.js';
import type { PromotionWallet } from './promotion-wallet.js';

/** The checkout's services, as its module builds them (infrastructure/checkout) and its API uses them (api/checkout). */
export interface CheckoutServices {
  promotionMasters: PromotionMasterAdmin;
  wallet: PromotionWallet;
  checkout: CheckoutService;
  applicable: ApplicableQuery;
  /** The shop's merchant API keys (X-Promotion-API-Key), through the port the shop provides. */
  merchantKeys: MerchantApiKeys;
}

// The domain's vocabulary the interfaces need (typed definitions, enums, error codes) reaches them through this
// file: api/ imports application/ only.
export * from '../../domain/checkout/index.js';
