/**
 * Promotion masters of the promotion checkout (stream promotionMaster-<promotionMasterId>): the definition every
 * issued promotion of it follows (what it discounts, for whom, how often, until when). Operators create them;
 * docs/checkout.md. Shape and formats of the input are the API's job (its zod schema produces the typed command);
 * the rules that relate fields to each other are decided here.
 */
import type { Decider } from '../shared/decider.js';
import type { PromotionMasterEvent } from './events.js';
import { checkoutError } from './errors.js';

export const promotionTypes = ['SHIPPING', 'VOUCHER', 'COIN_CASHBACK'] as const;
export type PromotionType = (typeof promotionTypes)[number];

export const codeTypes = ['UNIQUE', 'SHARED'] as const;
export type CodeType = (typeof codeTypes)[number];

export const promotionMasterStatuses = ['ACTIVE', 'PAUSED', 'ENDED'] as const;
export type PromotionMasterStatus = (typeof promotionMasterStatuses)[number];

/** PERCENTAGE: `percentage` % of the eligible subtotal, at most `maxDiscount`; FIXED: `amount` off. Minor units. */
export type DiscountConfig =
  | { readonly type: 'PERCENTAGE'; readonly percentage: number; readonly maxDiscount: number }
  | { readonly type: 'FIXED'; readonly amount: number };

export type PromotionScope = { readonly type: 'PLATFORM' } | { readonly type: 'MERCHANT'; readonly merchantId: string };

/** What an operator gives to create a promotion master. */
export interface PromotionMasterDefinition {
  readonly title: string;
  readonly shortTitle: string;
  readonly promotionType: PromotionType;
  readonly codeType: CodeType;
  readonly discount: DiscountConfig;
  /** The order's subtotal must be at least this (minor units). */
  readonly minOrderValue: number;
  readonly scope: PromotionScope;
  /** Discount only items of these categories; null: the whole subtotal. */
  readonly categories: readonly string[] | null;
  /** ISO 8601, UTC. */
  readonly validFrom: string;
  readonly validUntil: string;
  /** How many times one user may use it; null: no limit. */
  readonly perUserLimit: number | null;
  /** How many uses in all; null: no limit. */
  readonly totalQuota: number | null;
  readonly pinRequired: boolean;
  readonly logoUrl: string | null;
  readonly bannerUrl: string | null;
}

// ---- the aggregate ----

export type PromotionMasterState =
  | { readonly status: 'NONE' }
  | (PromotionMasterDefinition & {
      readonly status: PromotionMasterStatus;
      readonly promotionMasterId: number;
      readonly createdAt: string;
      readonly updatedAt: string;
    });

export type PromotionMasterCommand =
  | { type: 'CreatePromotionMaster'; promotionMasterId: number; definition: PromotionMasterDefinition; now: string }
  | { type: 'ChangePromotionMasterStatus'; status: PromotionMasterStatus; now: string };

function invalid(field: string, message: string) {
  return checkoutError('INVALID_PROMOTION_MASTER', message, { field });
}

/**
 * The rules between fields; each field's own format was checked by the API. A refusal names the field as the
 * checkout's interfaces do (snake_case).
 */
function assertConsistent(d: PromotionMasterDefinition): void {
  if (Date.parse(d.validUntil) <= Date.parse(d.validFrom))
    throw invalid('valid_until', 'valid_until must be after valid_from');
  if (d.perUserLimit !== null && d.totalQuota !== null && d.perUserLimit > d.totalQuota)
    throw invalid('per_user_limit', 'per_user_limit must not exceed total_quota');
  if (d.categories !== null && d.categories.length === 0)
    throw invalid('categories', 'categories must name at least one category, or be null for the whole order');
}

function decide(command: PromotionMasterCommand, state: PromotionMasterState): PromotionMasterEvent[] {
  switch (command.type) {
    case 'CreatePromotionMaster': {
      if (state.status !== 'NONE')
        throw checkoutError('PROMOTION_MASTER_EXISTS', `promotion master ${command.promotionMasterId} already exists`);
      assertConsistent(command.definition);
      return [
        {
          type: 'PromotionMasterCreated',
          data: {
            ...command.definition,
            promotionMasterId: command.promotionMasterId,
            status: 'ACTIVE',
            createdAt: command.now,
          },
        },
      ];
    }
    case 'ChangePromotionMasterStatus': {
      if (state.status === 'NONE') throw checkoutError('PROMOTION_MASTER_NOT_FOUND', 'no such promotion master');
      if (state.status === command.status) return [];
      // ENDED is final: its promotions stay unusable.
      if (state.status === 'ENDED') throw invalid('status', `promotion master ${state.promotionMasterId} has ended`);
      return [
        {
          type: 'PromotionMasterStatusChanged',
          data: { promotionMasterId: state.promotionMasterId, status: command.status, changedAt: command.now },
        },
      ];
    }
  }
}

function evolve(state: PromotionMasterState, event: PromotionMasterEvent): PromotionMasterState {
  switch (event.type) {
    case 'PromotionMasterCreated':
      return { ...event.data, updatedAt: event.data.createdAt };
    case 'PromotionMasterStatusChanged':
      return state.status === 'NONE' ? state : { ...state, status: event.data.status, updatedAt: event.data.changedAt };
  }
}

export const promotionMasterDecider: Decider<PromotionMasterCommand, PromotionMasterState, PromotionMasterEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
