/**
 * Which promotions a merchant calling the checkout may reach (docs/checkout.md, "Who reaches what"): those of the
 * platform and its own. A promotion scoped to another merchant is, for this caller, not there: `applicable` does not
 * list it (nor its code or pin) and preview and reserve answer it as not found. The merchant is the one of the
 * verified X-Promotion-API-Key, never a header or body field the caller could change.
 */
import type { PromotionScope } from './promotion-master.js';

export const usableAtMerchant = (scope: PromotionScope, merchantId: string): boolean =>
  scope.type === 'PLATFORM' || scope.merchantId === merchantId;
