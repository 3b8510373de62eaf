/**
 * The promotion checkout's one event decoder: every checkout event type with its schema version, grouped by the
 * stream category that holds it. Everything that reads checkout events reads them through it; writers stamp its
 * current versions. How to change an event's shape: docs/event-store.md#schema-versions-and-upcasting.
 */
import { eventDecoder, type EventDecoder, type EventSchemas } from '../shared/event-decoder.js';
import type {
  CheckoutEvent,
  CheckoutOrderEvent,
  CheckoutReservationEvent,
  IssuedPromotionEvent,
  PromotionCodeClaimed,
  PromotionMasterEvent,
  PromotionsAllotted,
  PromotionUsageEvent,
  ShopPoolMasterClaimed,
} from './events.js';

/** Stored as the type declares it: no checkout event has changed shape yet. */
const v1 = { version: 1 } as const;

/** Each stream category's event types (each group complete: its type checks it) and their schema versions. */
const groups = {
  promotionMaster: {
    PromotionMasterCreated: v1,
    PromotionMasterStatusChanged: v1,
  } satisfies EventSchemas<PromotionMasterEvent>,
  issuedPromotion: {
    PromotionIssued: v1,
    PromotionReserved: v1,
    PromotionUsed: v1,
    PromotionReturned: v1,
    PromotionCancelled: v1,
    PromotionExpired: v1,
  } satisfies EventSchemas<IssuedPromotionEvent>,
  checkoutReservation: {
    CheckoutReserved: v1,
    CheckoutConfirmed: v1,
    CheckoutReleased: v1,
    CheckoutExpired: v1,
    CheckoutRefunded: v1,
  } satisfies EventSchemas<CheckoutReservationEvent>,
  promotionUsage: { PromotionUsageHeld: v1, PromotionUsageFreed: v1 } satisfies EventSchemas<PromotionUsageEvent>,
  checkoutOrder: {
    CheckoutOrderClaimed: v1,
    CheckoutOrderConfirmed: v1,
    CheckoutOrderFreed: v1,
  } satisfies EventSchemas<CheckoutOrderEvent>,
  shopPoolMaster: { ShopPoolMasterClaimed: v1 } satisfies EventSchemas<ShopPoolMasterClaimed>,
  promotionCode: { PromotionCodeClaimed: v1 } satisfies EventSchemas<PromotionCodeClaimed>,
  promotionAllotment: { PromotionsAllotted: v1 } satisfies EventSchemas<PromotionsAllotted>,
};

/** The checkout's registry, every CheckoutEvent type once; a test may build a decoder from it with a schema changed. */
export const checkoutEventSchemas: EventSchemas<CheckoutEvent> = {
  ...groups.promotionMaster,
  ...groups.issuedPromotion,
  ...groups.checkoutReservation,
  ...groups.promotionUsage,
  ...groups.checkoutOrder,
  ...groups.shopPoolMaster,
  ...groups.promotionCode,
  ...groups.promotionAllotment,
};

/** The checkout context's decoder. */
export const checkoutEventDecoder: EventDecoder<CheckoutEvent> = eventDecoder(checkoutEventSchemas);

/** The decoder's stream views: `checkoutDecoders.promotionMaster.decode(recorded)`. */
export const checkoutDecoders = {
  promotionMaster: checkoutEventDecoder.only(groups.promotionMaster),
  issuedPromotion: checkoutEventDecoder.only(groups.issuedPromotion),
  checkoutReservation: checkoutEventDecoder.only(groups.checkoutReservation),
  promotionUsage: checkoutEventDecoder.only(groups.promotionUsage),
  checkoutOrder: checkoutEventDecoder.only(groups.checkoutOrder),
  shopPoolMaster: checkoutEventDecoder.only(groups.shopPoolMaster),
  promotionCode: checkoutEventDecoder.only(groups.promotionCode),
  promotionAllotment: checkoutEventDecoder.only(groups.promotionAllotment),
};
