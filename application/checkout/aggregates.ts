/**
 * The checkout's aggregates, as the write engine names them (application/shared/aggregate.ts; docs/event-store.md,
 * "The write engine"): promotion masters, issued promotions and their allotments, reservations, the order a
 * reservation claims (one promotion per order) and the uses a reservation holds against a master's limits.
 */
import {
  checkoutDecoders,
  checkoutEventDecoder,
  checkoutOrderDecider,
  checkoutReservationDecider,
  issuedPromotionDecider,
  promotionAllotmentDecider,
  promotionMasterDecider,
  promotionUsageDecider,
  streams,
} from '../../domain/checkout/index.js';
import { aggregate, type AggregateDeps } from '../shared/aggregate.js';
import { secretDigest } from '../shared/signatures.js';

/** How a checkout order is named: the merchant and its order id. */
export interface CheckoutOrderId {
  merchantId: string;
  orderId: string;
}

/** Whose uses of a master: all of them (userId absent: its total quota), or one user's. */
export interface UsageId {
  promotionMasterId: number;
  userId?: string;
}

/** The order's stream: one per merchant and order id, named by their digest (an order id is free text). */
export const checkoutOrderStream = (merchantId: string, orderId: string): string =>
  streams.checkoutOrder(secretDigest(JSON.stringify([merchantId, orderId])));

export function checkoutAggregates(deps: AggregateDeps) {
  const eventDecoder = checkoutEventDecoder;
  return {
    promotionMaster: aggregate(
      {
        decider: promotionMasterDecider,
        stream: streams.promotionMaster,
        decoder: checkoutDecoders.promotionMaster,
        eventDecoder,
      },
      deps,
    ),
    issuedPromotion: aggregate(
      {
        decider: issuedPromotionDecider,
        stream: streams.issuedPromotion,
        decoder: checkoutDecoders.issuedPromotion,
        eventDecoder,
      },
      deps,
    ),
    promotionAllotment: aggregate(
      {
        decider: promotionAllotmentDecider,
        stream: streams.promotionAllotment,
        decoder: checkoutDecoders.promotionAllotment,
        eventDecoder,
      },
      deps,
    ),
    checkoutReservation: aggregate(
      {
        decider: checkoutReservationDecider,
        stream: streams.checkoutReservation,
        decoder: checkoutDecoders.checkoutReservation,
        eventDecoder,
      },
      deps,
    ),
    checkoutOrder: aggregate(
      {
        decider: checkoutOrderDecider,
        stream: (id: CheckoutOrderId) => checkoutOrderStream(id.merchantId, id.orderId),
        decoder: checkoutDecoders.checkoutOrder,
        eventDecoder,
      },
      deps,
    ),
    promotionUsage: aggregate(
      {
        decider: promotionUsageDecider,
        stream: (id: UsageId) => streams.promotionUsage(id.promotionMasterId, id.userId),
        decoder: checkoutDecoders.promotionUsage,
        eventDecoder,
      },
      deps,
    ),
  };
}

export type CheckoutAggregates = ReturnType<typeof checkoutAggregates>;
