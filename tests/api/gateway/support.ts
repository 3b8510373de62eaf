/**
 * Helpers for the gateway's HTTP tests: its operator routes as alice, and a probe of the shop interface that needs no
 * merchant (a path the shop has no endpoint for: 404 SHOP-REQ-404 once the gateway let it through).
 */
import { call, expectOk, OperatorApi, unique, type HeaderSet, type HttpResult } from '../support.js';

export interface PartyData {
  partyId: string;
  name: string;
  kind: 'INTERNAL' | 'EXTERNAL';
  interfaces: string[];
  ipAllowlist: string[];
  rateLimits: { interface: string; endpoint: string; points: number; windowSeconds: number }[];
  credentials: {
    clientId: string;
    environments: string[];
    source: 'GENERATED' | 'IMPORTED';
    status: 'ACTIVE' | 'REVOKED';
    issuedAt: string;
    revokedAt: string | null;
  }[];
  registeredAt: string;
  updatedAt: string;
}

export interface IssuedData {
  clientId: string;
  clientSecret: string;
  environments: string[];
  source: 'GENERATED' | 'IMPORTED';
  issuedAt: string;
}

export class GatewayOperator {
  readonly operator: OperatorApi;

  constructor(readonly baseUrl: string) {
    this.operator = new OperatorApi(baseUrl);
  }

  createParty(body: Record<string, unknown>): Promise<HttpResult<PartyData>> {
    return this.operator.call<PartyData>('POST', '/gateway/parties', { json: body });
  }

  /** A party (INTERNAL, granted the shop unless `overrides` say otherwise) with one credential for `environments`. */
  async partyWithClient(
    overrides: Record<string, unknown> = {},
    environments = ['dev'],
  ): Promise<{ party: PartyData; client: IssuedData; headers: HeaderSet }> {
    const party = expectOk(
      await this.createParty({
        partyId: unique('p-'),
        name: 'Party',
        kind: 'INTERNAL',
        interfaces: ['shop'],
        ...overrides,
      }),
      201,
    );
    const client = expectOk(await this.issue(party.partyId, { environments }), 201);
    return { party, client, headers: { client_id: client.clientId, client_secret: client.clientSecret } };
  }

  issue(partyId: string, body: Record<string, unknown>, headers: HeaderSet = {}): Promise<HttpResult<IssuedData>> {
    return this.operator.call<IssuedData>('POST', `/gateway/parties/${partyId}/credentials`, { json: body, headers });
  }

  get(partyId: string): Promise<HttpResult<PartyData>> {
    return this.operator.call<PartyData>('GET', `/gateway/parties/${partyId}`);
  }

  update(partyId: string, body: Record<string, unknown>): Promise<HttpResult<PartyData>> {
    return this.operator.call<PartyData>('PATCH', `/gateway/parties/${partyId}`, { json: body });
  }

  revoke(partyId: string, clientId: string): Promise<HttpResult<PartyData['credentials'][number]>> {
    return this.operator.call('POST', `/gateway/parties/${partyId}/credentials/${clientId}/revoke`);
  }
}

/** A shop call that needs only the gateway's credentials: 404 SHOP-REQ-404 once through. */
export const shopProbe = (baseUrl: string, headers: HeaderSet) =>
  call(baseUrl, 'GET', '/api/v1/gateway-probe', { headers: { connection: 'close', ...headers } });
