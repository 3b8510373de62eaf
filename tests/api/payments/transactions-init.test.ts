import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { newCommandContext } from '../../../application/shared/command-context.js';
import { useHubScene, type InitData } from './hub-scene.js';
import {
  cardProviderId,
  expectHubError,
  expectHubOk,
  hub,
  hubHeaders,
  initBody,
  sign,
  walletProviderId,
} from './support.js';

/** Init payment and signed requests over HTTP on PostgreSQL (docs/payments.md, docs/payments-signing.md). */
describe('Payment hub init and signed requests (HTTP, PostgreSQL)', () => {
  const s = useHubScene();
  const { clock, key, ts, init, held, signedById } = s;

  describe('init payment (POST /transactions)', () => {
    it('creates a transaction the provider took (PROCESSING) and answers every field of the seed', async () => {
      const data = expectHubOk(
        await init(
          s.m1,
          'ORD-1',
          { returnURL: 'https://shop-one.example/orders/ORD-1/REF-ORD-1' },
          { 'X-External-User-ID': 'ext-42', 'X-MiniApp-Id': 'mini-7', 'X-Auth-Audience': 'HOSTAPP_IOS' },
        ),
      ) as InitData;
      expect(data.transaction).to.deep.equal({
        id: data.transaction.id,
        referenceId: 'REF-ORD-1',
        orderId: 'ORD-1',
        amount: 150000,
        currency: 'VND',
        status: 'PROCESSING',
        description: 'Order ORD-1',
        cardType: '3D',
        skipHolding: false,
        expiresAt: '2026-03-01T14:00:00.000Z',
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-01T10:00:00.000Z',
      });
      const id = data.transaction.id;
      expect(data.paymentInfo).to.deep.equal({
        requiresRedirect: true,
        redirectUrl: data.paymentInfo.redirectUrl,
        providerCode: 'SANDBOX_WALLET',
        providerId: walletProviderId,
        providerTransaction: `SBX-${id}`,
        amount: 150000,
      });
      expect(data.paymentInfo.redirectUrl).to.match(
        new RegExp(`^http://localhost:3000/sandbox/payments/${id}\\?token=[0-9a-f]{32}$`),
      );
      const stored = await s.app.container.services.payments.transactions.load(data.transaction.id);
      expect(stored.payer).to.deep.equal({ kind: 'EXTERNAL_USER', externalUserId: 'ext-42' });
      expect(stored).to.deep.include({ miniAppId: 'mini-7', authAudience: 'HOSTAPP_IOS' });
      expect(stored.returnUrl).to.equal('https://shop-one.example/orders/ORD-1/REF-ORD-1');
    });

    it('signs and stores a float amount as its integer part; skipHolding true captures (signed when present)', async () => {
      const body = initBody(s.m1.secretKey, 'ORD-F', { amount: 99999.99, skipHolding: true });
      body.secureHash = sign(s.m1.secretKey, 'ORD-F|REF-ORD-F|99999|VND|1772359200000|true');
      const data = expectHubOk(
        await hub(s.app.baseUrl, 'POST', '/transactions', hubHeaders(key(s.m1), ts()), body),
      ) as InitData;
      expect(data.transaction).to.include({ amount: 99999, skipHolding: true });
    });

    it('refuses an orderId used before with 409 4091, whatever the referenceId', async () => {
      expectHubOk(await init(s.m1, 'ORD-DUP'));
      expectHubError(await init(s.m1, 'ORD-DUP'), 409, 4091);
      // Another merchant has its own order ids.
      expectHubOk(await init(s.m2, 'ORD-DUP'));
    });

    it("refuses a wrong secureHash (401 4102), also one signed with another merchant's secretKey", async () => {
      const body = { ...initBody(s.m1.secretKey, 'ORD-H'), amount: 150001 }; // signed over 150000
      expectHubError(await hub(s.app.baseUrl, 'POST', '/transactions', hubHeaders(key(s.m1), ts()), body), 401, 4102);
      const foreign = initBody(s.m2.secretKey, 'ORD-H');
      expectHubError(
        await hub(s.app.baseUrl, 'POST', '/transactions', hubHeaders(key(s.m1), ts()), foreign),
        401,
        4102,
      );
    });

    it("answers the gateway's refusals and an unknown path in the hub's envelope (4105, 4004)", async () => {
      expectHubError(await init(s.m1, 'ORD-G', {}, { client_id: undefined }), 401, 4105);
      expectHubError(await init(s.m1, 'ORD-G', {}, { client_secret: 'wrong-secret-0123456789' }), 401, 4105);
      expectHubError(await hub(s.app.baseUrl, 'GET', '/transactions/nothing', hubHeaders(key(s.m1), ts())), 404, 4004);
    });

    it('refuses missing or unusable keys (4101, 4100) and bad input with 4001 naming the field', async () => {
      expectHubError(await init(s.m1, 'ORD-K', {}, { 'X-Payment-API-Key': undefined }), 401, 4101);
      expectHubError(await init(s.m1, 'ORD-K', {}, { 'X-Payment-API-Key': 'phk_not-a-key' }), 401, 4100);
      expect(expectHubError(await init(s.m1, 'ORD-K', { currency: 'dong' }), 400, 4001)).to.match(/currency/);
      expect(expectHubError(await init(s.m1, 'ORD-K', { paymentMethodCode: null }), 400, 4001)).to.match(
        /paymentMethodCode/,
      );
      expect(expectHubError(await init(s.m1, 'ORD-K', { amount: 500 }), 400, 4001)).to.match(
        /^amount: must be from 1000/,
      );
      expect(expectHubError(await init(s.m1, 'ORD-K', { providerId: cardProviderId }), 400, 4001)).to.match(
        /providerId/,
      );
      expect(expectHubError(await init(s.m1, 'ORD-K', {}, { 'X-Request-ID': undefined }), 400, 4001)).to.match(
        /X-Request-ID/,
      );
      expect(expectHubError(await init(s.m1, 'ORD-K', {}, { 'X-Timestamp': 'yesterday' }), 400, 4001)).to.match(
        /X-Timestamp/,
      );
      expect(expectHubError(await init(s.m1, 'ORD-K', {}, { 'X-Auth-Audience': 'two words' }), 400, 4001)).to.match(
        /X-Auth-Audience/,
      );
      const raw = await fetch(`${s.app.baseUrl}/api/payments/v1/transactions`, {
        method: 'POST',
        headers: { ...(hubHeaders(key(s.m1), ts()) as Record<string, string>), 'Content-Type': 'application/json' },
        body: '{"amount": ',
      });
      expectHubError({ status: raw.status, text: await raw.clone().text(), body: await raw.json() }, 400, 4001);
    });

    it('refuses skipHolding false where the provider cannot hold (4001)', async () => {
      const body = initBody(s.m1.secretKey, 'ORD-C', {
        paymentMethodCode: 'CREDIT_CARD',
        providerId: cardProviderId,
        skipHolding: false,
      });
      body.secureHash = sign(s.m1.secretKey, 'ORD-C|REF-ORD-C|150000|VND|1772359200000|false');
      const message = expectHubError(
        await hub(s.app.baseUrl, 'POST', '/transactions', hubHeaders(key(s.m1), ts()), body),
        400,
        4001,
      );
      expect(message).to.match(/cannot hold/);
    });

    it('enriches X-MiniApp-User-ID from the identity directory, 404 4302 for an unknown user', async () => {
      await s.app.container.services.identity.users.register(
        newCommandContext({ actor: { operator: 'tests' } }),
        'u-100',
        {
          name: 'Tran Thi B',
        } as never,
      );
      const data = expectHubOk(await init(s.m1, 'ORD-U', {}, { 'X-MiniApp-User-ID': 'u-100' })) as InitData;
      const stored = await s.app.container.services.payments.transactions.load(data.transaction.id);
      expect(stored.payer).to.deep.equal({ kind: 'MINIAPP_USER', userId: 'u-100', name: 'Tran Thi B' });
      expectHubError(await init(s.m1, 'ORD-U2', {}, { 'X-MiniApp-User-ID': 'nobody' }), 404, 4302);
    });
  });

  describe('replays and duplicates', () => {
    it('an identical resend under one X-Request-ID replays the original answer and appends nothing', async () => {
      const requestId = randomUUID();
      const body = initBody(s.m1.secretKey, 'ORD-R');
      const first = await hub(s.app.baseUrl, 'POST', '/transactions', hubHeaders(key(s.m1), ts(), requestId), body);
      clock.advance(5000);
      const again = await hub(s.app.baseUrl, 'POST', '/transactions', hubHeaders(key(s.m1), ts(), requestId), body);
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      // A different body under the used id is refused.
      const other = initBody(s.m1.secretKey, 'ORD-R2');
      expectHubError(
        await hub(s.app.baseUrl, 'POST', '/transactions', hubHeaders(key(s.m1), ts(), requestId), other),
        409,
        4093,
      );
    });

    it('a captured signed request replayed after the window is refused with 401 4103', async () => {
      const id = await held('ORD-W');
      const captured = { headers: hubHeaders(key(s.m1), ts()), body: signedById(s.m1, id) };
      clock.advance(301_000);
      expectHubError(
        await hub(s.app.baseUrl, 'PUT', '/transactions/confirm', captured.headers, captured.body),
        401,
        4103,
      );
      // A timestamp from the future beyond the window too.
      const ahead = String(Number(ts()) + 400);
      const body = { transactionId: id, secureHash: sign(s.m1.secretKey, `${id}|${ahead}`) };
      expectHubError(
        await hub(s.app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(s.m1), ahead), body),
        401,
        4103,
      );
      const t = await s.app.container.services.payments.transactions.load(id);
      expect(t.status).to.equal('HOLDING');
    });
  });
});
