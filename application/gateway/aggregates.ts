/**
 * The gateway context's aggregate, as the write engine names it (application/shared/aggregate.ts; docs/event-store.md,
 * "The write engine"): a party (stream gatewayParty-<partyId>) and its credentials. An issued credential claims its
 * client id's guard stream (gatewayClient-<clientId>) in the same append, and a revocation reaches that stream first,
 * so a partial write never leaves a usable credential its party does not list as revoked.
 */
import {
  clientEventFor,
  gatewayDecoders,
  gatewayError,
  gatewayEventDecoder,
  partyDecider,
  streams,
  type GatewayPartyEvent,
} from '../../domain/gateway/index.js';
import { aggregate, type AggregateDeps, type GuardClaim, type SideWrite } from '../shared/aggregate.js';

export function gatewayAggregates(deps: AggregateDeps) {
  return {
    party: aggregate(
      {
        decider: partyDecider,
        stream: streams.party,
        decoder: gatewayDecoders.party,
        eventDecoder: gatewayEventDecoder,
        claims: (decided) => decided.flatMap(clientClaim),
        sideWrites: (decided) => decided.flatMap(clientRevocation),
      },
      deps,
    ),
  };
}

/** An issued credential claims its client id: a client id taken by any party (even revoked) is refused. */
function clientClaim(event: GatewayPartyEvent): GuardClaim[] {
  const claim = clientEventFor(event);
  if (claim?.type !== 'GatewayClientClaimed') return [];
  const { clientId } = claim.data;
  return [
    {
      streamName: streams.client(clientId),
      event: claim,
      lost: () => gatewayError('CLIENT_ID_TAKEN', `client id ${clientId} is taken`, { field: 'clientId' }),
    },
  ];
}

/** A revocation reaches the client id's stream first, so a partial write leaves the credential unusable. */
function clientRevocation(event: GatewayPartyEvent): SideWrite[] {
  const revoked = clientEventFor(event);
  if (revoked?.type !== 'GatewayClientRevoked') return [];
  return [
    {
      streamName: streams.client(revoked.data.clientId),
      event: revoked,
      expectedVersion: 'stream_exists',
      placement: 'before',
      idName: `GatewayClientRevoked:${revoked.data.clientId}`,
    },
  ];
}
