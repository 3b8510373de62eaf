/**
 * The gateway's one event decoder: every gateway event type with its schema version, grouped by the stream category
 * that holds it. How to change an event's shape: docs/event-store.md#schema-versions-and-upcasting.
 */
import { eventDecoder, type EventDecoder, type EventSchemas } from '../shared/event-decoder.js';
import type { GatewayClientEvent, GatewayEvent, GatewayPartyEvent } from './events.js';

/** Stored as the type declares it: no gateway event has changed shape yet. */
const v1 = { version: 1 } as const;

const groups = {
  party: {
    GatewayPartyRegistered: v1,
    GatewayPartyUpdated: v1,
    GatewayCredentialIssued: v1,
    GatewayCredentialRevoked: v1,
  } satisfies EventSchemas<GatewayPartyEvent>,
  client: { GatewayClientClaimed: v1, GatewayClientRevoked: v1 } satisfies EventSchemas<GatewayClientEvent>,
};

/** The gateway's registry, every GatewayEvent type once. */
export const gatewayEventSchemas: EventSchemas<GatewayEvent> = { ...groups.party, ...groups.client };

/** The gateway context's decoder. */
export const gatewayEventDecoder: EventDecoder<GatewayEvent> = eventDecoder(gatewayEventSchemas);

/** The decoder's stream views: `gatewayDecoders.party.decode(recorded)`. */
export const gatewayDecoders = {
  party: gatewayEventDecoder.only(groups.party),
  client: gatewayEventDecoder.only(groups.client),
};
