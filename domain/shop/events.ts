/**
 * Events of the voucher shop. These types are the contract between the
 * deciders that emit them, the projectors that read them and auditors who
 * replay them: change them only by adding optional fields or new events
 * (anything else: a new schema version and an upcaster in event-decoder.ts,
 * docs/event-store.md#schema-versions-and-upcasting).
 *
 * Streams:
 *   voucherPool-<poolId>                    pool stock, pricing, per-user purchases
 *   shopReservation-<reservationKey>        one purchase: RESERVED → COMMITTED | RELEASED
 *   shopOrder-<merchantId>:<orderId>        guard: an order id is used once per merchant
 *   shopIdempotency-<merchantId>:<key>      guard: what an X-Idempotency-Key was used for
 *   campaign-<campaignId>, campaignCode-<CODE>   see campaign.ts
 *   campaignPools-<campaignId>              index: the pools of a campaign (pool-sale.ts)
 *   merchant-<merchantId>, apiKey-<sha256hex>     see merchant.ts
 *   category-<categoryId>, voucherCategoryIndex   see category.ts
 * Times are ISO 8601 strings; amounts are integers in minor units.
 */
import type { DomainEvent } from '../shared/decider.js';
import type { CampaignBanner, CampaignDetails, CampaignStatus, NewCampaign } from './campaign.js';
import type { PoolSale } from './pool-sale.js';

export type Currency = 'VND' | 'VPOINT';
export const currencies = ['VND', 'VPOINT'] as const;

export interface PoolDisplay {
  title: string;
  shortTitle: string;
  brandName: string;
  logoUrl: string;
  bannerUrl: string;
  thumbnailUrl: string;
  description: string;
}

export interface PoolPricing {
  faceValue: number;
  sellingPrice: number;
  discountedPrice: number | null;
  currency: Currency;
}

export interface PoolTerms {
  usageType: 'ONLINE' | 'OFFLINE';
  termsAndConditions: string;
  /** Days an issued voucher stays valid after purchase. */
  validityDays: number;
  /** Most vouchers of this pool one user may hold in total (reserved or bought); null: no limit. */
  usageLimit: number | null;
  /** Most vouchers of this pool one user may buy per day; null: no limit. */
  maxPerDay: number | null;
  /** Most vouchers of this pool in one reservation; null: no limit. */
  maxPerOrder: number | null;
}

// ---- voucherPool-<poolId> ----

export type VoucherPoolCreated = DomainEvent<
  'VoucherPoolCreated',
  {
    poolId: number;
    campaignId: number;
    categoryId: number;
    miniAppIds: string[];
    display: PoolDisplay;
    pricing: PoolPricing;
    totalQuantity: number;
    terms: PoolTerms;
    validity: { startAt: string; endAt: string } | null;
    /** Its campaign's sale terms when it was created (pool-sale.ts); absent on pools created before the rule. */
    sale?: PoolSale;
    createdAt: string;
  }
>;
export type VoucherPoolStockAdded = DomainEvent<
  'VoucherPoolStockAdded',
  { poolId: number; quantity: number; addedAt: string }
>;
export type VoucherPoolRepriced = DomainEvent<
  'VoucherPoolRepriced',
  { poolId: number; pricing: PoolPricing; repricedAt: string }
>;
export type VoucherPoolDeleted = DomainEvent<'VoucherPoolDeleted', { poolId: number; deletedAt: string }>;

/** Stock held for a reservation; counts towards the user's limits until released. */
export type VoucherStockReserved = DomainEvent<
  'VoucherStockReserved',
  {
    poolId: number;
    reservationKey: string;
    merchantId: string;
    userId: string;
    quantity: number;
    unitPrice: number;
    /** Purchase day (YYYY-MM-DD) in the configured day zone, for the daily limit. */
    day: string;
    reservedAt: string;
  }
>;
/** Held stock returned (reservation released, expired, or a multi-pool reserve undone). */
export type VoucherStockReleased = DomainEvent<
  'VoucherStockReleased',
  {
    poolId: number;
    reservationKey: string;
    merchantId: string;
    userId: string;
    quantity: number;
    day: string;
    reason: 'RELEASED' | 'EXPIRED' | 'COMPENSATION';
    releasedAt: string;
  }
>;
/** Held stock sold for good (reservation committed). */
export type VoucherStockSold = DomainEvent<
  'VoucherStockSold',
  { poolId: number; reservationKey: string; quantity: number; soldAt: string }
>;

/** Operator changes after creation; each carries the new value whole (see voucher-pool.ts, UpdateVoucherPool). */
export type VoucherPoolDisplayUpdated = DomainEvent<
  'VoucherPoolDisplayUpdated',
  { poolId: number; display: PoolDisplay; updatedAt: string }
>;
/** New limits apply to reserves from now on; what buyers already hold stays theirs. */
export type VoucherPoolTermsUpdated = DomainEvent<
  'VoucherPoolTermsUpdated',
  { poolId: number; terms: PoolTerms; updatedAt: string }
>;
export type VoucherPoolCategoryChanged = DomainEvent<
  'VoucherPoolCategoryChanged',
  { poolId: number; categoryId: number; updatedAt: string }
>;
export type VoucherPoolMiniAppsChanged = DomainEvent<
  'VoucherPoolMiniAppsChanged',
  { poolId: number; miniAppIds: string[]; updatedAt: string }
>;
export type VoucherPoolValidityChanged = DomainEvent<
  'VoucherPoolValidityChanged',
  { poolId: number; validity: { startAt: string; endAt: string } | null; updatedAt: string }
>;

/** Its campaign's sale terms changed (status, window): copied into the pool, where reserve decides (pool-sale.ts). */
export type VoucherPoolSaleChanged = DomainEvent<
  'VoucherPoolSaleChanged',
  { poolId: number; sale: PoolSale; changedAt: string }
>;

export type VoucherPoolEvent =
  | VoucherPoolCreated
  | VoucherPoolSaleChanged
  | VoucherPoolStockAdded
  | VoucherPoolRepriced
  | VoucherPoolDeleted
  | VoucherStockReserved
  | VoucherStockReleased
  | VoucherStockSold
  | VoucherPoolDisplayUpdated
  | VoucherPoolTermsUpdated
  | VoucherPoolCategoryChanged
  | VoucherPoolMiniAppsChanged
  | VoucherPoolValidityChanged;

// ---- shopReservation-<reservationKey> ----

export interface IssuedVoucher {
  issuedPromotionId: number;
  /** The voucher code encrypted at rest (see application/shop/voucher-codes). */
  encryptedCode: string;
  faceValue: number;
  sellingPrice: number;
  currency: Currency;
  purchasedAt: string;
  expiresAt: string;
}

export interface ReservedItem {
  voucherPoolId: number;
  quantity: number;
  unitPrice: number;
  vouchers: IssuedVoucher[];
}

export type ShopReservationPlaced = DomainEvent<
  'ShopReservationPlaced',
  {
    reservationKey: string;
    orderId: string;
    merchantId: string;
    userId: string;
    idempotencyKey: string;
    /** sha256 of the canonical request body, to tell a resend from a different request. */
    requestHash: string;
    amount: number;
    currency: Currency;
    reservedAt: string;
    expiresAt: string;
    items: ReservedItem[];
  }
>;
export type ShopReservationCommitted = DomainEvent<
  'ShopReservationCommitted',
  { reservationKey: string; committedAt: string }
>;
export type ShopReservationReleased = DomainEvent<
  'ShopReservationReleased',
  { reservationKey: string; releasedAt: string; reason: string | null }
>;
export type ShopReservationExpired = DomainEvent<
  'ShopReservationExpired',
  { reservationKey: string; expiredAt: string }
>;

export type ShopReservationEvent =
  ShopReservationPlaced | ShopReservationCommitted | ShopReservationReleased | ShopReservationExpired;

// ---- guards ----

export type ShopOrderIdClaimed = DomainEvent<
  'ShopOrderIdClaimed',
  { merchantId: string; orderId: string; reservationKey: string; requestHash: string; claimedAt: string }
>;
export type ShopIdempotencyKeyUsed = DomainEvent<
  'ShopIdempotencyKeyUsed',
  {
    merchantId: string;
    idempotencyKey: string;
    requestHash: string;
    reservationKey: string;
    orderId: string;
    usedAt: string;
  }
>;

// ---- campaign-<campaignId>, campaignCode-<CODE> (campaign.ts) ----

export type CampaignCreated = DomainEvent<
  'CampaignCreated',
  Omit<NewCampaign, 'banners'> & {
    campaignId: number;
    status: CampaignStatus;
    banners: CampaignBanner[];
    createdAt: string;
  }
>;
export type CampaignStatusChanged = DomainEvent<
  'CampaignStatusChanged',
  { campaignId: number; from: CampaignStatus; to: CampaignStatus; changedAt: string }
>;
/** Carries every detail as it is after the change, so a reader needs no earlier event to apply it. */
export type CampaignDetailsUpdated = DomainEvent<
  'CampaignDetailsUpdated',
  CampaignDetails & { campaignId: number; updatedAt: string }
>;
export type CampaignBannerAdded = DomainEvent<
  'CampaignBannerAdded',
  { campaignId: number; banner: CampaignBanner; addedAt: string }
>;
/** The banner whole, as it is after the change. */
export type CampaignBannerUpdated = DomainEvent<
  'CampaignBannerUpdated',
  { campaignId: number; banner: CampaignBanner; updatedAt: string }
>;
export type CampaignBannerRemoved = DomainEvent<
  'CampaignBannerRemoved',
  { campaignId: number; bannerId: number; removedAt: string }
>;
export type CampaignEvent =
  | CampaignCreated
  | CampaignStatusChanged
  | CampaignDetailsUpdated
  | CampaignBannerAdded
  | CampaignBannerUpdated
  | CampaignBannerRemoved;
export type CampaignCodeClaimed = DomainEvent<
  'CampaignCodeClaimed',
  { code: string; campaignId: number; claimedAt: string }
>;

// ---- merchant-<merchantId>, apiKey-<sha256hex> (merchant.ts) ----

export type MerchantRegistered = DomainEvent<
  'MerchantRegistered',
  { merchantId: string; name: string; registeredAt: string }
>;
export type MerchantApiKeyIssued = DomainEvent<
  'MerchantApiKeyIssued',
  { merchantId: string; apiKeyId: number; prefix: string; keyHash: string; expiresAt: string | null; issuedAt: string }
>;
export type MerchantApiKeyRevoked = DomainEvent<
  'MerchantApiKeyRevoked',
  { merchantId: string; apiKeyId: number; keyHash: string; revokedAt: string }
>;
export type MerchantEvent = MerchantRegistered | MerchantApiKeyIssued | MerchantApiKeyRevoked;
export type ApiKeyClaimed = DomainEvent<
  'ApiKeyClaimed',
  { merchantId: string; apiKeyId: number; expiresAt: string | null; claimedAt: string }
>;
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', { merchantId: string; apiKeyId: number; revokedAt: string }>;
export type ApiKeyLookupEvent = ApiKeyClaimed | ApiKeyRevoked;

// ---- category-<categoryId>, voucherCategoryIndex (category.ts) ----

export type VoucherCategoryCreated = DomainEvent<
  'VoucherCategoryCreated',
  { categoryId: number; name: string; createdAt: string }
>;
export type VoucherCategoryRenamed = DomainEvent<
  'VoucherCategoryRenamed',
  { categoryId: number; name: string; renamedAt: string }
>;
export type VoucherCategoryEvent = VoucherCategoryCreated | VoucherCategoryRenamed;
export type VoucherCategoryIndexed = DomainEvent<'VoucherCategoryIndexed', { categoryId: number; indexedAt: string }>;

// ---- campaignPools-<campaignId> ----

/** A pool was created in the campaign: the index the campaign's sale changes are copied along. */
export type CampaignPoolListed = DomainEvent<
  'CampaignPoolListed',
  { campaignId: number; poolId: number; listedAt: string }
>;

export type ShopEvent =
  | VoucherPoolEvent
  | CampaignPoolListed
  | ShopReservationEvent
  | ShopOrderIdClaimed
  | ShopIdempotencyKeyUsed
  | MerchantEvent
  | ApiKeyLookupEvent
  | CampaignEvent
  | CampaignCodeClaimed
  | VoucherCategoryEvent
  | VoucherCategoryIndexed;

export const streams = {
  voucherPool: (poolId: number) => `voucherPool-${poolId}`,
  reservation: (reservationKey: string) => `shopReservation-${reservationKey}`,
  // ':' cannot occur in a merchant id, so merchant and order id never run into each other.
  orderGuard: (merchantId: string, orderId: string) => `shopOrder-${merchantId}:${orderId}`,
  idempotencyGuard: (merchantId: string, key: string) => `shopIdempotency-${merchantId}:${key}`,
  campaign: (campaignId: number) => `campaign-${campaignId}`,
  campaignPools: (campaignId: number) => `campaignPools-${campaignId}`,
  merchant: (merchantId: string) => `merchant-${merchantId}`,
  category: (categoryId: number) => `category-${categoryId}`,
};
