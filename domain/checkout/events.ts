/**
 * Events of the promotion checkout: the contract between its deciders, its projectors and auditors who replay them.
 * Change them only by adding optional fields or new events (anything else: a new schema version and an upcaster in
 * event-decoder.ts, docs/event-store.md#schema-versions-and-upcasting).
 *
 * Streams:
 *   promotionMaster-<promotionMasterId>    a promotion master (promotion-master.ts)
 *   issuedPromotion-<promotionId>          one promotion in a user's wallet (issued-promotion.ts)
 *   checkoutReservation-<reservationKey>   one checkout's hold on its promotions (checkout-reservation.ts)
 *   promotionUsage-<masterId>              uses of a master with a total_quota (promotion-usage.ts)
 *   promotionUsage-<masterId>:<userId>     one user's uses of a master with a per_user_limit (promotion-usage.ts)
 *   shopPoolMaster-<poolId>                guard: the promotion master of a shop voucher pool
 *   promotionCode-<masterId>-<sha256hex>   guard: an imported code is issued once per master
 *   promotionAllotment-<allotmentId>       an operator's issue of a master's promotions (promotion-allotment.ts)
 * Times are ISO 8601 strings in UTC; amounts are integers in VND.
 */
import type { DomainEvent } from '../shared/decider.js';
import type {
  CodeType,
  PromotionMasterDefinition,
  PromotionMasterStatus,
  PromotionScope,
  PromotionType,
} from './promotion-master.js';

// ---- promotionMaster-<promotionMasterId> ----

export type PromotionMasterCreated = DomainEvent<
  'PromotionMasterCreated',
  PromotionMasterDefinition & { promotionMasterId: number; status: PromotionMasterStatus; createdAt: string }
>;

/** One promotion of an allotment: who gets it, with its code (and pin) encrypted, bound to the promotion. */
export interface Allotment {
  promotionId: number;
  userId: string;
  encryptedCode: string;
  encryptedPin: string | null;
}

/** An operator paused, resumed or ended it: a paused or ended master's promotions are not applicable. */
export type PromotionMasterStatusChanged = DomainEvent<
  'PromotionMasterStatusChanged',
  { promotionMasterId: number; status: PromotionMasterStatus; changedAt: string }
>;

export type PromotionMasterEvent = PromotionMasterCreated | PromotionMasterStatusChanged;

// ---- promotionAllotment-<allotmentId> ----

/**
 * Promotions an operator issues from a master in one request, recorded before they are issued one by one: a resend
 * under the request's idempotency key answers these, and the issuing of any left undone by a crash is finished from
 * here. A stream of its own, so the master's stream (read by every checkout) stays small.
 */
export type PromotionsAllotted = DomainEvent<
  'PromotionsAllotted',
  { allotmentId: string; promotionMasterId: number; allotments: Allotment[]; allottedAt: string }
>;

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
    /** The code, encrypted at rest (SecretCipher, bound to the promotion): codes are bearer values. */
    encryptedCode: string;
    /** The pin of a pin_required master, encrypted like the code; null when none. */
    encryptedPin: string | null;
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
/**
 * Back to ISSUED: the reservation was released (`RELEASED`), its order refunded (`REFUNDED`) or it outlived its
 * time-to-live (`EXPIRED`, only with CHECKOUT_RESERVATION_TTL_SECONDS).
 */
export type PromotionReturned = DomainEvent<
  'PromotionReturned',
  { promotionId: number; reservationKey: string; reason: ReturnReason; returnedAt: string }
>;
export type ReturnReason = 'RELEASED' | 'REFUNDED' | 'EXPIRED';
export type PromotionCancelled = DomainEvent<'PromotionCancelled', { promotionId: number; cancelledAt: string }>;
export type PromotionExpired = DomainEvent<'PromotionExpired', { promotionId: number; expiredAt: string }>;

export type IssuedPromotionEvent =
  PromotionIssued | PromotionReserved | PromotionUsed | PromotionReturned | PromotionCancelled | PromotionExpired;

// ---- checkoutReservation-<reservationKey> ----

/** A promotion a checkout holds, as the reservation recorded it. */
export interface ReservedPromotion {
  promotionId: number;
  promotionMasterId: number;
  codeType: CodeType;
}

/** What a checkout's discount came to (docs/checkout-discounts.md); the answer of /reserve and its replays. */
export interface DiscountResult {
  totalDiscount: number;
  originalTotal: number;
  finalAmount: number;
  breakdown: DiscountLine[];
}

export interface DiscountLine {
  promotionMasterId: number;
  promotionId: number;
  promotionType: PromotionType;
  codeType: CodeType;
  title: string;
  shortTitle: string;
  amount: number;
  scope: PromotionScope;
}

export type CheckoutReserved = DomainEvent<
  'CheckoutReserved',
  {
    reservationKey: string;
    orderId: string;
    merchantId: string;
    userId: string;
    promotions: ReservedPromotion[];
    discount: DiscountResult;
    reservedAt: string;
    /** null: it waits for confirm or release for ever (the spec's default; CHECKOUT_RESERVATION_TTL_SECONDS). */
    expiresAt: string | null;
  }
>;
export type CheckoutConfirmed = DomainEvent<'CheckoutConfirmed', { reservationKey: string; confirmedAt: string }>;
export type CheckoutReleased = DomainEvent<
  'CheckoutReleased',
  { reservationKey: string; reason: string | null; releasedAt: string }
>;
export type CheckoutExpired = DomainEvent<'CheckoutExpired', { reservationKey: string; expiredAt: string }>;
export type CheckoutRefunded = DomainEvent<
  'CheckoutRefunded',
  { reservationKey: string; reason: string | null; refundedAt: string }
>;

export type CheckoutReservationEvent =
  CheckoutReserved | CheckoutConfirmed | CheckoutReleased | CheckoutExpired | CheckoutRefunded;

// ---- promotionUsage-<masterId>[:<userId>] ----

/** A use counted against a limit: held by a reservation from reserve until it is released, expired or refunded. */
export type PromotionUsageHeld = DomainEvent<
  'PromotionUsageHeld',
  { promotionMasterId: number; userId: string | null; reservationKey: string; heldAt: string }
>;
export type PromotionUsageFreed = DomainEvent<
  'PromotionUsageFreed',
  { promotionMasterId: number; userId: string | null; reservationKey: string; freedAt: string }
>;
export type PromotionUsageEvent = PromotionUsageHeld | PromotionUsageFreed;

// ---- checkoutOrder-<sha256 of merchant and order id> ----

type OrderClaimData = { merchantId: string; orderId: string; reservationKey: string };
/** The reservation holding one order of one merchant (one promotion per order: docs/checkout.md). */
export type CheckoutOrderClaimed = DomainEvent<'CheckoutOrderClaimed', OrderClaimData & { claimedAt: string }>;
/** Its reservation was confirmed: the order keeps its promotion (until a refund). */
export type CheckoutOrderConfirmed = DomainEvent<'CheckoutOrderConfirmed', OrderClaimData & { confirmedAt: string }>;
/** Its reservation was released, expired or refunded: the order may be reserved again. */
export type CheckoutOrderFreed = DomainEvent<'CheckoutOrderFreed', OrderClaimData & { freedAt: string }>;
export type CheckoutOrderEvent = CheckoutOrderClaimed | CheckoutOrderConfirmed | CheckoutOrderFreed;

// ---- shopPoolMaster-<poolId> (guard) ----

/** The promotion master a shop voucher pool's vouchers are issued under (made with the pool's first sale). */
export type ShopPoolMasterClaimed = DomainEvent<
  'ShopPoolMasterClaimed',
  { voucherPoolId: number; promotionMasterId: number; claimedAt: string }
>;

/** Guard: an imported code is issued once per master (stream promotionCode-<masterId>-<sha256 of the code>). */
export type PromotionCodeClaimed = DomainEvent<
  'PromotionCodeClaimed',
  { promotionMasterId: number; promotionId: number; claimedAt: string }
>;

export type CheckoutEvent =
  | PromotionCodeClaimed
  | PromotionMasterEvent
  | PromotionsAllotted
  | IssuedPromotionEvent
  | CheckoutReservationEvent
  | PromotionUsageEvent
  | CheckoutOrderEvent
  | ShopPoolMasterClaimed;

export const streams = {
  promotionMaster: (promotionMasterId: number) => `promotionMaster-${promotionMasterId}`,
  issuedPromotion: (promotionId: number) => `issuedPromotion-${promotionId}`,
  checkoutReservation: (reservationKey: string) => `checkoutReservation-${reservationKey}`,
  /** The master's total uses (userId absent) or one user's. */
  promotionUsage: (promotionMasterId: number, userId?: string) =>
    userId === undefined ? `promotionUsage-${promotionMasterId}` : `promotionUsage-${promotionMasterId}:${userId}`,
  /** `digest`: sha256 (hex) of the merchant id and the order id (application/checkout/reservation-writes.ts). */
  checkoutOrder: (digest: string) => `checkoutOrder-${digest}`,
  shopPoolMaster: (voucherPoolId: number) => `shopPoolMaster-${voucherPoolId}`,
  promotionAllotment: (allotmentId: string) => `promotionAllotment-${allotmentId}`,
  /** `codeDigest`: sha256 (hex) of the code as issued. */
  promotionCode: (promotionMasterId: number, codeDigest: string) => `promotionCode-${promotionMasterId}-${codeDigest}`,
};
