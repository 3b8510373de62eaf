import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { ShopCredentials, type ShopCredentialHeaders } from '../../../application/shop/credentials.js';
import { MerchantAdmin } from '../../../application/shop/merchant-admin.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { PostgresNumericIds } from '../../../infrastructure/shared/numeric-ids.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { asOperator } from '../../support/commands.js';

// The gateway's client_id/client_secret are checked before (tests/integration/gateway); here the shop's own key.
describe('ShopCredentials (PostgreSQL event store)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let admin: MerchantAdmin;
  let credentials: ShopCredentials;
  let key: string;
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  const as = (merchantId: string, apiKey: string): ShopCredentialHeaders => ({ apiKey, merchantId });

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex);
    admin = new MerchantAdmin({ store, ids: new PostgresNumericIds(db.knex), clock });
    credentials = new ShopCredentials({ store, clock });
    key = (await admin.register(asOperator('alice'), { merchantId: 'M0001', name: 'Coffee House' })).apiKey.key;
    await admin.register(asOperator('alice'), { merchantId: 'M0002', name: 'Tea House' });
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  it('accepts the key returned at registration for its merchant', async () => {
    expect(await credentials.check(as('M0001', key))).to.deep.equal({ ok: true, merchantId: 'M0001' });
  });

  it('refuses a missing key or merchant id', async () => {
    expect(await credentials.check({ merchantId: 'M0001' })).to.deep.equal({
      ok: false,
      reason: 'API_KEY_MISSING',
    });
    expect(await credentials.check({ apiKey: key })).to.deep.equal({
      ok: false,
      reason: 'MERCHANT_ID_MISSING',
    });
  });

  it('refuses a key it never issued', async () => {
    const guessed = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect(await credentials.check(as('M0001', guessed))).to.deep.equal({ ok: false, reason: 'API_KEY_INVALID' });
    expect(await credentials.check(as('M0001', 'x'.repeat(5000)))).to.deep.equal({
      ok: false,
      reason: 'API_KEY_INVALID',
    });
  });

  it('refuses a valid key presented for another merchant with MERCHANT_MISMATCH', async () => {
    expect(await credentials.check(as('M0002', key))).to.deep.equal({ ok: false, reason: 'MERCHANT_MISMATCH' });
    expect(await credentials.check(as('m0001', key))).to.deep.equal({ ok: false, reason: 'MERCHANT_MISMATCH' });
  });

  it('refuses a revoked key at once in the same process, even right after it was accepted', async () => {
    const issued = await admin.issueApiKey(asOperator('bob'), 'M0001');
    expect(await credentials.check(as('M0001', issued.key))).to.deep.equal({ ok: true, merchantId: 'M0001' });
    await admin.revokeApiKey(asOperator('bob'), 'M0001', issued.id);
    expect(await credentials.check(as('M0001', issued.key))).to.deep.equal({ ok: false, reason: 'API_KEY_REVOKED' });
    expect(await credentials.check(as('M0001', key))).to.deep.equal({ ok: true, merchantId: 'M0001' });
  });

  it('sees a revocation made by another process once its cached lookup is 5 seconds old', async () => {
    const issued = await admin.issueApiKey(asOperator('bob'), 'M0001');
    expect(await credentials.check(as('M0001', issued.key))).to.deep.equal({ ok: true, merchantId: 'M0001' });

    const otherProcessStore = new PostgresEventStore(db.knex);
    await new MerchantAdmin({ store: otherProcessStore, ids: new PostgresNumericIds(db.knex), clock }).revokeApiKey(
      asOperator('bob'),
      'M0001',
      issued.id,
    );
    clock.advance(4999);
    expect(await credentials.check(as('M0001', issued.key))).to.deep.equal({ ok: true, merchantId: 'M0001' });
    clock.advance(1);
    expect(await credentials.check(as('M0001', issued.key))).to.deep.equal({ ok: false, reason: 'API_KEY_REVOKED' });
  });

  it('refuses a key from its expiry on, even while its lookup is cached', async () => {
    const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString();
    const issued = await admin.issueApiKey(asOperator('bob'), 'M0002', { expiresAt });
    expect(await credentials.check(as('M0002', issued.key))).to.deep.equal({ ok: true, merchantId: 'M0002' });
    clock.advance(59_999);
    expect(await credentials.check(as('M0002', issued.key))).to.deep.equal({ ok: true, merchantId: 'M0002' });
    clock.advance(1);
    expect(await credentials.check(as('M0002', issued.key))).to.deep.equal({ ok: false, reason: 'API_KEY_EXPIRED' });
  });
});
