/**
 * The order view's aggregates, as the write engine names them (application/shared/aggregate.ts; docs/event-store.md,
 * "The write engine"): an order (stream order-<merchantId>-<orderId>), and a merchant with its webhook keys (stream
 * orderMerchant-<id>), every issue, rotation and revocation of which also writes the key's lookup stream
 * (orderApiKey-<sha256>) in the same append, the issue as a guard claim, lookup first.
 */
import {
  orderApiKeyEventFor,
  orderDecider,
  orderMerchantDecider,
  ordersDecoders,
  ordersEventDecoder,
  streams,
  type OrderMerchantEvent,
} from '../../domain/orders/index.js';
import { aggregate, type AggregateDeps, type GuardClaim, type SideWrite } from '../shared/aggregate.js';

/** How an order is named: its merchant and the merchant's order id. */
export interface OrderId {
  merchantId: string;
  orderId: string;
}

export function ordersAggregates(deps: AggregateDeps) {
  const eventDecoder = ordersEventDecoder;
  return {
    order: aggregate(
      {
        decider: orderDecider,
        stream: (id: OrderId) => streams.order(id.merchantId, id.orderId),
        decoder: ordersDecoders.order,
        eventDecoder,
        // Webhooks of one order race (parked events, resends from several processes): enough rounds for a burst.
        maxAttempts: 10,
      },
      deps,
    ),
    merchant: aggregate(
      {
        decider: orderMerchantDecider,
        stream: streams.orderMerchant,
        decoder: ordersDecoders.orderMerchant,
        eventDecoder,
        claims: (decided) => decided.flatMap(lookupClaim),
        sideWrites: (decided) => decided.flatMap(lookupChange),
      },
      deps,
    ),
  };
}

/** A key's lookup stream is claimed once: its event id is named by the key's digest. */
function lookupClaim(event: OrderMerchantEvent): GuardClaim[] {
  const lookup = orderApiKeyEventFor(event);
  if (lookup?.event.type !== 'OrderApiKeyClaimed') return [];
  return [
    {
      streamName: streams.orderApiKey(lookup.keyDigest),
      event: lookup.event,
      lost: () => new Error('two order API keys have the same sha256'),
      idName: `OrderApiKeyClaimed:${lookup.keyDigest}`,
    },
  ];
}

/** A retirement or revocation reaches the lookup first: a partial write leaves the key less usable, never more. */
function lookupChange(event: OrderMerchantEvent): SideWrite[] {
  const lookup = orderApiKeyEventFor(event);
  if (!lookup || lookup.event.type === 'OrderApiKeyClaimed') return [];
  return [
    {
      streamName: streams.orderApiKey(lookup.keyDigest),
      event: lookup.event,
      expectedVersion: 'stream_exists',
      placement: 'before',
      idName: `${lookup.event.type}:${lookup.keyDigest}`,
    },
  ];
}
