/**
 * Operators' gateway parties and credentials (stream gatewayParty-<partyId>), through the write engine
 * (docs/conventions.md, "Commands"; docs/gateway.md, "Operator API"; the client id claims: aggregates.ts). A secret
 * is generated here (or imported), answered once and stored only as its sha256.
 */
import {
  gatewayError,
  type CredentialSource,
  type CredentialStatus,
  type GatewayEnvironment,
  type Party,
  type PartyChanges,
  type PartyCommand,
  type PartyDefinition,
  type PartyKind,
  type RateLimitOverride,
  type GatewayInterface,
} from '../../domain/gateway/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import { gatewayAggregates } from './aggregates.js';
import { generateClientId, generateClientSecret, secretHash } from './client-secrets.js';
import type { GatewayDirectory } from './directory.js';
import type { EndpointCatalog } from './endpoint-catalog.js';

/** A credential as a party lists it: never its secret nor the secret's hash. */
export interface CredentialView {
  clientId: string;
  environments: GatewayEnvironment[];
  source: CredentialSource;
  status: CredentialStatus;
  issuedAt: string;
  revokedAt: string | null;
}

/** A credential as answered once, at issue: the only time the secret exists outside the caller. */
export interface IssuedCredentialView {
  clientId: string;
  clientSecret: string;
  environments: GatewayEnvironment[];
  source: CredentialSource;
  issuedAt: string;
}

export interface PartyView {
  partyId: string;
  name: string;
  kind: PartyKind;
  interfaces: GatewayInterface[];
  ipAllowlist: string[];
  rateLimits: RateLimitOverride[];
  credentials: CredentialView[];
  registeredAt: string;
  updatedAt: string;
}

/** What an operator asks for: the environments, and a client id and secret to import (else generated). */
export interface CredentialRequest {
  environments: GatewayEnvironment[];
  clientId?: string;
  clientSecret?: string;
}

const partyView = (p: Party): PartyView => ({
  partyId: p.partyId,
  name: p.name,
  kind: p.kind,
  interfaces: [...p.interfaces],
  ipAllowlist: [...p.ipAllowlist],
  rateLimits: [...p.rateLimits],
  credentials: p.credentials.map((c) => ({
    clientId: c.clientId,
    environments: [...c.environments],
    source: c.source,
    status: c.status,
    issuedAt: c.issuedAt,
    revokedAt: c.revokedAt,
  })),
  registeredAt: p.registeredAt,
  updatedAt: p.updatedAt,
});

export class GatewayPartyAdmin {
  private readonly parties;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      directory: GatewayDirectory;
      endpoints: EndpointCatalog;
    },
  ) {
    this.parties = gatewayAggregates(deps).party;
  }

  async register(context: CommandContext, partyId: string, definition: PartyDefinition): Promise<PartyView> {
    this.deps.endpoints.assertKnown(definition.rateLimits);
    const party = await this.run(context, partyId, (now) => ({ type: 'RegisterParty', partyId, definition, now }));
    this.deps.directory.forgetParty(partyId);
    return partyView(party);
  }

  async update(context: CommandContext, partyId: string, changes: PartyChanges): Promise<PartyView> {
    if (changes.rateLimits) this.deps.endpoints.assertKnown(changes.rateLimits);
    const party = await this.run(context, partyId, (now) => ({ type: 'UpdateParty', partyId, changes, now }));
    this.deps.directory.forgetParty(partyId);
    return partyView(party);
  }

  async issueCredential(
    context: CommandContext,
    partyId: string,
    request: CredentialRequest,
  ): Promise<IssuedCredentialView> {
    const clientSecret = request.clientSecret ?? generateClientSecret();
    const credential = {
      clientId: request.clientId ?? generateClientId(partyId),
      environments: request.environments,
      secretHash: secretHash(clientSecret),
      source: request.clientSecret === undefined ? ('GENERATED' as const) : ('IMPORTED' as const),
    };
    const party = await this.run(context, partyId, (now) => ({ type: 'IssueCredential', partyId, credential, now }));
    const issued = party.credentials.at(-1)!;
    return {
      clientId: issued.clientId,
      clientSecret,
      environments: [...issued.environments],
      source: issued.source,
      issuedAt: issued.issuedAt,
    };
  }

  /** Refused at once in this process, within the lookup cache's life elsewhere; revoking twice changes nothing. */
  async revokeCredential(context: CommandContext, partyId: string, clientId: string): Promise<CredentialView> {
    const party = await this.run(context, partyId, (now) => ({ type: 'RevokeCredential', partyId, clientId, now }));
    this.deps.directory.forgetClient(clientId);
    return partyView(party).credentials.find((c) => c.clientId === clientId)!;
  }

  /** The party and its credentials (never a secret or its hash), as its stream says. */
  async get(partyId: string): Promise<PartyView> {
    const state = await this.parties.state(partyId);
    if (state.status === 'NONE') throw gatewayError('PARTY_NOT_FOUND', `party ${partyId} does not exist`, { partyId });
    return partyView(state);
  }

  /**
   * The party after the command. A secret is shown once: an issue carried out before (a resend under its
   * idempotency key) cannot answer it again; the other commands answer a resend as the first time.
   */
  private async run(context: CommandContext, partyId: string, command: (now: string) => PartyCommand): Promise<Party> {
    const { state, events, replayed } = await this.parties.handle(context, partyId, command);
    const issued = replayed ? events.find((e) => e.type === 'GatewayCredentialIssued') : undefined;
    if (issued) {
      throw gatewayError(
        'CREDENTIAL_SHOWN_ONCE',
        `this request was carried out before: it issued client ${issued.data.clientId}, whose secret is shown only once; revoke it and issue another`,
        { partyId },
      );
    }
    if (state.status === 'NONE') throw new Error('a party command answered without a party');
    return state;
  }
}
