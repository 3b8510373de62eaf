import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { newCommandContext } from '../../../application/shared/command-context.js';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  cardProviderId,
  expectHubError,
  expectHubOk,
  hub,
  hubHeaders,
  initBody,
  nowSeconds,
  onboardMerchant,
  sign,
  walletProviderId,
  type Onboarded,
} from './support.js';

interface InitData {
  transaction: Record<string, unknown> & { id: string; status: string };
  paymentInfo: Record<string, unknown>;
}

/** The payment hub's transactions over HTTP on PostgreSQL (docs/payments.md, docs/payments-signing.md). */
describe('Payment hub transactions (HTTP, PostgreSQL)', () => {
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  let app: TestApp;
  let m1: Onboarded;
  let m2: Onboarded;
  const key = (m: Onboarded, t = 'T1') => m.keys[t]!.paymentApiKey;
  const ts = () => nowSeconds(clock);

  before(async () => {
    app = await startTestApp({ clock, background: false });
    m1 = await onboardMerchant(app.baseUrl, 'shop-one', ['T1', 'T2']);
    m2 = await onboardMerchant(app.baseUrl, 'shop-two');
  });
  after(() => app?.stop());

  const init = (m: Onboarded, orderId: string, extra: Record<string, unknown> = {}, headers = {}) =>
    hub(
      app.baseUrl,
      'POST',
      '/transactions',
      { ...hubHeaders(key(m), ts()), ...headers },
      initBody(m.secretKey, orderId, extra),
    );

  /** A transaction of m1/T1 held: the payer approves on the sandbox wallet's page, whose callback the hub applies. */
  async function held(orderId: string): Promise<string> {
    const data = expectHubOk(await init(m1, orderId)) as InitData;
    const page = await approveOnPage(data.paymentInfo.redirectUrl as string);
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<strong id="status">HOLDING</strong>');
    return data.transaction.id;
  }

  /** The payer's "Approve" on the hosted page of `redirectUrl` (served by this app). */
  async function approveOnPage(redirectUrl: string) {
    const url = new URL(redirectUrl);
    const res = await fetch(`${app.baseUrl}${url.pathname}`, {
      method: 'POST',
      body: new URLSearchParams({ token: url.searchParams.get('token')!, action: 'approve' }),
      redirect: 'manual',
    });
    return { status: res.status, text: await res.text() };
  }

  const signedById = (m: Onboarded, transactionId: string, extra: Record<string, unknown> = {}) => ({
    transactionId,
    ...extra,
    secureHash: sign(m.secretKey, `${transactionId}|${ts()}`),
  });

  describe('init payment (POST /transactions)', () => {
    it('creates a transaction the provider took (PROCESSING) and answers every field of the seed', async () => {
      const data = expectHubOk(
        await init(
          m1,
          'ORD-1',
          { returnURL: 'https://shop-one.example/orders/ORD-1/REF-ORD-1' },
          { 'X-External-User-ID': 'ext-42' },
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
      const stored = await app.container.services.payments.transactions.load(data.transaction.id);
      expect(stored.payer).to.deep.equal({ kind: 'EXTERNAL_USER', externalUserId: 'ext-42' });
      expect(stored.returnUrl).to.equal('https://shop-one.example/orders/ORD-1/REF-ORD-1');
    });

    it('signs and stores a float amount as its integer part; skipHolding true captures (signed when present)', async () => {
      const body = initBody(m1.secretKey, 'ORD-F', { amount: 99999.99, skipHolding: true });
      body.secureHash = sign(m1.secretKey, 'ORD-F|REF-ORD-F|99999|VND|1772359200000|true');
      const data = expectHubOk(
        await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(m1), ts()), body),
      ) as InitData;
      expect(data.transaction).to.include({ amount: 99999, skipHolding: true });
    });

    it('refuses an orderId used before with 409 4091, whatever the referenceId', async () => {
      expectHubOk(await init(m1, 'ORD-DUP'));
      expectHubError(await init(m1, 'ORD-DUP'), 409, 4091);
      // Another merchant has its own order ids.
      expectHubOk(await init(m2, 'ORD-DUP'));
    });

    it("refuses a wrong secureHash (401 4102), also one signed with another merchant's secretKey", async () => {
      const body = { ...initBody(m1.secretKey, 'ORD-H'), amount: 150001 }; // signed over 150000
      expectHubError(await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(m1), ts()), body), 401, 4102);
      const foreign = initBody(m2.secretKey, 'ORD-H');
      expectHubError(await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(m1), ts()), foreign), 401, 4102);
    });

    it('refuses missing or unusable keys (4101, 4100) and bad input with 4001 naming the field', async () => {
      expectHubError(await init(m1, 'ORD-K', {}, { 'X-Payment-API-Key': undefined }), 401, 4101);
      expectHubError(await init(m1, 'ORD-K', {}, { 'X-Payment-API-Key': 'phk_not-a-key' }), 401, 4100);
      expect(expectHubError(await init(m1, 'ORD-K', { currency: 'dong' }), 400, 4001)).to.match(/currency/);
      expect(expectHubError(await init(m1, 'ORD-K', { paymentMethodCode: null }), 400, 4001)).to.match(
        /paymentMethodCode/,
      );
      expect(expectHubError(await init(m1, 'ORD-K', { amount: 500 }), 400, 4001)).to.match(
        /^amount: must be from 1000/,
      );
      expect(expectHubError(await init(m1, 'ORD-K', { providerId: cardProviderId }), 400, 4001)).to.match(/providerId/);
      expect(expectHubError(await init(m1, 'ORD-K', {}, { 'X-Request-ID': undefined }), 400, 4001)).to.match(
        /X-Request-ID/,
      );
      expect(expectHubError(await init(m1, 'ORD-K', {}, { 'X-Timestamp': 'yesterday' }), 400, 4001)).to.match(
        /X-Timestamp/,
      );
      const raw = await fetch(`${app.baseUrl}/api/payments/v1/transactions`, {
        method: 'POST',
        headers: { ...(hubHeaders(key(m1), ts()) as Record<string, string>), 'Content-Type': 'application/json' },
        body: '{"amount": ',
      });
      expectHubError({ status: raw.status, text: await raw.clone().text(), body: await raw.json() }, 400, 4001);
    });

    it('refuses skipHolding false where the provider cannot hold (4001)', async () => {
      const body = initBody(m1.secretKey, 'ORD-C', {
        paymentMethodCode: 'CREDIT_CARD',
        providerId: cardProviderId,
        skipHolding: false,
      });
      body.secureHash = sign(m1.secretKey, 'ORD-C|REF-ORD-C|150000|VND|1772359200000|false');
      const message = expectHubError(
        await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(m1), ts()), body),
        400,
        4001,
      );
      expect(message).to.match(/cannot hold/);
    });

    it('enriches X-MiniApp-User-ID from the identity directory, 404 4302 for an unknown user', async () => {
      await app.container.services.identity.users.register(
        newCommandContext({ actor: { operator: 'tests' } }),
        'u-100',
        {
          name: 'Tran Thi B',
        } as never,
      );
      const data = expectHubOk(await init(m1, 'ORD-U', {}, { 'X-MiniApp-User-ID': 'u-100' })) as InitData;
      const stored = await app.container.services.payments.transactions.load(data.transaction.id);
      expect(stored.payer).to.deep.equal({ kind: 'MINIAPP_USER', userId: 'u-100', name: 'Tran Thi B' });
      expectHubError(await init(m1, 'ORD-U2', {}, { 'X-MiniApp-User-ID': 'nobody' }), 404, 4302);
    });
  });

  describe('replays and duplicates', () => {
    it('an identical resend under one X-Request-ID replays the original answer and appends nothing', async () => {
      const requestId = randomUUID();
      const body = initBody(m1.secretKey, 'ORD-R');
      const first = await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(m1), ts(), requestId), body);
      clock.advance(5000);
      const again = await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(m1), ts(), requestId), body);
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      // A different body under the used id is refused.
      const other = initBody(m1.secretKey, 'ORD-R2');
      expectHubError(
        await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(m1), ts(), requestId), other),
        409,
        4093,
      );
    });

    it('a captured signed request replayed after the window is refused with 401 4103', async () => {
      const id = await held('ORD-W');
      const captured = { headers: hubHeaders(key(m1), ts()), body: signedById(m1, id) };
      clock.advance(301_000);
      expectHubError(
        await hub(app.baseUrl, 'PUT', '/transactions/confirm', captured.headers, captured.body),
        401,
        4103,
      );
      // A timestamp from the future beyond the window too.
      const ahead = String(Number(ts()) + 400);
      const body = { transactionId: id, secureHash: sign(m1.secretKey, `${id}|${ahead}`) };
      expectHubError(
        await hub(app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(m1), ahead), body),
        401,
        4103,
      );
      const t = await app.container.services.payments.transactions.load(id);
      expect(t.status).to.equal('HOLDING');
    });
  });

  describe('lookup (GET /transactions)', () => {
    it('finds by transactionId and by orderId+referenceId, every Transaction field', async () => {
      const id = await held('ORD-G');
      const byId = expectHubOk(
        await hub(app.baseUrl, 'GET', `/transactions?transactionId=${id}`, hubHeaders(key(m1), ts())),
      ) as {
        items: Record<string, unknown>[];
      };
      expect(byId.items).to.have.length(1);
      expect(byId.items[0]).to.deep.include({
        id,
        orderId: 'ORD-G',
        referenceId: 'REF-ORD-G',
        status: 'HOLDING',
        merchant: { code: 'shop-one', name: 'Merchant shop-one' },
        providerTransactionId: `SBX-${id}`,
        providerInvoiceId: null,
        provider: { id: walletProviderId, name: 'Sandbox wallet' },
        accountHolderName: 'SANDBOX WALLET USER',
        cardNo: null,
        bankName: null,
        breakdown: null,
      });
      expect(Object.keys(byId.items[0]!)).to.have.members([
        'id',
        'referenceId',
        'orderId',
        'amount',
        'currency',
        'status',
        'description',
        'expiresAt',
        'createdAt',
        'updatedAt',
        'merchant',
        'providerTransactionId',
        'providerInvoiceId',
        'paymentMethod',
        'provider',
        'bankName',
        'accountHolderName',
        'cardNo',
        'breakdown',
        'orderInfo',
      ]);
      const byPair = expectHubOk(
        await hub(app.baseUrl, 'GET', '/transactions?orderId=ORD-G&referenceId=REF-ORD-G', hubHeaders(key(m1), ts())),
      );
      expect(byPair).to.deep.equal(byId);
    });

    it('answers 4661 without a usable lookup, 4301 for none, 4200 across terminals and merchants', async () => {
      const id = await held('ORD-O');
      for (const q of ['', '?orderId=ORD-O', '?transactionId=not-a-uuid'])
        expectHubError(await hub(app.baseUrl, 'GET', `/transactions${q}`, hubHeaders(key(m1), ts())), 400, 4661);
      expectHubError(
        await hub(app.baseUrl, 'GET', `/transactions?transactionId=${randomUUID()}`, hubHeaders(key(m1), ts())),
        404,
        4301,
      );
      expectHubError(
        await hub(app.baseUrl, 'GET', '/transactions?orderId=ORD-O&referenceId=wrong', hubHeaders(key(m1), ts())),
        404,
        4301,
      );
      expectHubError(
        await hub(app.baseUrl, 'GET', `/transactions?transactionId=${id}`, hubHeaders(key(m1, 'T2'), ts())),
        403,
        4200,
      );
      expectHubError(
        await hub(app.baseUrl, 'GET', `/transactions?transactionId=${id}`, hubHeaders(key(m2), ts())),
        403,
        4200,
      );
      expectHubError(
        await hub(app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(m2), ts()), signedById(m2, id)),
        403,
        4200,
      );
    });
  });

  describe('cancel and confirm (PUT)', () => {
    it('confirms a held transaction (COMPLETED); a second confirm gets 4015 and a cancel 4014', async () => {
      const id = await held('ORD-CF');
      expectHubOk(
        await hub(app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(m1), ts()), signedById(m1, id)),
      );
      expect((await app.container.services.payments.transactions.load(id)).status).to.equal('COMPLETED');
      expectHubError(
        await hub(app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(m1), ts()), signedById(m1, id)),
        400,
        4015,
      );
      expectHubError(
        await hub(app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(m1), ts()), signedById(m1, id)),
        400,
        4014,
      );
    });

    it('cancels by the pair (signed orderId|referenceId|timestamp), with reason and requestedBy', async () => {
      const id = await held('ORD-CP');
      const body = {
        orderId: 'ORD-CP',
        referenceId: 'REF-ORD-CP',
        reason: 'customer changed mind',
        requestedBy: 'ops-1',
        secureHash: sign(m1.secretKey, `ORD-CP|REF-ORD-CP|${ts()}`),
      };
      expectHubOk(await hub(app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(m1), ts()), body));
      const events = await app.container.store.readStream(`transaction-${id}`);
      expect(events.at(-1)).to.deep.include({ type: 'TransactionCancelled' });
      expect(events.at(-1)!.data).to.deep.include({
        status: 'CANCELLED',
        reason: 'customer changed mind',
        requestedBy: 'ops-1',
      });
      expect(events.at(-1)!.metadata.actor).to.deep.equal({ merchantId: 'shop-one', terminalId: 'T1' });
    });

    it('confirm of a PROCESSING transaction is 4015; a transactionId wins over a wrong pair; bad bodies are 4001', async () => {
      const pending = (expectHubOk(await init(m1, 'ORD-P')) as InitData).transaction.id;
      const body = signedById(m1, pending, { orderId: 'nope', referenceId: 'nope' });
      expectHubError(
        await hub(app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(m1), ts()), body),
        400,
        4015,
      );
      expectHubOk(
        await hub(app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(m1), ts()), signedById(m1, pending)),
      );
      expectHubError(
        await hub(app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(m1), ts()), {
          secureHash: 'ab'.repeat(32),
        }),
        400,
        4001,
      );
      expectHubError(
        await hub(app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(m1), ts()), signedById(m1, randomUUID())),
        404,
        4301,
      );
    });

    it('racing confirms, cancels and provider callbacks on one held transaction: exactly one outcome', async () => {
      const id = await held('ORD-RACE');
      const providerKey = hmacSha256Hex(app.secrets.PAYMENTS_SECRETS_KEY, 'sandbox-provider-key:SANDBOX_WALLET');
      const callback = (i: number) => {
        const body = JSON.stringify({
          callbackId: `race-${i}`,
          transactionId: id,
          providerTransactionId: `SBX-${id}`,
          result: 'DECLINED',
          errorCode: 'LATE',
          errorMessage: 'a late decline',
          payment: null,
          sentAt: clock.now().toISOString(),
        });
        return fetch(`${app.baseUrl}/payment-providers/v1/SANDBOX_WALLET/callbacks`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Provider-Signature': hmacSha256Hex(providerKey, body) },
          body,
        }).then(async (r) => ({ kind: 'callback', status: r.status, body: (await r.json()) as { code: unknown } }));
      };
      const merchant = (path: string) =>
        hub(app.baseUrl, 'PUT', path, hubHeaders(key(m1), ts()), signedById(m1, id)).then((r) => ({
          kind: path,
          status: r.status,
          body: r.body as { code: unknown },
        }));
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 3 === 0
            ? merchant('/transactions/confirm')
            : i % 3 === 1
              ? merchant('/transactions/cancel')
              : callback(i),
        ),
      );
      const winners = results.filter((r) => r.status === 200);
      expect(winners, JSON.stringify(results)).to.have.length(1);
      for (const r of results) {
        if (r.status === 200) continue;
        if (r.kind === 'callback') expect(r).to.deep.include({ status: 409 });
        else expect([4014, 4015], JSON.stringify(r)).to.include(r.body.code);
      }
      const events = await app.container.store.readStream(`transaction-${id}`);
      const outcomes = events.filter((e) =>
        ['TransactionCompleted', 'TransactionCancelled', 'TransactionFailed'].includes(e.type),
      );
      expect(outcomes).to.have.length(1);
    });
  });
});
