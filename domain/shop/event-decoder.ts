/**
 * The shop's one event decoder: every shop event type with its schema version, grouped by the stream category that
 * holds it (streams: events.ts). Everything that reads shop events reads them through it; writers stamp its
 * current versions. How to change an event's shape: docs/event-store.md#schema-versions-and-upcasting.
 */
import { eventDecoder, type EventDecoder, type EventSchemas } from '../shared/event-decoder.js';
import type {
  ApiKeyLookupEvent,
  CampaignCodeClaimed,
  CampaignEvent,
  CampaignPoolListed,
  MerchantEvent,
  ShopEvent,
  ShopIdempotencyKeyUsed,
  ShopOrderIdClaimed,
  ShopReservationEvent,
  VoucherCategoryEvent,
  VoucherCategoryIndexed,
  VoucherPoolEvent,
} from './events.js';

/** Stored as the type declares it: no shop event has changed shape yet. */
const v1 = { version: 1 } as const;

/** Each stream category's event types (each group complete: its type checks it) and their schema versions. */
const groups = {
  voucherPool: {
    VoucherPoolCreated: v1,
    VoucherPoolSaleChanged: v1,
    VoucherPoolStockAdded: v1,
    VoucherPoolRepriced: v1,
    VoucherPoolDeleted: v1,
    VoucherStockReserved: v1,
    VoucherStockReleased: v1,
    VoucherStockSold: v1,
    VoucherPoolDisplayUpdated: v1,
    VoucherPoolTermsUpdated: v1,
    VoucherPoolCategoryChanged: v1,
    VoucherPoolMiniAppsChanged: v1,
    VoucherPoolValidityChanged: v1,
  } satisfies EventSchemas<VoucherPoolEvent>,
  reservation: {
    ShopReservationPlaced: v1,
    ShopReservationCommitted: v1,
    ShopReservationReleased: v1,
    ShopReservationExpired: v1,
  } satisfies EventSchemas<ShopReservationEvent>,
  /** shopOrder-… and shopIdempotency-…: one event each, the claim. */
  guard: { ShopOrderIdClaimed: v1, ShopIdempotencyKeyUsed: v1 } satisfies EventSchemas<
    ShopOrderIdClaimed | ShopIdempotencyKeyUsed
  >,
  merchant: {
    MerchantRegistered: v1,
    MerchantApiKeyIssued: v1,
    MerchantApiKeyRevoked: v1,
  } satisfies EventSchemas<MerchantEvent>,
  apiKey: { ApiKeyClaimed: v1, ApiKeyRevoked: v1 } satisfies EventSchemas<ApiKeyLookupEvent>,
  campaign: {
    CampaignCreated: v1,
    CampaignStatusChanged: v1,
    CampaignDetailsUpdated: v1,
    CampaignBannerAdded: v1,
    CampaignBannerUpdated: v1,
    CampaignBannerRemoved: v1,
  } satisfies EventSchemas<CampaignEvent>,
  campaignCode: { CampaignCodeClaimed: v1 } satisfies EventSchemas<CampaignCodeClaimed>,
  campaignPools: { CampaignPoolListed: v1 } satisfies EventSchemas<CampaignPoolListed>,
  category: { VoucherCategoryCreated: v1, VoucherCategoryRenamed: v1 } satisfies EventSchemas<VoucherCategoryEvent>,
  categoryIndex: { VoucherCategoryIndexed: v1 } satisfies EventSchemas<VoucherCategoryIndexed>,
};

/** The shop's registry, every ShopEvent type once; a test may build a decoder from it with a schema changed. */
export const shopEventSchemas: EventSchemas<ShopEvent> = {
  ...groups.voucherPool,
  ...groups.reservation,
  ...groups.guard,
  ...groups.merchant,
  ...groups.apiKey,
  ...groups.campaign,
  ...groups.campaignCode,
  ...groups.campaignPools,
  ...groups.category,
  ...groups.categoryIndex,
};

/** The shop context's decoder. */
export const shopEventDecoder: EventDecoder<ShopEvent> = eventDecoder(shopEventSchemas);

/** One decoder per stream category, restricted to its events, derived from `decoder` (default: the shop's). */
export function shopStreamDecoders(decoder: EventDecoder<ShopEvent> = shopEventDecoder) {
  return {
    voucherPool: decoder.only(groups.voucherPool),
    reservation: decoder.only(groups.reservation),
    guard: decoder.only(groups.guard),
    merchant: decoder.only(groups.merchant),
    apiKey: decoder.only(groups.apiKey),
    campaign: decoder.only(groups.campaign),
    campaignCode: decoder.only(groups.campaignCode),
    campaignPools: decoder.only(groups.campaignPools),
    category: decoder.only(groups.category),
    categoryIndex: decoder.only(groups.categoryIndex),
  };
}

/** The shop decoder's stream views: `shopDecoders.voucherPool.decode(recorded)`. */
export const shopDecoders = shopStreamDecoders();
