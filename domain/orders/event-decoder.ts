/**
 * The order view's one event decoder: every orders event type with its schema version, grouped by the stream
 * category that holds it. Everything that reads orders events reads them through it; writers stamp its current
 * versions. How to change an event's shape: docs/event-store.md#schema-versions-and-upcasting.
 */
import { eventDecoder, type EventDecoder, type EventSchemas } from '../shared/event-decoder.js';
import type { OrderApiKeyEvent, OrderEvent, OrderMerchantEvent, OrdersEvent, OrderSignatureEvent } from './events.js';

/** Stored as the type declares it: no orders event has changed shape yet. */
const v1 = { version: 1 } as const;

const groups = {
  orderMerchant: {
    OrderMerchantRegistered: v1,
    OrderKeyIssued: v1,
    OrderKeyRetiring: v1,
    OrderKeyRevoked: v1,
  } satisfies EventSchemas<OrderMerchantEvent>,
  orderApiKey: {
    OrderApiKeyClaimed: v1,
    OrderApiKeyRetiring: v1,
    OrderApiKeyRevoked: v1,
  } satisfies EventSchemas<OrderApiKeyEvent>,
  order: {
    OrderCreated: v1,
    OrderUpdated: v1,
    OrderCancelled: v1,
    OrderEventParked: v1,
    OrderEarlyEventDiscarded: v1,
  } satisfies EventSchemas<OrderEvent>,
  orderSignature: { OrderSignatureClaimed: v1 } satisfies EventSchemas<OrderSignatureEvent>,
};

export const ordersEventSchemas: EventSchemas<OrdersEvent> = {
  ...groups.orderMerchant,
  ...groups.orderApiKey,
  ...groups.order,
  ...groups.orderSignature,
};

/** The orders context's decoder. */
export const ordersEventDecoder: EventDecoder<OrdersEvent> = eventDecoder(ordersEventSchemas);

/** The decoder's stream views: `ordersDecoders.order.decode(recorded)`. */
export const ordersDecoders = {
  orderMerchant: ordersEventDecoder.only(groups.orderMerchant),
  orderApiKey: ordersEventDecoder.only(groups.orderApiKey),
  order: ordersEventDecoder.only(groups.order),
  orderSignature: ordersEventDecoder.only(groups.orderSignature),
};
