import { expect } from 'chai';
import type { GatewayPartyEvent } from '../../../../domain/gateway/events.js';
import {
  clientEventFor,
  partyDecider,
  type NewCredential,
  type PartyCommand,
  type PartyDefinition,
} from '../../../../domain/gateway/party.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(partyDecider);
const at = '2026-03-01T03:00:00.000Z';
const later = '2026-03-01T04:00:00.000Z';

const internal: PartyDefinition = {
  name: 'Order backend',
  kind: 'INTERNAL',
  interfaces: ['shop', 'checkout'],
  ipAllowlist: [],
  rateLimits: [],
};
const external: PartyDefinition = {
  name: 'Partner',
  kind: 'EXTERNAL',
  interfaces: ['payments'],
  ipAllowlist: ['203.0.113.0/24'],
  rateLimits: [{ interface: 'payments', endpoint: 'POST /transactions', points: 10, windowSeconds: 1 }],
};

const registered = (partyId: string, d: PartyDefinition): GatewayPartyEvent => ({
  type: 'GatewayPartyRegistered',
  data: {
    partyId,
    ...d,
    interfaces: [...d.interfaces],
    ipAllowlist: [...d.ipAllowlist],
    rateLimits: [...d.rateLimits],
    registeredAt: at,
  },
});
const credential = (clientId: string, environments: NewCredential['environments']): NewCredential => ({
  clientId,
  environments,
  secretHash: `hash-of-${clientId}`,
  source: 'GENERATED',
});
const issuedEvent = (partyId: string, c: NewCredential, issuedAt = later): GatewayPartyEvent => ({
  type: 'GatewayCredentialIssued',
  data: {
    partyId,
    clientId: c.clientId,
    environments: [...c.environments],
    secretHash: c.secretHash,
    source: c.source,
    issuedAt,
  },
});
const revokedEvent = (partyId: string, clientId: string): GatewayPartyEvent => ({
  type: 'GatewayCredentialRevoked',
  data: { partyId, clientId, revokedAt: later },
});

const register = (partyId: string, definition: PartyDefinition): PartyCommand => ({
  type: 'RegisterParty',
  partyId,
  definition,
  now: at,
});
const issue = (partyId: string, c: NewCredential): PartyCommand => ({
  type: 'IssueCredential',
  partyId,
  credential: c,
  now: later,
});

describe('gateway party decider', () => {
  describe('registering', () => {
    it('given no party, when an INTERNAL party without allowlist is registered, then it is', () => {
      given([])
        .when(register('orders', internal))
        .then([registered('orders', internal)]);
    });

    it('given no party, when an EXTERNAL party with an allowlist is registered, then it is', () => {
      given([])
        .when(register('partner', external))
        .then([registered('partner', external)]);
    });

    it('refuses an EXTERNAL party without an IP allowlist, naming ipAllowlist', () => {
      given([])
        .when(register('partner', { ...external, ipAllowlist: [] }))
        .thenRejects('INVALID_PARTY', { field: 'ipAllowlist' });
    });

    it('refuses two limits for the same endpoint of the same interface, naming the second', () => {
      const limit = { interface: 'shop' as const, endpoint: '*', points: 5, windowSeconds: 1 };
      given([])
        .when(register('orders', { ...internal, rateLimits: [limit, { ...limit, points: 6 }] }))
        .thenRejects('INVALID_PARTY', { field: 'rateLimits[1]' });
    });

    it('refuses a party id taken', () => {
      given([registered('orders', internal)])
        .when(register('orders', internal))
        .thenRejects('PARTY_EXISTS');
    });
  });

  describe('updating', () => {
    it('records only what changed', () => {
      given([registered('orders', internal)])
        .when({
          type: 'UpdateParty',
          partyId: 'orders',
          changes: { name: internal.name, interfaces: ['shop'] },
          now: later,
        })
        .then([{ type: 'GatewayPartyUpdated', data: { partyId: 'orders', interfaces: ['shop'], updatedAt: later } }]);
    });

    it('appends nothing for an update that changes nothing', () => {
      given([registered('orders', internal)])
        .when({ type: 'UpdateParty', partyId: 'orders', changes: { ipAllowlist: [] }, now: later })
        .then([]);
    });

    it('refuses emptying an EXTERNAL party’s allowlist', () => {
      given([registered('partner', external)])
        .when({ type: 'UpdateParty', partyId: 'partner', changes: { ipAllowlist: [] }, now: later })
        .thenRejects('INVALID_PARTY', { field: 'ipAllowlist' });
    });

    it('refuses an unknown party', () => {
      given([])
        .when({ type: 'UpdateParty', partyId: 'ghost', changes: { name: 'x' }, now: later })
        .thenRejects('PARTY_NOT_FOUND');
    });
  });

  describe('issuing credentials', () => {
    it('issues one pair for dev, sit and uat together', () => {
      const c = credential('orders-nonprod', ['dev', 'sit', 'uat']);
      given([registered('orders', internal)])
        .when(issue('orders', c))
        .then([issuedEvent('orders', c)]);
    });

    it('issues a prod pair for prod alone', () => {
      const c = credential('orders-prod', ['prod']);
      given([registered('orders', internal)])
        .when(issue('orders', c))
        .then([issuedEvent('orders', c)]);
    });

    it('refuses a pair for prod and another environment', () => {
      given([registered('orders', internal)])
        .when(issue('orders', credential('orders-mixed', ['uat', 'prod'])))
        .thenRejects('INVALID_PARTY', { field: 'environments' });
    });

    it('refuses dev or sit for an EXTERNAL party; uat and prod are its environments', () => {
      for (const env of ['dev', 'sit'] as const)
        given([registered('partner', external)])
          .when(issue('partner', credential('partner-x', [env])))
          .thenRejects('INVALID_PARTY', { field: 'environments' });
      const uat = credential('partner-uat', ['uat']);
      given([registered('partner', external)])
        .when(issue('partner', uat))
        .then([issuedEvent('partner', uat)]);
    });

    it('refuses a third active prod pair (one in use, one while rotating), and takes one once the old is revoked', () => {
      const history = [
        registered('orders', internal),
        issuedEvent('orders', credential('p1', ['prod'])),
        issuedEvent('orders', credential('p2', ['prod'])),
      ];
      given(history)
        .when(issue('orders', credential('p3', ['prod'])))
        .thenRejects('INVALID_PARTY', { field: 'environments' });
      const p3 = credential('p3', ['prod']);
      given([...history, revokedEvent('orders', 'p1')])
        .when(issue('orders', p3))
        .then([issuedEvent('orders', p3)]);
    });

    it('refuses a client id the party already holds, even revoked', () => {
      given([
        registered('orders', internal),
        issuedEvent('orders', credential('c1', ['dev'])),
        revokedEvent('orders', 'c1'),
      ])
        .when(issue('orders', credential('c1', ['dev'])))
        .thenRejects('CLIENT_ID_TAKEN');
    });

    it('refuses a credential for an unknown party', () => {
      given([])
        .when(issue('ghost', credential('c1', ['dev'])))
        .thenRejects('PARTY_NOT_FOUND');
    });
  });

  describe('revoking credentials', () => {
    const history = [registered('orders', internal), issuedEvent('orders', credential('c1', ['dev']))];

    it('revokes an active credential', () => {
      given(history)
        .when({ type: 'RevokeCredential', partyId: 'orders', clientId: 'c1', now: later })
        .then([revokedEvent('orders', 'c1')]);
    });

    it('changes nothing when revoked twice', () => {
      given([...history, revokedEvent('orders', 'c1')])
        .when({ type: 'RevokeCredential', partyId: 'orders', clientId: 'c1', now: later })
        .then([]);
    });

    it('refuses a client id the party does not hold', () => {
      given(history)
        .when({ type: 'RevokeCredential', partyId: 'orders', clientId: 'c2', now: later })
        .thenRejects('CREDENTIAL_NOT_FOUND');
    });
  });

  it('names the client-id guard event each credential event writes', () => {
    const issued = issuedEvent('orders', credential('c1', ['dev']));
    expect(clientEventFor(issued)).to.deep.equal({
      type: 'GatewayClientClaimed',
      data: { partyId: 'orders', clientId: 'c1', environments: ['dev'], secretHash: 'hash-of-c1', claimedAt: later },
    });
    expect(clientEventFor(revokedEvent('orders', 'c1'))).to.deep.equal({
      type: 'GatewayClientRevoked',
      data: { partyId: 'orders', clientId: 'c1', revokedAt: later },
    });
    expect(clientEventFor(registered('orders', internal))).to.equal(null);
  });
});
