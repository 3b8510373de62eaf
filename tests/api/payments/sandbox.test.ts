import { expect } from 'chai';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  cardProviderId,
  configureTwoDCard,
  expectHubOk,
  hub,
  hubHeaders,
  initBody,
  onboardMerchant,
  sandboxPages,
  type Onboarded,
} from './support.js';

interface InitData {
  transaction: { id: string; status: string };
  paymentInfo: { redirectUrl: string; providerTransaction: string };
}

/**
 * The sandbox providers over real HTTP (docs/payments-sandbox.md): each hosted page's actions become the provider's
 * signed callback to the hub; the transaction then reads the outcome. Without a browser: the forms are posted as a
 * browser would post them (the browser test drives the card page in Chromium).
 */
describe('Payment hub sandbox providers (HTTP, PostgreSQL)', () => {
  let app: TestApp;
  let m: Onboarded;
  before(async () => {
    app = await startTestApp({ background: false });
    m = await onboardMerchant(app.baseUrl, 'sandbox', ['T1', 'T2']);
    for (const [code, type, providerCode] of [
      ['BANK_TRANSFER', 'BANK_TRANSFER', 'SANDBOX_BANK'],
      ['QR_CODE', 'QR', 'SANDBOX_QR'],
    ] as const) {
      const res = await fetch(
        `${app.baseUrl}/operator/v1/payment-merchants/sandbox/terminals/T1/payment-methods/${code}`,
        {
          method: 'PUT',
          headers: { Authorization: 'Bearer alice-operator-token-0123456789', 'Content-Type': 'application/json' },
          body: JSON.stringify({
            type,
            category: type,
            names: { vi: code, en: code },
            iconUrl: 'https://cdn.example/x.png',
            requiresRedirect: true,
            sortOrder: 5,
            providers: [
              { providerCode, priority: 1, currencies: [{ currency: 'VND', minAmount: 1, maxAmount: 100_000_000 }] },
            ],
          }),
        },
      );
      expect(res.status).to.equal(200);
    }
  });
  after(() => app?.stop());

  const ts = () => String(Math.floor(Date.now() / 1000));
  const providerIds: Record<string, string> = {
    CREDIT_CARD: cardProviderId,
    BANK_TRANSFER: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e03',
    QR_CODE: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e04',
  };

  async function init(orderId: string, method: string, returnURL?: string): Promise<InitData> {
    const body = initBody(m.secretKey, orderId, {
      paymentMethodCode: method,
      providerId: providerIds[method],
      ...(returnURL ? { returnURL } : {}),
    });
    return expectHubOk(
      await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(m.keys.T1!.paymentApiKey, ts()), body),
    ) as InitData;
  }

  const { pageUrl, open, submit } = sandboxPages(() => app.baseUrl);
  const status = async (id: string) => (await app.container.services.payments.transactions.load(id)).status;

  it('card: a test card, the 3-D Secure OTP, COMPLETED (the card gateway cannot hold), back to returnURL', async () => {
    const d = await init('SB-CARD', 'CREDIT_CARD', 'https://shop.example/orders/SB-CARD/REF-SB-CARD');
    const page = await open(d.paymentInfo.redirectUrl);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.include("default-src 'none'");
    expect(page.text).to.include('4111111111111111');
    const threeDs = await submit(d.paymentInfo.redirectUrl, { action: 'card', cardNumber: '4111 1111 1111 1111' });
    expect(threeDs.text).to.include('id="three-ds"');
    const done = await submit(d.paymentInfo.redirectUrl, {
      action: 'otp',
      cardNumber: '4111111111111111',
      otp: '123456',
    });
    expect(done).to.include({ status: 303, location: 'https://shop.example/orders/SB-CARD/REF-SB-CARD' });
    const t = await app.container.services.payments.transactions.load(d.transaction.id);
    expect(t.status).to.equal('COMPLETED');
    expect(t.payment).to.deep.equal({
      bankName: 'Sandbox Bank',
      accountHolderName: 'SANDBOX CARDHOLDER',
      cardNo: '411111******1111',
    });
    // The page now shows the result, not the form.
    expect((await open(d.paymentInfo.redirectUrl)).text).to.include('<strong id="status">COMPLETED</strong>');
  });

  it('card 2D (a 2D merchant id configured): signed with paymentType, no 3-D Secure step, COMPLETED', async () => {
    await configureTwoDCard(app.baseUrl, 'sandbox', 'T2');
    const body = initBody(m.secretKey, 'SB-2D', {
      paymentMethodCode: 'CREDIT_CARD',
      providerId: cardProviderId,
      paymentType: '2D',
    });
    body.secureHash = hmacSha256Hex(m.secretKey, 'SB-2D|REF-SB-2D|150000|VND|1772359200000|2D');
    const d = expectHubOk(
      await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(m.keys.T2!.paymentApiKey, ts()), body),
    ) as InitData & {
      transaction: { cardType: string };
    };
    expect(d.transaction.cardType).to.equal('2D');
    const paid = await submit(d.paymentInfo.redirectUrl, { action: 'card', cardNumber: '4111111111111111' });
    expect(paid.text).to.include('<strong id="status">COMPLETED</strong>').and.not.include('three-ds');
    // On T1 (no 2D merchant id) a 2D request falls back to 3D.
    const fallback = initBody(m.secretKey, 'SB-3D', {
      paymentMethodCode: 'CREDIT_CARD',
      providerId: cardProviderId,
      paymentType: '2D',
    });
    fallback.secureHash = hmacSha256Hex(m.secretKey, 'SB-3D|REF-SB-3D|150000|VND|1772359200000|2D');
    const f = expectHubOk(
      await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(m.keys.T1!.paymentApiKey, ts()), fallback),
    ) as {
      transaction: { cardType: string };
    };
    expect(f.transaction.cardType).to.equal('3D');
  });

  it('card: the decline, insufficient-funds and 3-D Secure failure cards, and a cancel, end FAILED with their codes', async () => {
    const cases: [string, Record<string, string>[], string][] = [
      ['SB-DECL', [{ action: 'card', cardNumber: '4000000000000002' }], '05'],
      ['SB-NSF', [{ action: 'card', cardNumber: '4000000000009995' }], '51'],
      [
        'SB-3DS',
        [
          { action: 'card', cardNumber: '4000000000003063' },
          { action: 'otp', cardNumber: '4000000000003063', otp: '123456' },
        ],
        '3DS_FAILED',
      ],
      [
        'SB-OTP',
        [
          { action: 'card', cardNumber: '4111111111111111' },
          { action: 'otp', cardNumber: '4111111111111111', otp: '000000' },
        ],
        '3DS_FAILED',
      ],
      ['SB-CXL', [{ action: 'cancel' }], 'USER_CANCELLED'],
    ];
    for (const [orderId, steps, errorCode] of cases) {
      const d = await init(orderId, 'CREDIT_CARD');
      let last = { status: 0, text: '', location: null as string | null };
      for (const step of steps) last = await submit(d.paymentInfo.redirectUrl, step);
      expect(last.text, orderId).to.include('<strong id="status">FAILED</strong>');
      const t = await app.container.services.payments.transactions.load(d.transaction.id);
      expect([t.status, t.errorCode], orderId).to.deep.equal(['FAILED', errorCode]);
    }
  });

  it('bank transfer: instructions, then "simulate transfer received" completes it', async () => {
    const d = await init('SB-BANK', 'BANK_TRANSFER');
    const page = await open(d.paymentInfo.redirectUrl);
    expect(page.text).to.include('id="transfer-instructions"').and.include(d.paymentInfo.providerTransaction);
    await submit(d.paymentInfo.redirectUrl, { action: 'transfer-received' });
    expect(await status(d.transaction.id)).to.equal('COMPLETED');
  });

  it('QR: the page shows a PNG QR image; "simulate scan and pay" completes it', async () => {
    const d = await init('SB-QR', 'QR_CODE');
    const page = await open(d.paymentInfo.redirectUrl);
    const src = /<img id="qr"[^>]* src="(data:image\/png;base64,[A-Za-z0-9+/=]+)"/.exec(page.text)?.[1];
    expect(src, 'a QR image').to.be.a('string');
    const png = Buffer.from(src!.split(',')[1]!, 'base64');
    expect(png.subarray(1, 4).toString('ascii')).to.equal('PNG');
    await submit(d.paymentInfo.redirectUrl, { action: 'scan-and-pay' });
    expect(await status(d.transaction.id)).to.equal('COMPLETED');
  });

  it('a page with a wrong token is not found; an action the method does not offer is refused', async () => {
    const d = await init('SB-TOK', 'QR_CODE');
    const { url } = pageUrl(d.paymentInfo.redirectUrl);
    const wrong = await fetch(`${url}?token=${'0'.repeat(32)}`);
    expect(wrong.status).to.equal(404);
    expect(await wrong.text())
      .to.include('id="not-found"')
      .and.not.include('SB-TOK');
    expect((await submit(d.paymentInfo.redirectUrl, { action: 'approve' })).status).to.equal(400);
    expect(await status(d.transaction.id)).to.equal('PROCESSING');
  });

  it('callbacks: a bad signature is 401 and changes nothing; a callback sent twice is applied once', async () => {
    const d = await init('SB-CB', 'QR_CODE');
    const body = JSON.stringify({
      callbackId: 'cb-1',
      transactionId: d.transaction.id,
      providerTransactionId: d.paymentInfo.providerTransaction,
      result: 'AUTHORIZED',
      errorCode: null,
      errorMessage: null,
      payment: null,
      sentAt: new Date().toISOString(),
    });
    const post = (signature: string, provider = 'SANDBOX_QR') =>
      fetch(`${app.baseUrl}/payment-providers/v1/${provider}/callbacks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Provider-Signature': signature },
        body,
      });
    const qrKey = hmacSha256Hex(app.secrets.PAYMENTS_SECRETS_KEY, 'sandbox-provider-key:SANDBOX_QR');
    const walletKey = hmacSha256Hex(app.secrets.PAYMENTS_SECRETS_KEY, 'sandbox-provider-key:SANDBOX_WALLET');
    const bad = await post(hmacSha256Hex(walletKey, body));
    expect(bad.status).to.equal(401);
    expect(await bad.json()).to.deep.include({ code: 'INVALID_SIGNATURE' });
    // Signed by the wallet for the wallet: not this transaction's provider.
    expect((await post(hmacSha256Hex(walletKey, body), 'SANDBOX_WALLET')).status).to.equal(404);
    expect(await status(d.transaction.id)).to.equal('PROCESSING');
    const first = await post(hmacSha256Hex(qrKey, body));
    expect(first.status).to.equal(200);
    expect(await first.json()).to.deep.equal({ code: 'OK', status: 'COMPLETED' });
    expect((await post(hmacSha256Hex(qrKey, body))).status).to.equal(200);
    const events = await app.container.store.readStream(`transaction-${d.transaction.id}`);
    expect(events.filter((e) => e.type === 'TransactionCompleted')).to.have.length(1);
  });
});
