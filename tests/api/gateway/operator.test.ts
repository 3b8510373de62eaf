import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { expectEnvelope, expectOk, expectRefusal, isoInstant, unique } from '../support.js';
import { GatewayOperator, shopProbe } from './support.js';

describe('Gateway operator API over HTTP: parties and credentials', () => {
  let app: TestApp;
  let gateway: GatewayOperator;

  before(async () => {
    app = await startTestApp({ background: false });
    gateway = new GatewayOperator(app.baseUrl);
  });
  after(() => app?.stop());

  const invalid = (res: Parameters<typeof expectEnvelope>[0], field: string) =>
    expect(expectEnvelope(res, 400, 'OPS-REQ-001')).to.deep.equal({ field });

  it('registers a party, answers it with its limits, and refuses its id a second time', async () => {
    const partyId = unique('orders-');
    const body = {
      partyId,
      name: '  Order backend  ',
      kind: 'INTERNAL',
      interfaces: ['shop', 'checkout'],
      rateLimits: [{ interface: 'shop', endpoint: 'POST /vouchers/reserve', points: 50, windowSeconds: 1 }],
    };
    const party = expectOk(await gateway.createParty(body), 201);
    expect(party).to.deep.include({
      partyId,
      name: 'Order backend',
      kind: 'INTERNAL',
      interfaces: ['shop', 'checkout'],
      ipAllowlist: [],
      rateLimits: body.rateLimits,
      credentials: [],
    });
    expect(party.registeredAt).to.match(isoInstant);
    expect(expectOk(await gateway.get(partyId))).to.deep.equal(party);
    expectRefusal(await gateway.createParty(body), 409, 'OPS-CONFLICT', /already exists/);
  });

  it('refuses malformed parties naming the field', async () => {
    const base = { partyId: unique('p-'), name: 'P', kind: 'INTERNAL', interfaces: ['shop'] };
    invalid(await gateway.createParty({ ...base, partyId: 'Bad_Id' }), 'partyId');
    invalid(await gateway.createParty({ ...base, interfaces: ['shop', 'warehouse'] }), 'interfaces[1]');
    invalid(await gateway.createParty({ ...base, interfaces: ['shop', 'shop'] }), 'interfaces[1]');
    invalid(await gateway.createParty({ ...base, ipAllowlist: ['10.0.0.0/33'] }), 'ipAllowlist[0]');
    invalid(await gateway.createParty({ ...base, ipAllowlist: ['not-an-ip'] }), 'ipAllowlist[0]');
    invalid(await gateway.createParty({ ...base, kind: 'EXTERNAL' }), 'ipAllowlist');
    invalid(await gateway.createParty({ ...base, kind: 'PARTNER' }), 'kind');
    invalid(await gateway.createParty({ ...base, extra: 1 }), 'extra');
    const limit = { interface: 'shop', endpoint: 'POST /vouchers/reserve', points: 5, windowSeconds: 1 };
    invalid(await gateway.createParty({ ...base, rateLimits: [{ ...limit, points: 0 }] }), 'rateLimits[0].points');
    invalid(
      await gateway.createParty({ ...base, rateLimits: [{ ...limit, endpoint: 'POST /vouchers/reserv' }] }),
      'rateLimits[0].endpoint',
    );
    invalid(
      await gateway.createParty({ ...base, rateLimits: [{ ...limit, endpoint: 'reserve' }] }),
      'rateLimits[0].endpoint',
    );
    invalid(await gateway.createParty({ ...base, rateLimits: [limit, limit] }), 'rateLimits[1]');
    expectRefusal(await gateway.get(base.partyId), 404, 'OPS-NOT-FOUND');
    invalid(await gateway.get('BAD'), 'partyId');
  });

  it('issues a generated credential whose secret is shown once: GET lists it without secret or hash', async () => {
    const { party, client } = await gateway.partyWithClient({}, ['dev', 'sit', 'uat']);
    expect(client.clientSecret).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(client).to.include({ source: 'GENERATED' });
    expect(client.environments).to.deep.equal(['dev', 'sit', 'uat']);
    const listed = await gateway.get(party.partyId);
    expect(expectOk(listed).credentials).to.deep.equal([
      {
        clientId: client.clientId,
        environments: ['dev', 'sit', 'uat'],
        source: 'GENERATED',
        status: 'ACTIVE',
        issuedAt: client.issuedAt,
        revokedAt: null,
      },
    ]);
    expect(listed.text).not.to.include(client.clientSecret);
    expect(listed.text).not.to.match(/[0-9a-f]{64}/);
  });

  it('imports a pair the real gateway issued, refusing a short secret and a client id another party holds', async () => {
    const { party, client } = await gateway.partyWithClient();
    const other = expectOk(
      await gateway.createParty({ partyId: unique('p-'), name: 'Other', kind: 'INTERNAL', interfaces: ['shop'] }),
      201,
    );
    const clientId = unique('imported-');
    invalid(
      await gateway.issue(party.partyId, { environments: ['dev'], clientId, clientSecret: 'short' }),
      'clientSecret',
    );
    invalid(await gateway.issue(party.partyId, { environments: ['dev'], clientSecret: 's'.repeat(40) }), 'clientId');
    const secret = 'Imported-Secret-0123456789-0123456789';
    const imported = expectOk(
      await gateway.issue(party.partyId, { environments: ['dev'], clientId, clientSecret: secret }),
      201,
    );
    expect(imported).to.include({ clientId, clientSecret: secret, source: 'IMPORTED' });
    expectRefusal(await shopProbe(app.baseUrl, { client_id: clientId, client_secret: secret }), 404, 'SHOP-REQ-404');
    const taken = await gateway.issue(other.partyId, {
      environments: ['dev'],
      clientId: client.clientId,
      clientSecret: secret,
    });
    expect(expectEnvelope(taken, 409, 'OPS-CONFLICT')).to.deep.equal({ field: 'clientId' });
    expect(taken.body!.message).to.match(/taken/);
  });

  it('refuses a resend of an issue under its idempotency key: the secret was shown once', async () => {
    const { party } = await gateway.partyWithClient();
    const key = randomUUID();
    expectOk(await gateway.issue(party.partyId, { environments: ['sit'] }, { 'X-Idempotency-Key': key }), 201);
    const resend = await gateway.issue(party.partyId, { environments: ['sit'] }, { 'X-Idempotency-Key': key });
    expectRefusal(resend, 409, 'OPS-CONFLICT', /shown only once/);
    expect(expectOk(await gateway.get(party.partyId)).credentials).to.have.length(2);
  });

  it('refuses credentials against the environment rules', async () => {
    const { party } = await gateway.partyWithClient();
    invalid(await gateway.issue(party.partyId, { environments: ['uat', 'prod'] }), 'environments');
    invalid(await gateway.issue(party.partyId, { environments: [] }), 'environments');
    invalid(await gateway.issue(party.partyId, { environments: ['staging'] }), 'environments[0]');
    const external = expectOk(
      await gateway.createParty({
        partyId: unique('partner-'),
        name: 'Partner',
        kind: 'EXTERNAL',
        interfaces: ['payments'],
        ipAllowlist: ['203.0.113.7'],
      }),
      201,
    );
    invalid(await gateway.issue(external.partyId, { environments: ['dev'] }), 'environments');
    expectOk(await gateway.issue(external.partyId, { environments: ['uat'] }), 201);
    expectRefusal(await gateway.issue(unique('ghost-'), { environments: ['dev'] }), 404, 'OPS-NOT-FOUND');
  });

  it('revokes a credential: refused by the gateway at once, and revoking again changes nothing', async () => {
    const { party, client, headers } = await gateway.partyWithClient();
    expectRefusal(await shopProbe(app.baseUrl, headers), 404, 'SHOP-REQ-404');
    const revoked = expectOk(await gateway.revoke(party.partyId, client.clientId));
    expect(revoked).to.include({ clientId: client.clientId, status: 'REVOKED' });
    expect(revoked.revokedAt).to.match(isoInstant);
    expectRefusal(await shopProbe(app.baseUrl, headers), 401, 'SHOP-AUTH-001', /revoked/);
    expect(expectOk(await gateway.revoke(party.partyId, client.clientId))).to.deep.equal(revoked);
    expectRefusal(await gateway.revoke(party.partyId, 'no-such-client'), 404, 'OPS-NOT-FOUND');
  });

  it('updates grants, allowlist and limits, applied by the gateway at once', async () => {
    const { party, headers } = await gateway.partyWithClient();
    const updated = expectOk(await gateway.update(party.partyId, { interfaces: ['checkout'], name: 'Renamed' }));
    expect(updated).to.include({ name: 'Renamed' });
    expect(updated.interfaces).to.deep.equal(['checkout']);
    expectRefusal(await shopProbe(app.baseUrl, headers), 403, 'SHOP-AUTH-006', /not granted/);
    expectOk(await gateway.update(party.partyId, { interfaces: ['shop'], ipAllowlist: ['198.51.100.0/24'] }));
    expectRefusal(await shopProbe(app.baseUrl, headers), 403, 'SHOP-AUTH-007', /allowlist/);
    expectOk(await gateway.update(party.partyId, { ipAllowlist: ['127.0.0.1', '::1'] }));
    expectRefusal(await shopProbe(app.baseUrl, headers), 404, 'SHOP-REQ-404');
    invalid(await gateway.update(party.partyId, {}), '');
    invalid(await gateway.update(party.partyId, { kind: 'EXTERNAL' }), 'kind');
    expectRefusal(await gateway.update(unique('ghost-'), { name: 'x' }), 404, 'OPS-NOT-FOUND');
  });
});
