/**
 * The promotion checkout's application layer, as the API and the composition root see it: its services and their
 * views. Import this file from outside application/checkout (docs/conventions.md, "Modules").
 */
export * from './promotion-master-admin.js';

import type { PromotionMasterAdmin } from './promotion-master-admin.js';

/** The checkout's services, as its module builds them (infrastructure/checkout) and its API uses them (api/checkout). */
export interface CheckoutServices {
  promotionMasters: PromotionMasterAdmin;
}

// The domain's vocabulary the interfaces need (typed definitions, enums, error codes) reaches them through this
// file: api/ imports application/ only.
export * from '../../domain/checkout/index.js';
