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
import { BoundedCache } from '../shared/bounded-cache.js';
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

type Entry<T> = { value: T; until: number };

export class GatewayDirectory {
  private readonly clients: BoundedCache<string, Entry<NonNullable<ClientLookup>>>;
  private readonly parties: BoundedCache<string, Entry<PartyRules | null>>;
  /** Bumped by every forget: a read that began before it must not refill the cache. */
  private generation = 0;

  constructor(
    private readonly store: EventStore,
    private readonly ttlMs = 5000,
    maxEntries = 10_000,
  ) {
    this.clients = new BoundedCache(maxEntries);
    this.parties = new BoundedCache(maxEntries);
  }

  async client(clientId: string, nowMs: number): Promise<ClientLookup> {
    const hit = this.clients.get(clientId);
    if (hit && hit.until > nowMs) return hit.value;
    const generation = this.generation;
    const events = await this.store.readStream(streams.client(clientId));
    const lookup = events.map((e) => gatewayDecoders.client.decode(e)).reduce(evolveClientLookup, null);
    // Unknown client ids are not kept: random guesses must not fill memory.
    if (lookup && generation === this.generation)
      this.clients.set(clientId, { value: lookup, until: nowMs + this.ttlMs });
    return lookup;
  }

  async party(partyId: string, nowMs: number): Promise<PartyRules | null> {
    const hit = this.parties.get(partyId);
    if (hit && hit.until > nowMs) return hit.value;
    const generation = this.generation;
    const { state } = await loadAggregate(this.store, partyDecider, gatewayDecoders.party, streams.party(partyId));
    const rules = state.status === 'NONE' ? null : rulesOf(state);
    if (generation === this.generation) this.parties.set(partyId, { value: rules, until: nowMs + this.ttlMs });
    return rules;
  }

  forgetClient(clientId: string): void {
    this.generation++;
    this.clients.delete(clientId);
  }

  forgetParty(partyId: string): void {
    this.generation++;
    this.parties.delete(partyId);
  }
}
