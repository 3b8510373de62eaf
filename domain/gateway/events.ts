/**
 * Events of the gateway: parties (who may call which interface, from where, how often) and their credentials. Change
 * them only by adding optional fields or new events (docs/event-store.md#schema-versions-and-upcasting).
 *
 * Streams:
 *   gatewayParty-<partyId>     a party and every credential it was issued (the secret's sha256 only; party.ts)
 *   gatewayClient-<clientId>   guard of one client id: the party that holds it, its environments, the secret's
 *                              sha256, its revocation. Claimed ('no_stream') in the same append as the party's
 *                              CredentialIssued, so a client id is unique across parties and the gateway's check
 *                              reads this one small stream to find the party (client-lookup.ts).
 * Times are ISO 8601 strings in UTC.
 */
import type { DomainEvent } from '../shared/decider.js';
import type { GatewayInterface } from '../shared/gateway-interfaces.js';
import type { CredentialSource, GatewayEnvironment, PartyKind, RateLimitOverride } from './party.js';

// ---- gatewayParty-<partyId> ----

export type GatewayPartyRegistered = DomainEvent<
  'GatewayPartyRegistered',
  {
    partyId: string;
    name: string;
    kind: PartyKind;
    interfaces: GatewayInterface[];
    ipAllowlist: string[];
    rateLimits: RateLimitOverride[];
    registeredAt: string;
  }
>;

/** Only the fields that changed are present, each with its whole new value. */
export type GatewayPartyUpdated = DomainEvent<
  'GatewayPartyUpdated',
  {
    partyId: string;
    name?: string;
    interfaces?: GatewayInterface[];
    ipAllowlist?: string[];
    rateLimits?: RateLimitOverride[];
    updatedAt: string;
  }
>;

export type GatewayCredentialIssued = DomainEvent<
  'GatewayCredentialIssued',
  {
    partyId: string;
    clientId: string;
    environments: GatewayEnvironment[];
    /** sha256 of the secret, hex: the secret itself is never stored. */
    secretHash: string;
    source: CredentialSource;
    issuedAt: string;
  }
>;

export type GatewayCredentialRevoked = DomainEvent<
  'GatewayCredentialRevoked',
  { partyId: string; clientId: string; revokedAt: string }
>;

export type GatewayPartyEvent =
  GatewayPartyRegistered | GatewayPartyUpdated | GatewayCredentialIssued | GatewayCredentialRevoked;

// ---- gatewayClient-<clientId> ----

export type GatewayClientClaimed = DomainEvent<
  'GatewayClientClaimed',
  { partyId: string; clientId: string; environments: GatewayEnvironment[]; secretHash: string; claimedAt: string }
>;

export type GatewayClientRevoked = DomainEvent<
  'GatewayClientRevoked',
  { partyId: string; clientId: string; revokedAt: string }
>;

export type GatewayClientEvent = GatewayClientClaimed | GatewayClientRevoked;

export type GatewayEvent = GatewayPartyEvent | GatewayClientEvent;

export const streams = {
  party: (partyId: string) => `gatewayParty-${partyId}`,
  client: (clientId: string) => `gatewayClient-${clientId}`,
};
