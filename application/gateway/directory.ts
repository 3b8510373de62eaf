/**
 * What the gateway's check reads, kept for a few seconds (docs/gateway.md, "The check"): a client id's lookup
 * stream (gatewayClient-<clientId>) and its party (gatewayParty-<partyId>), each small. One directory per service
 * build, shared by the check and the party admin, so that a revocation or an update made in this process is
 * honoured at once; other processes see it within `ttlMs`.
 */
import {
  evolveClientLookup,
  gatewayDecoders,
  partyDecider,
  streams,
  type ClientLookup,
  type GatewayInterface,
  type Party,
  type PartyKind,
  type RateLimitOverride,
} from '../../domain/gateway/index.js';
import { ExpiringLookups } from '../shared/expiring-lookups.js';
import { loadAggregate } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import { IpAllowlist } from './ip-allowlist.js';

/** A party as the check uses it: grants as a set, the allowlist compiled, limits by `interface endpoint`. */
export interface PartyRules {
  readonly partyId: string;
  readonly kind: PartyKind;
  readonly interfaces: ReadonlySet<GatewayInterface>;
  /** null: any address (an INTERNAL party without an allowlist). */
  readonly allowlist: IpAllowlist | null;
  readonly rateLimits: ReadonlyMap<string, RateLimitOverride>;
}

export const rateLimitKey = (gatewayInterface: string, endpoint: string) => `${gatewayInterface} ${endpoint}`;

function rulesOf(party: Party): PartyRules {
  return {
    partyId: party.partyId,
    kind: party.kind,
    interfaces: new Set(party.interfaces),
    allowlist: party.ipAllowlist.length ? new IpAllowlist(party.ipAllowlist) : null,
    rateLimits: new Map(party.rateLimits.map((r) => [rateLimitKey(r.interface, r.endpoint), r])),
  };
}

export class GatewayDirectory {
  private readonly clients: ExpiringLookups<string, ClientLookup>;
  private readonly parties: ExpiringLookups<string, PartyRules | null>;

  constructor(store: EventStore, ttlMs = 5000, maxEntries = 10_000) {
    this.clients = new ExpiringLookups(
      async (clientId) =>
        (await store.readStream(streams.client(clientId)))
          .map((e) => gatewayDecoders.client.decode(e))
          .reduce(evolveClientLookup, null),
      // Unknown client ids are not kept: random guesses must not fill memory.
      { ttlMs, maxEntries, keep: (lookup) => lookup !== null },
    );
    this.parties = new ExpiringLookups(
      async (partyId) => {
        const { state } = await loadAggregate(store, partyDecider, gatewayDecoders.party, streams.party(partyId));
        return state.status === 'NONE' ? null : rulesOf(state);
      },
      { ttlMs, maxEntries },
    );
  }

  client(clientId: string, nowMs: number): Promise<ClientLookup> {
    return this.clients.get(clientId, nowMs);
  }

  party(partyId: string, nowMs: number): Promise<PartyRules | null> {
    return this.parties.get(partyId, nowMs);
  }

  forgetClient(clientId: string): void {
    this.clients.forget(clientId);
  }

  forgetParty(partyId: string): void {
    this.parties.forget(partyId);
  }
}
