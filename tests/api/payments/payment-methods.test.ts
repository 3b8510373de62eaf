import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call, expectOk, operatorHeaders } from '../support.js';
import { cardProviderId, expectHubError, onboardMerchant, walletProviderId, type Onboarded } from './support.js';

interface Listed {
  items: { code: string; name: string; provider: { id: string; code: string }; currencies: unknown[] }[];
}

/** GET /api/payments/v1/payment-methods over HTTP (docs/payments.md, "Payment methods list"). */
describe('Payment hub payment methods (HTTP, PostgreSQL)', () => {
  let app: TestApp;
  let m: Onboarded;
  before(async () => {
    app = await startTestApp({ background: false });
    m = await onboardMerchant(app.baseUrl, 'methods', ['T1', 'T2']);
    // A disabled QR method on T1, and nothing but WALLET changed on T2.
    expectOk(
      await call(app.baseUrl, 'PUT', '/operator/v1/payment-merchants/methods/terminals/T1/payment-methods/QR_CODE', {
        headers: operatorHeaders(),
        json: {
          type: 'QR',
          category: 'QR',
          names: { vi: 'Mã QR', en: 'QR code' },
          iconUrl: 'https://cdn.example/qr.png',
          requiresRedirect: true,
          sortOrder: 0,
          enabled: false,
          providers: [
            {
              providerCode: 'SANDBOX_QR',
              priority: 1,
              currencies: [{ currency: 'VND', minAmount: 1, maxAmount: 10_000_000 }],
            },
          ],
        },
      }),
    );
  });
  after(() => app?.stop());

  const list = (query: string, headers: Record<string, string | undefined> = {}, terminal = 'T1') =>
    call(app.baseUrl, 'GET', `/api/payments/v1/payment-methods${query}`, {
      headers: { ...gatewayHeaders(), 'X-Payment-API-Key': m.keys[terminal]!.paymentApiKey, ...headers },
    });

  it('lists the methods that take the amount, ordered by sortOrder, {items} at the top level', async () => {
    const res = await list('?amount=20000&currency=VND');
    expect(res.status).to.equal(200);
    expect(res.body).to.have.all.keys('items');
    const body = res.body as unknown as Listed;
    expect(body.items.map((i) => [i.code, i.name, i.provider.id])).to.deep.equal([
      ['CREDIT_CARD', 'Thẻ tín dụng', cardProviderId],
      ['WALLET', 'Ví điện tử', walletProviderId],
    ]);
    expect(body.items[0]).to.deep.include({
      type: 'CARD',
      category: 'CREDIT',
      iconUrl: 'https://cdn.example/card.png',
      provider: { id: cardProviderId, name: 'Sandbox card gateway', code: 'SANDBOX_CARD' },
      supportsTokenization: true,
      requiresRedirect: true,
      sortOrder: 1,
      verificationAmount: 1000,
      currencies: [{ currency: 'VND', minAmount: 10_000, maxAmount: 100_000_000 }],
    });
  });

  it("filters by each method's limits for the currency, names by Accept-Language", async () => {
    const small = (await list('?amount=5000&currency=VND', { 'Accept-Language': 'en-US,en;q=0.9' }))
      .body as unknown as Listed;
    expect(small.items.map((i) => [i.code, i.name])).to.deep.equal([['WALLET', 'E-wallet']]);
    // By weight, not by order; a weight of 0 refuses a language.
    const byWeight = (await list('?amount=5000&currency=VND', { 'Accept-Language': 'vi;q=0.3, en;q=0.8' }))
      .body as unknown as Listed;
    expect(byWeight.items.map((i) => i.name)).to.deep.equal(['E-wallet']);
    const refused = (await list('?amount=5000&currency=VND', { 'Accept-Language': 'en;q=0, fr' }))
      .body as unknown as Listed;
    expect(refused.items.map((i) => i.name)).to.deep.equal(['Ví điện tử']);
    const usd = (await list('?amount=5000&currency=USD')).body as unknown as Listed;
    expect(usd.items).to.deep.equal([]);
  });

  it('picks per amount the provider of smallest priority whose limits take it (two card gateways on T2)', async () => {
    expectOk(
      await call(
        app.baseUrl,
        'PUT',
        '/operator/v1/payment-merchants/methods/terminals/T2/payment-methods/CREDIT_CARD',
        {
          headers: operatorHeaders(),
          json: {
            type: 'CARD',
            category: 'CREDIT',
            names: { vi: 'Thẻ', en: 'Card' },
            iconUrl: 'https://cdn.example/card.png',
            requiresRedirect: true,
            sortOrder: 1,
            providers: [
              {
                providerCode: 'SANDBOX_CARD',
                priority: 2,
                currencies: [{ currency: 'VND', minAmount: 10_000, maxAmount: 100_000_000 }],
              },
              {
                providerCode: 'SANDBOX_CARD_BACKUP',
                priority: 1,
                currencies: [{ currency: 'VND', minAmount: 1, maxAmount: 15_000 }],
              },
            ],
          },
        },
      ),
    );
    const card = async (amount: number) =>
      ((await list(`?amount=${amount}&currency=VND`, {}, 'T2')).body as unknown as Listed).items.find(
        (i) => i.code === 'CREDIT_CARD',
      );
    expect((await card(12_000))?.provider.code).to.equal('SANDBOX_CARD_BACKUP');
    expect((await card(12_000))?.currencies).to.deep.equal([{ currency: 'VND', minAmount: 1, maxAmount: 15_000 }]);
    expect((await card(20_000))?.provider.code).to.equal('SANDBOX_CARD');
  });

  it('needs amount and currency (4001) and a usable key (4101, 4100)', async () => {
    expect(expectHubError(await list('?currency=VND'), 400, 4001)).to.match(/amount/);
    expect(expectHubError(await list('?amount=100'), 400, 4001)).to.match(/currency/);
    expectHubError(await list('?amount=abc&currency=VND'), 400, 4001);
    expectHubError(await list('?amount=100&currency=VND', { 'X-Payment-API-Key': undefined }), 401, 4101);
    expectHubError(await list('?amount=100&currency=VND', { 'X-Payment-API-Key': 'phk_unknown' }), 401, 4100);
  });
});
