/**
 * What the gateway's check reads to find a caller (stream gatewayClient-<clientId>, events.ts): the party holding the
 * client id, the environments it is issued for, the secret's sha256 and whether it was revoked. docs/gateway.md.
 */
import type { GatewayClientEvent } from './events.js';
import type { GatewayEnvironment } from './party.js';

/** null: no credential has this client id. */
export type ClientLookup = {
  readonly partyId: string;
  readonly clientId: string;
  readonly environments: readonly GatewayEnvironment[];
  readonly secretHash: string;
  readonly revoked: boolean;
} | null;

export function evolveClientLookup(state: ClientLookup, event: GatewayClientEvent): ClientLookup {
  switch (event.type) {
    case 'GatewayClientClaimed': {
      const { partyId, clientId, environments, secretHash } = event.data;
      return { partyId, clientId, environments, secretHash, revoked: false };
    }
    case 'GatewayClientRevoked':
      return state && { ...state, revoked: true };
  }
}
