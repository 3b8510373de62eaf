import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { fixedClock } from '../../../application/shared/clock.js';
import { MerchantAdmin } from '../../../application/shop/merchant-admin.js';
import { DomainError } from '../../../domain/shared/errors.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { PostgresNumericIds } from '../../../infrastructure/shared/numeric-ids.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { asOperator } from '../../support/commands.js';

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  return expect.fail('expected a DomainError');
}

describe('MerchantAdmin (PostgreSQL event store)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let admin: MerchantAdmin;
  const clock = fixedClock('2026-03-01T10:00:00.000Z');

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex);
    admin = new MerchantAdmin({ store, ids: new PostgresNumericIds(db.knex), clock });
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  it('registers a merchant and returns its API key once; only the key hash and prefix are stored', async () => {
    const registered = await admin.register(asOperator('alice'), {
      merchantId: 'M0001',
      name: 'Coffee House',
      apiKeyExpiresAt: '2026-12-31T17:00:00.000Z',
    });

    expect(registered).to.deep.include({ merchantId: 'M0001', name: 'Coffee House' });
    expect(registered.apiKey.key).to.match(/^pk_live_[A-Za-z0-9_-]{43}$/);
    expect(registered.apiKey.prefix).to.equal(registered.apiKey.key.slice(0, 14));
    expect(registered.apiKey.expiresAt).to.equal('2026-12-31T17:00:00.000Z');

    const merchantEvents = await store.readStream('merchant-M0001');
    const hash = createHash('sha256').update(registered.apiKey.key).digest('hex');
    expect(merchantEvents.map((e) => e.type)).to.deep.equal(['MerchantRegistered', 'MerchantApiKeyIssued']);
    expect(merchantEvents[1]!.data).to.include({ keyHash: hash, prefix: registered.apiKey.prefix });
    const lookup = await store.readStream(`apiKey-${hash}`);
    expect(lookup.map((e) => [e.type, e.data])).to.deep.equal([
      [
        'ApiKeyClaimed',
        {
          merchantId: 'M0001',
          apiKeyId: registered.apiKey.id,
          expiresAt: '2026-12-31T17:00:00.000Z',
          claimedAt: '2026-03-01T10:00:00.000Z',
        },
      ],
    ]);
    const everything = JSON.stringify(await store.readAll(null, 1000));
    expect(everything).not.to.include(registered.apiKey.key);
    expect(everything).not.to.include(registered.apiKey.key.slice(14));
  });

  it('records the operator on every event it writes', async () => {
    const apiKey = await admin.issueApiKey(asOperator('bob'), 'M0001');
    await admin.revokeApiKey(asOperator('carol'), 'M0001', apiKey.id);
    const hash = createHash('sha256').update(apiKey.key).digest('hex');
    const written = [...(await store.readStream('merchant-M0001')), ...(await store.readStream(`apiKey-${hash}`))];
    expect(written.map((e) => [e.type, e.metadata.actor?.operator])).to.deep.equal([
      ['MerchantRegistered', 'alice'],
      ['MerchantApiKeyIssued', 'alice'],
      ['MerchantApiKeyIssued', 'bob'],
      ['MerchantApiKeyRevoked', 'carol'],
      ['ApiKeyClaimed', 'bob'],
      ['ApiKeyRevoked', 'carol'],
    ]);
  });

  it('lists the keys with status and expiry, never a key or its hash', async () => {
    const merchant = await admin.get('M0001');
    expect(merchant).to.deep.include({
      merchantId: 'M0001',
      name: 'Coffee House',
      registeredAt: '2026-03-01T10:00:00.000Z',
    });
    expect(merchant.apiKeys.map((k) => [k.status, k.expiresAt, k.revokedAt])).to.deep.equal([
      ['ACTIVE', '2026-12-31T17:00:00.000Z', null],
      ['REVOKED', null, '2026-03-01T10:00:00.000Z'],
    ]);
    expect(Object.keys(merchant.apiKeys[0]!).sort()).to.deep.equal([
      'expiresAt',
      'id',
      'issuedAt',
      'prefix',
      'revokedAt',
      'status',
    ]);
  });

  it('revoking a revoked key succeeds and writes nothing', async () => {
    const [, revoked] = (await admin.get('M0001')).apiKeys;
    const before = (await store.readStream('merchant-M0001')).length;
    expect(await admin.revokeApiKey(asOperator('carol'), 'M0001', revoked!.id)).to.deep.equal(revoked);
    expect(await store.readStream('merchant-M0001')).to.have.length(before);
  });

  it('refuses an unknown key with API_KEY_NOT_FOUND', async () => {
    expect((await refusal(admin.revokeApiKey(asOperator('carol'), 'M0001', 424242))).code).to.equal(
      'API_KEY_NOT_FOUND',
    );
  });

  it('refuses a second registration of the same merchant with MERCHANT_EXISTS', async () => {
    expect((await refusal(admin.register(asOperator('alice'), { merchantId: 'M0001', name: 'Again' }))).code).to.equal(
      'MERCHANT_EXISTS',
    );
  });

  it('lets exactly one of concurrent registrations of one merchant succeed', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        admin.register(asOperator('alice'), { merchantId: 'M0002', name: `Shop ${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    for (const o of outcomes)
      if (o.status === 'rejected')
        expect(o.reason).to.be.instanceOf(DomainError).with.property('code', 'MERCHANT_EXISTS');
    expect(await store.readStream('merchant-M0002')).to.have.length(2);
  });

  it('issues keys concurrently on one merchant without losing any (decides again on a version conflict)', async () => {
    const issued = await Promise.all([1, 2, 3].map(() => admin.issueApiKey(asOperator('bob'), 'M0002')));
    const listed = (await admin.get('M0002')).apiKeys.map((k) => k.id);
    expect(listed).to.include.members(issued.map((k) => k.id));
    expect(listed).to.have.length(4);
  });

  it('refuses keys for an unknown merchant with MERCHANT_NOT_FOUND', async () => {
    expect((await refusal(admin.issueApiKey(asOperator('bob'), 'M9999'))).code).to.equal('MERCHANT_NOT_FOUND');
    expect((await refusal(admin.get('M9999'))).code).to.equal('MERCHANT_NOT_FOUND');
  });

  // The form of operator input (merchantId, name, date-time formats) is the operator API's to check:
  // tests/unit/api/operator-schemas.test.ts. What stays here is the rule against the clock.
  it('refuses a key expiry that is not in the future with INVALID_INPUT naming the field, and writes nothing', async () => {
    const cases: [() => Promise<unknown>, string][] = [
      [
        () =>
          admin.register(asOperator('alice'), {
            merchantId: 'M0003',
            name: 'x',
            apiKeyExpiresAt: '2026-03-01T09:00:00.000Z',
          }),
        'apiKeyExpiresAt',
      ],
      [() => admin.issueApiKey(asOperator('bob'), 'M0001', { expiresAt: '2026-03-01T10:00:00.000Z' }), 'expiresAt'],
    ];
    for (const [command, field] of cases) {
      const e = await refusal(command());
      expect([e.code, e.details.field]).to.deep.equal(['INVALID_INPUT', field]);
    }
    expect(await store.readStream('merchant-M0003')).to.deep.equal([]);
  });
});
