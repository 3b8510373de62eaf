/**
 * The promotion checkout's read models: its projectors and their tables. Import this file from outside
 * projections/checkout (docs/conventions.md, "Modules").
 */
export * from './promotion-masters.js';
export * from './wallet.js';
export * from './timers.js';

import { promotionMastersProjector } from './promotion-masters.js';
import { checkoutTimersProjector } from './timers.js';
import { walletProjector } from './wallet.js';

/** The checkout's projectors, in the order the runner starts them. */
export const checkoutProjectors = [promotionMastersProjector, walletProjector, checkoutTimersProjector] as const;
