import { expect } from 'chai';
import { SandboxProviders, type TransactionService } from '../../../../application/payments/index.js';
import { fixedClock } from '../../../../application/shared/clock.js';
import { isDomainError } from '../../../../application/shared/errors.js';

/**
 * The sandbox card gateways' saved cards (docs/payments-sandbox.md, "Saving a card, and paying with it"): a token
 * carries its provider's MAC, so only the provider that issued it takes it; the card number never leaves tokenize.
 */
describe('sandbox providers: saved card tokens', () => {
  const sandbox = (secret = 'k') =>
    new SandboxProviders({
      keys: { page: 'page-key', provider: (code) => `${secret}:${code}` },
      baseUrl: 'http://sandbox.test',
      sender: { send: () => Promise.reject(new Error('no callbacks here')) },
      qrImage: () => Promise.resolve(''),
      transactions: {} as TransactionService,
      clock: fixedClock('2026-03-01T10:00:00.000Z'),
    });
  const payment = (providerCode: string, providerToken: string, cardType: '2D' | '3D' = '3D', amount = 150_000) => ({
    transactionId: '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f',
    providerCode,
    amount,
    currency: 'VND',
    orderId: 'o1',
    description: 'd',
    cardType,
    savedCard: { providerToken, cardNo: '411111******1111' },
  });
  const refusal = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (e) {
      return e;
    }
    throw new Error('not refused');
  };

  it('tokenizes a card: masked number, brand, expiry, a fingerprint per card, never the number', () => {
    const t = sandbox().tokenize('SANDBOX_CARD', '4111111111111111', '12/30');
    expect(t).to.include({ cardNo: '411111******1111', cardBrand: 'VISA', expiry: '12/30' });
    expect(JSON.stringify(t)).not.to.include('4111111111111111');
    expect(t.fingerprint).to.equal(sandbox().tokenize('SANDBOX_CARD', '4111111111111111', '01/29').fingerprint);
    expect(t.providerToken).not.to.equal(sandbox().tokenize('SANDBOX_CARD', '4111111111111111', '12/30').providerToken);
    expect(sandbox().tokenize('SANDBOX_CARD', '5555555555554444', 'soon')).to.include({
      cardBrand: 'MASTERCARD',
      expiry: null,
    });
  });

  it('takes its own token: a page for 3D, none for 2D (a direct charge), declined for an amount ending in 51', async () => {
    const s = sandbox();
    const { providerToken } = s.tokenize('SANDBOX_CARD', '4111111111111111', '12/30');
    expect((await s.start(payment('SANDBOX_CARD', providerToken))).redirectUrl).to.match(/^http:\/\/sandbox\.test\//);
    expect((await s.start(payment('SANDBOX_CARD', providerToken, '2D'))).redirectUrl).to.equal(null);
    const charge = { ...payment('SANDBOX_CARD', providerToken, '2D'), providerTransactionId: 'SBX-1' };
    expect(await s.chargeSavedCard(charge)).to.deep.equal({
      result: 'AUTHORIZED',
      payment: { bankName: 'Sandbox Bank', accountHolderName: 'SANDBOX CARDHOLDER', cardNo: '411111******1111' },
    });
    expect(await s.chargeSavedCard({ ...charge, amount: 150_051 })).to.include({ result: 'DECLINED', errorCode: '51' });
  });

  it("refuses another provider's token, a forged one, and its own after its key changed", async () => {
    const s = sandbox();
    const { providerToken } = s.tokenize('SANDBOX_CARD', '4111111111111111', '12/30');
    for (const [provider, token, under] of [
      ['SANDBOX_CARD_BACKUP', providerToken, s],
      ['SANDBOX_CARD', providerToken.slice(0, -1) + (providerToken.endsWith('0') ? '1' : '0'), s],
      ['SANDBOX_CARD', 'sbxtok_nonce', s],
      ['SANDBOX_CARD', providerToken, sandbox('rotated')],
    ] as const) {
      const error = await refusal(() => under.start(payment(provider, token)));
      expect(isDomainError(error) && error.code, String(error)).to.equal('INVALID_PAYMENT_REQUEST');
    }
  });
});
