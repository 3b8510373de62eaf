/**
 * The voucher shop's read models: its projectors, and what the query adapters of its read models need
 * (table names, announcement keys). Import this file from outside projections/shop.
 */
export * from './catalog.js';
export * from './reservations.js';
export * from './voucher-inventory.js';
export * from './voucher-search.js';

import { catalogProjector } from './catalog.js';
import { reservationsProjector } from './reservations.js';
import { voucherInventoryProjector } from './voucher-inventory.js';
import { voucherSearchProjector } from './voucher-search.js';

/** The shop's projectors, in the order the runner starts them. */
export const shopProjectors = [
  reservationsProjector,
  voucherInventoryProjector,
  catalogProjector,
  voucherSearchProjector,
] as const;
