/**
 * The promotion checkout's module, infrastructure half: its configuration slice, its secrets (none) and how its
 * services are built from the shared adapters. The only file of infrastructure/checkout the composition root imports
 * (docs/conventions.md, "Modules").
 */
import { PromotionMasterAdmin, type CheckoutServices } from '../../application/checkout/index.js';
import type { BuiltContext, ContextDeps } from '../shared/context.js';
import type { CheckoutConfig } from './config.js';

export { checkoutConfig, type CheckoutConfig } from './config.js';
export { checkoutSecrets, type CheckoutSecrets } from './secrets.js';

/** Needs only the event store's side of the shared adapters (so fast tests build it on an in-memory store too). */
export function buildCheckout(
  deps: Pick<ContextDeps<CheckoutConfig>, 'store' | 'ids' | 'clock'>,
): BuiltContext<CheckoutServices> {
  const { store, ids, clock } = deps;
  return {
    services: { promotionMasters: new PromotionMasterAdmin({ store, ids, clock }) },
    jobs: [],
    stop: async () => {},
  };
}
