/**
 * Whether one promotion of a wallet can be used on these orders, and if not why, machine-readable: what `applicable`
 * shows as `is_eligibility` and `ineligible_reason`, and what preview and reserve refuse with (each reason has its
 * code: `ineligibilityError`). Pure; the discount itself is discount.ts's. docs/checkout-discounts.md, "Eligibility".
 */
import { discountFor, type CheckoutOrder, type MinimumShortfall, type NotDiscounted } from './discount.js';
import { checkoutError, type CheckoutError } from './errors.js';
import type { IssuedPromotionStatus } from './issued-promotion.js';
import type { PromotionMasterDefinition, PromotionMasterStatus } from './promotion-master.js';

export type Ineligibility =
  | NotDiscounted
  /** Held by a checkout (this user's or, for an operator's view, anyone's). */
  | 'RESERVED'
  /** Used, or cancelled by an operator. */
  | 'NOT_ISSUED'
  /** Its validity ended (its timer may not have marked it EXPIRED yet). */
  | 'EXPIRED'
  | 'NOT_YET_VALID'
  /** Its master is PAUSED or ENDED. */
  | 'NOT_ACTIVE'
  /** SHARED codes are not supported yet. */
  | 'SHARED_NOT_SUPPORTED'
  /** The master's total_quota of uses is taken. */
  | 'QUOTA_EXHAUSTED'
  /** The user's per_user_limit of the master is taken. */
  | 'USAGE_LIMIT_REACHED';

export interface WalletPromotion {
  readonly promotionId: number;
  readonly status: IssuedPromotionStatus;
  readonly validFrom: string;
  readonly validUntil: string;
}

export type MasterRules = PromotionMasterDefinition & { readonly status: PromotionMasterStatus };

/** Uses held or used so far (from the read model for `applicable`; reserve counts them in their own streams). */
export interface UsageSoFar {
  readonly total: number;
  readonly byUser: number;
}

export type Eligibility =
  { readonly eligible: true; readonly amount: number } | { readonly eligible: false; readonly reason: Ineligibility };

export function eligibility(
  promotion: WalletPromotion,
  master: MasterRules,
  orders: readonly CheckoutOrder[],
  now: string,
  usage?: UsageSoFar,
): Eligibility {
  const no = (reason: Ineligibility): Eligibility => ({ eligible: false, reason });
  const t = Date.parse(now);
  if (promotion.status === 'RESERVED') return no('RESERVED');
  if (promotion.status === 'EXPIRED' || t >= Date.parse(promotion.validUntil)) return no('EXPIRED');
  if (promotion.status !== 'ISSUED') return no('NOT_ISSUED');
  if (t < Date.parse(promotion.validFrom)) return no('NOT_YET_VALID');
  if (master.status !== 'ACTIVE') return no('NOT_ACTIVE');
  if (master.codeType === 'SHARED') return no('SHARED_NOT_SUPPORTED');
  if (usage && master.totalQuota !== null && usage.total >= master.totalQuota) return no('QUOTA_EXHAUSTED');
  if (usage && master.perUserLimit !== null && usage.byUser >= master.perUserLimit) return no('USAGE_LIMIT_REACHED');
  const outcome = discountFor(master, orders);
  return outcome.applies ? { eligible: true, amount: outcome.amount } : no(outcome.reason);
}

/**
 * The refusal preview and reserve answer for a reason (docs/checkout.md, "Codes"); a minimum not met names its
 * figures when given (`minimumShortfall`): the minimum and what the subtotal lacks of it.
 */
export function ineligibilityError(
  reason: Ineligibility,
  promotionId: number,
  minimum?: MinimumShortfall,
): CheckoutError {
  const details = { promotionId, reason };
  switch (reason) {
    case 'RESERVED':
      return checkoutError('PROMOTION_ALREADY_RESERVED', `promotion ${promotionId} is held by a checkout`, details);
    case 'EXPIRED':
      return checkoutError('PROMOTION_EXPIRED', `promotion ${promotionId} expired`, details);
    case 'MIN_ORDER_NOT_MET':
      return minimum === undefined
        ? checkoutError('ORDER_MINIMUM_NOT_MET', `the subtotal is below promotion ${promotionId}'s minimum`, details)
        : checkoutError(
            'ORDER_MINIMUM_NOT_MET',
            `the subtotal ${minimum.subtotal} is below promotion ${promotionId}'s minimum ${minimum.minOrderValue}: ${minimum.remainingAmount} more is needed`,
            { ...details, minOrderValue: minimum.minOrderValue, remainingAmount: minimum.remainingAmount },
          );
    case 'SHARED_NOT_SUPPORTED':
      return checkoutError('SHARED_NOT_SUPPORTED', 'SHARED promotion codes are not supported yet', details);
    case 'QUOTA_EXHAUSTED':
      return checkoutError('QUOTA_EXHAUSTED', `promotion ${promotionId} has no uses left`, details);
    case 'USAGE_LIMIT_REACHED':
      return checkoutError('USAGE_LIMIT_REACHED', `the user reached promotion ${promotionId}'s usage limit`, details);
    case 'NOT_ISSUED':
    case 'NOT_YET_VALID':
    case 'NOT_ACTIVE':
    case 'SCOPE_MISMATCH':
    case 'NO_ITEM_IN_CATEGORY':
    case 'NOTHING_TO_DISCOUNT':
      return checkoutError('PROMOTION_NOT_APPLICABLE', notApplicable[reason](promotionId), details);
  }
}

const notApplicable = {
  NOT_ISSUED: (id: number) => `promotion ${id} was used or cancelled`,
  NOT_YET_VALID: (id: number) => `promotion ${id} is not valid yet`,
  NOT_ACTIVE: (id: number) => `promotion ${id}'s campaign is paused or ended`,
  SCOPE_MISMATCH: (id: number) => `promotion ${id} is for a merchant with no order here`,
  NO_ITEM_IN_CATEGORY: (id: number) => `no item of promotion ${id}'s categories is in the orders`,
  NOTHING_TO_DISCOUNT: (id: number) => `promotion ${id} has nothing to discount in these orders`,
};
