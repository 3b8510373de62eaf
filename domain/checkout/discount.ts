/**
 * The discount engine of the promotion checkout (docs/checkout-discounts.md): pure, no I/O. Given one promotion's
 * rule and the checkout's orders (one per merchant), it says whether the promotion applies and how much it takes off,
 * on the goods' subtotal only (spec part B, "Discount rules"): never on shipping, tax or fees.
 */
import type { DiscountConfig, PromotionScope } from './promotion-master.js';

export interface CheckoutItem {
  readonly itemId: string;
  readonly quantity: number;
  /** Minor units (VND); negative values are allowed (a line that gives money back). */
  readonly unitPrice: number;
  readonly categories: readonly string[];
}

export interface CheckoutOrder {
  readonly merchantId: string;
  /** sum(unitPrice × quantity) over its items (checked by `subtotalMismatch`). */
  readonly subtotal: number;
  readonly items: readonly CheckoutItem[];
}

/** What of a promotion master the engine reads. */
export interface DiscountRule {
  readonly scope: PromotionScope;
  readonly categories: readonly string[] | null;
  readonly minOrderValue: number;
  readonly discount: DiscountConfig;
}

/** Why a promotion takes nothing off these orders, machine-readable (applicable's reason). */
export type NotDiscounted =
  /** MERCHANT scope, and no order of that merchant. */
  | 'SCOPE_MISMATCH'
  /** The subtotal it is compared with is below min_order_value. */
  | 'MIN_ORDER_NOT_MET'
  /** A category rule, and no item of those categories in the orders it applies to. */
  | 'NO_ITEM_IN_CATEGORY'
  /** What it would discount comes to zero or less (negative lines). */
  | 'NOTHING_TO_DISCOUNT';

export type DiscountOutcome =
  | { readonly applies: true; readonly amount: number; readonly eligibleAmount: number }
  | { readonly applies: false; readonly reason: NotDiscounted };

/** Index of the first order whose subtotal is not the sum of its lines, or -1. */
export function subtotalMismatch(orders: readonly CheckoutOrder[]): number {
  return orders.findIndex((o) => o.subtotal !== o.items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0));
}

export const originalTotal = (orders: readonly CheckoutOrder[]): number =>
  orders.reduce((sum, o) => sum + o.subtotal, 0);

/** The orders a promotion applies to: all for PLATFORM, the merchant's for MERCHANT. */
const applyingOrders = (rule: DiscountRule, orders: readonly CheckoutOrder[]): readonly CheckoutOrder[] => {
  const scope = rule.scope;
  return scope.type === 'PLATFORM' ? orders : orders.filter((o) => o.merchantId === scope.merchantId);
};

/** How far the subtotal a promotion's min_order_value is compared with falls short of it (a refusal's figures). */
export interface MinimumShortfall {
  readonly minOrderValue: number;
  /** The subtotal of the orders it applies to. */
  readonly subtotal: number;
  /** What the subtotal lacks: min_order_value − subtotal, 0 when the minimum is met. */
  readonly remainingAmount: number;
}

export function minimumShortfall(rule: DiscountRule, orders: readonly CheckoutOrder[]): MinimumShortfall {
  const subtotal = originalTotal(applyingOrders(rule, orders));
  return { minOrderValue: rule.minOrderValue, subtotal, remainingAmount: Math.max(0, rule.minOrderValue - subtotal) };
}

/**
 * The discount of one promotion on the orders:
 * - PLATFORM applies to every order, MERCHANT only to that merchant's;
 * - min_order_value is compared with the subtotal of the orders it applies to (their sum for PLATFORM);
 * - the eligible amount is that subtotal, or with a category rule the lines of those categories only;
 * - PERCENTAGE takes floor(eligible × percentage / 100) (VND has no minor unit: rounded down, never in the
 *   buyer's disfavour beyond the percentage), capped at max_discount; FIXED takes its amount;
 * - never more than the eligible amount, nor than the whole checkout's total, so final_amount is never negative.
 */
export function discountFor(rule: DiscountRule, orders: readonly CheckoutOrder[]): DiscountOutcome {
  const applying = applyingOrders(rule, orders);
  if (applying.length === 0) return { applies: false, reason: 'SCOPE_MISMATCH' };
  if (originalTotal(applying) < rule.minOrderValue) return { applies: false, reason: 'MIN_ORDER_NOT_MET' };
  let eligibleAmount = originalTotal(applying);
  if (rule.categories !== null) {
    const wanted = new Set(rule.categories);
    const lines = applying.flatMap((o) => o.items).filter((i) => i.categories.some((c) => wanted.has(c)));
    if (lines.length === 0) return { applies: false, reason: 'NO_ITEM_IN_CATEGORY' };
    eligibleAmount = lines.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0);
  }
  const ceiling = Math.min(eligibleAmount, originalTotal(orders));
  if (ceiling <= 0) return { applies: false, reason: 'NOTHING_TO_DISCOUNT' };
  const d = rule.discount;
  const asked =
    d.type === 'PERCENTAGE' ? Math.min(Math.floor((eligibleAmount * d.percentage) / 100), d.maxDiscount) : d.amount;
  return { applies: true, amount: Math.max(0, Math.min(asked, ceiling)), eligibleAmount };
}
