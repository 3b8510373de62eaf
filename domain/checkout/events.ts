/**
 * Events of the promotion checkout: the contract between its deciders, its projectors and auditors who replay them.
 * Change them only by adding optional fields or new events (anything else: a new schema version and an upcaster in
 * event-decoder.ts, docs/event-store.md#schema-versions-and-upcasting).
 *
 * Streams:
 *   promotionMaster-<promotionMasterId>    a promotion master (promotion-master.ts)
 *   issuedPromotion-<promotionId>          one promotion in a user's wallet (issued-promotion.ts)
 * Times are ISO 8601 strings in UTC; amounts are integers in VND.
 */
import type { DomainEvent } from '../shared/decider.js';
import type { PromotionMasterDefinition, PromotionMasterStatus } from './promotion-master.js';

// ---- promotionMaster-<promotionMasterId> ----

export type PromotionMasterCreated = DomainEvent<
  'PromotionMasterCreated',
  PromotionMasterDefinition & { promotionMasterId: number; status: PromotionMasterStatus; createdAt: string }
>;

export type PromotionMasterEvent = PromotionMasterCreated;

// ---- issuedPromotion-<promotionId> ----

/** Where an issued promotion came from: an operator's issue, or a voucher bought in the shop. */
export type PromotionSource =
  | { readonly kind: 'OPERATOR' }
  | { readonly kind: 'SHOP'; readonly reservationKey: string; readonly voucherPoolId: number };

export type PromotionIssued = DomainEvent<
  'PromotionIssued',
  {
    promotionId: number;
    promotionMasterId: number;
    userId: string;
    code: string;
    validFrom: string;
    validUntil: string;
    source: PromotionSource;
    issuedAt: string;
  }
>;
/** Held for one checkout reservation until it is confirmed or released. */
export type PromotionReserved = DomainEvent<
  'PromotionReserved',
  { promotionId: number; reservationKey: string; orderId: string; reservedAt: string }
>;
export type PromotionUsed = DomainEvent<
  'PromotionUsed',
  { promotionId: number; reservationKey: string; usedAt: string }
>;
/** Back to ISSUED: the reservation was released (`RELEASED`) or its order refunded (`REFUNDED`). */
export type PromotionReturned = DomainEvent<
  'PromotionReturned',
  { promotionId: number; reservationKey: string; reason: 'RELEASED' | 'REFUNDED'; returnedAt: string }
>;
export type PromotionCancelled = DomainEvent<'PromotionCancelled', { promotionId: number; cancelledAt: string }>;
export type PromotionExpired = DomainEvent<'PromotionExpired', { promotionId: number; expiredAt: string }>;

export type IssuedPromotionEvent =
  PromotionIssued | PromotionReserved | PromotionUsed | PromotionReturned | PromotionCancelled | PromotionExpired;

export type CheckoutEvent = PromotionMasterEvent | IssuedPromotionEvent;

export const streams = {
  promotionMaster: (promotionMasterId: number) => `promotionMaster-${promotionMasterId}`,
  issuedPromotion: (promotionId: number) => `issuedPromotion-${promotionId}`,
};
