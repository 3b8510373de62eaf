import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/app.js';
import { call, expectEnvelope, expectOk, operatorHeaders } from '../support.js';
import { createdBody, expectOrders, issueKey, merchantWithKey, sendWebhook } from './support.js';

/** Merchants' webhook keys through the operator API, and what the webhooks make of them (docs/orders-keys.md, "Merchant keys"). */
describe('Order view merchant keys (operator API, PostgreSQL)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ background: false });
  });
  after(() => app?.stop());

  it('issues ak_test_ + 32 characters and a secretKey once; stores only the digest and the encrypted secret', async () => {
    const keys = await merchantWithKey(app, 'P_KEYS_1');
    expect(keys.apiKey).to.match(/^ak_test_[A-Za-z0-9]{32}$/);
    expect(keys.secretKey).to.match(/^[A-Za-z0-9]{48}$/);
    const merchant = expectOk(
      await call<{ keys: Record<string, unknown>[] }>(app.baseUrl, 'GET', '/operator/v1/order-merchants/P_KEYS_1', {
        headers: operatorHeaders(),
      }),
    );
    expect(merchant.keys).to.have.length(1);
    expect(merchant.keys[0]).to.include({ status: 'ACTIVE', environment: 'test' });
    expect(JSON.stringify(merchant)).not.to.include(keys.apiKey.slice(12)).and.not.to.include(keys.secretKey);
    // The log holds neither secret in clear, and names the operator as the actor.
    const events = await app.container.store.readStream('orderMerchant-P_KEYS_1');
    expect(JSON.stringify(events)).not.to.include(keys.apiKey).and.not.to.include(keys.secretKey);
    expect(events.map((e) => e.metadata.actor)).to.deep.equal([{ operator: 'alice' }, { operator: 'alice' }]);
    const issued = events[1]!.data as { secretCiphertext: string };
    expect(issued.secretCiphertext).to.match(/^k1\.[0-9a-f]{8}\./);
  });

  it('refuses a second active key of an environment, a resend of an issue, and an unknown merchant', async () => {
    await merchantWithKey(app, 'P_KEYS_2');
    const again = await call(app.baseUrl, 'POST', '/operator/v1/order-merchants/P_KEYS_2/keys', {
      headers: operatorHeaders(),
      json: { environment: 'test' },
    });
    expectEnvelope(again, 409, 'OPS-CONFLICT');
    expect(again.body!.message).to.match(/rotate/);
    const key = randomUUID();
    const issue = () =>
      call(app.baseUrl, 'POST', '/operator/v1/order-merchants/P_KEYS_2/keys', {
        headers: { ...operatorHeaders(), 'X-Idempotency-Key': key },
        json: { environment: 'live' },
      });
    expectOk(await issue(), 201);
    expect(expectEnvelope(await issue(), 409, 'OPS-CONFLICT')).to.equal(null);
    expectEnvelope(
      await call(app.baseUrl, 'POST', '/operator/v1/order-merchants/NOPE/keys', {
        headers: operatorHeaders(),
        json: { environment: 'test' },
      }),
      404,
      'OPS-NOT-FOUND',
    );
    const bad = await call(app.baseUrl, 'POST', '/operator/v1/order-merchants/P_KEYS_2/keys', {
      headers: operatorHeaders(),
      json: { environment: 'prod' },
    });
    expect(expectEnvelope(bad, 400, 'OPS-REQ-001')).to.deep.equal({ field: 'environment' });
  });

  it('rotation: both keys sign during the overlap; with no overlap the old one is refused at once', async () => {
    const old = await merchantWithKey(app, 'P_ROT');
    const rotate = (keyId: number, json: unknown) =>
      call<{ key_id: number; api_key: string; secret_key: string; rotated_from: number }>(
        app.baseUrl,
        'POST',
        `/operator/v1/order-merchants/P_ROT/keys/${keyId}/rotate`,
        { headers: operatorHeaders(), json },
      );
    const next = expectOk(await rotate(old.keyId, { overlap_hours: 1 }), 201);
    expect(next.rotated_from).to.equal(old.keyId);
    const fresh = { merchantId: 'P_ROT', keyId: next.key_id, apiKey: next.api_key, secretKey: next.secret_key };
    expectOrders(await sendWebhook(app, 'created', createdBody('rot-1'), { keys: old }), 200, 0);
    expectOrders(await sendWebhook(app, 'created', createdBody('rot-2'), { keys: fresh }), 200, 0);
    // The old key is RETIRING: rotating it again is refused.
    expectEnvelope(await rotate(old.keyId, {}), 409, 'OPS-CONFLICT');

    const third = expectOk(await rotate(fresh.keyId, { overlap_hours: 0 }), 201);
    expect(third.rotated_from).to.equal(fresh.keyId);
    expectOrders(await sendWebhook(app, 'created', createdBody('rot-3'), { keys: fresh }), 401, 4012);
  });

  it('a revoked key is refused at once; revoking again changes nothing', async () => {
    const keys = await issueKey(app, 'P_KEYS_1', 'live').catch(() => null);
    expect(keys).not.to.equal(null);
    const mine = await merchantWithKey(app, 'P_REV');
    const revoke = () =>
      call(app.baseUrl, 'POST', `/operator/v1/order-merchants/P_REV/keys/${mine.keyId}/revoke`, {
        headers: operatorHeaders(),
      });
    expect(expectOk(await revoke())).to.include({ status: 'REVOKED' });
    expect(expectOk(await revoke())).to.include({ status: 'REVOKED' });
    expect((await app.container.store.readStream('orderMerchant-P_REV')).map((e) => e.type)).to.deep.equal([
      'OrderMerchantRegistered',
      'OrderKeyIssued',
      'OrderKeyRevoked',
    ]);
    expectOrders(await sendWebhook(app, 'created', createdBody('rev-1'), { keys: mine }), 401, 4012, /revoked/);
  });

  it('a live key on a test deployment is refused as of another environment', async () => {
    await merchantWithKey(app, 'P_LIVE', 'live').then(async (live) =>
      expectOrders(await sendWebhook(app, 'created', createdBody('live-1'), { keys: live }), 401, 4013),
    );
  });
});
