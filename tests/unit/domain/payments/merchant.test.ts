import type { PaymentMerchantEvent } from '../../../../domain/payments/events.js';
import { paymentMerchantDecider, usableSecrets } from '../../../../domain/payments/merchant.js';
import {
  chooseProvider,
  effectiveCardType,
  methodSupportsHolding,
  type PaymentMethodConfig,
} from '../../../../domain/payments/payment-methods.js';
import { fold } from '../../../../domain/shared/decider.js';
import { expect } from 'chai';
import { scenario } from '../../../support/decider-spec.js';

/** Onboarding: merchant, terminals, keys, secret rotation and payment methods (docs/payments.md, "Onboarding"). */
const given = scenario(paymentMerchantDecider);
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T11:00:00.000Z';
const by = 'alice';

const onboarded: PaymentMerchantEvent = {
  type: 'PaymentMerchantOnboarded',
  data: {
    merchantCode: 'm1',
    name: 'Shop One',
    ipnUrl: 'https://m1.example/ipn',
    maxIpnRetries: 5,
    onboardedBy: by,
    onboardedAt: t0,
  },
};
const firstSecret: PaymentMerchantEvent = {
  type: 'MerchantSecretKeyIssued',
  data: {
    merchantCode: 'm1',
    secretId: 's1',
    encryptedSecret: 'k1.x.y',
    previousSecretId: null,
    previousValidUntil: null,
    issuedBy: by,
    issuedAt: t0,
  },
};
const terminal: PaymentMerchantEvent = {
  type: 'TerminalAdded',
  data: { merchantCode: 'm1', terminalId: 'T1', name: 'Main', addedBy: by, addedAt: t0 },
};
const keyIssued: PaymentMerchantEvent = {
  type: 'PaymentApiKeyIssued',
  data: {
    merchantCode: 'm1',
    terminalId: 'T1',
    apiKeyId: 'k1',
    prefix: 'phk_abc',
    keyDigest: 'd1',
    expiresAt: null,
    issuedBy: by,
    issuedAt: t0,
  },
};

const wallet = (autoCapture: boolean | null, providerCode = 'SANDBOX_WALLET'): PaymentMethodConfig => ({
  code: 'WALLET',
  type: 'WALLET',
  category: 'EWALLET',
  names: { vi: 'Ví', en: 'Wallet' },
  iconUrl: 'https://cdn.example/wallet.png',
  supportsTokenization: false,
  requiresRedirect: true,
  verificationAmount: null,
  sortOrder: 1,
  autoCapture,
  enabled: true,
  providers: [{ providerCode, priority: 1, currencies: [{ currency: 'VND', minAmount: 1000, maxAmount: 50_000_000 }] }],
});

describe('payment merchant decider (onboarding)', () => {
  it('onboards a merchant with its IPN settings and its first secretKey', () =>
    given([])
      .when({
        type: 'OnboardMerchant',
        merchantCode: 'm1',
        name: 'Shop One',
        ipnUrl: 'https://m1.example/ipn',
        maxIpnRetries: 5,
        secret: { secretId: 's1', encryptedSecret: 'k1.x.y' },
        by,
        now: t0,
      })
      .then([onboarded, firstSecret]));

  it('refuses a merchant twice, a terminal twice, a terminal of no merchant', () => {
    given([onboarded, firstSecret])
      .when({
        type: 'OnboardMerchant',
        merchantCode: 'm1',
        name: 'x',
        ipnUrl: 'https://x',
        maxIpnRetries: 1,
        secret: { secretId: 's', encryptedSecret: 'e' },
        by,
        now: t0,
      })
      .thenRejects('PAYMENT_MERCHANT_EXISTS');
    given([onboarded, firstSecret, terminal])
      .when({ type: 'AddTerminal', terminalId: 'T1', name: 'again', by, now: t1 })
      .thenRejects('TERMINAL_EXISTS', { terminalId: 'T1' });
    given([])
      .when({ type: 'AddTerminal', terminalId: 'T1', name: 'x', by, now: t1 })
      .thenRejects('PAYMENT_MERCHANT_NOT_FOUND');
  });

  it('issues a key to a terminal, refusing an expiry in the past and an unknown terminal', () => {
    given([onboarded, firstSecret, terminal])
      .when({
        type: 'IssuePaymentApiKey',
        terminalId: 'T1',
        apiKey: { apiKeyId: 'k1', prefix: 'phk_abc', keyDigest: 'd1', expiresAt: null },
        by,
        now: t0,
      })
      .then([keyIssued]);
    given([onboarded, firstSecret, terminal])
      .when({
        type: 'IssuePaymentApiKey',
        terminalId: 'T1',
        apiKey: { apiKeyId: 'k1', prefix: 'p', keyDigest: 'd', expiresAt: t0 },
        by,
        now: t1,
      })
      .thenRejects('INVALID_PAYMENT_SETUP', { field: 'expiresAt' });
    given([onboarded, firstSecret])
      .when({
        type: 'IssuePaymentApiKey',
        terminalId: 'T9',
        apiKey: { apiKeyId: 'k1', prefix: 'p', keyDigest: 'd', expiresAt: null },
        by,
        now: t1,
      })
      .thenRejects('TERMINAL_NOT_FOUND');
  });

  it('revokes a key once (with who and when); a second revocation changes nothing', () => {
    const revoked: PaymentMerchantEvent = {
      type: 'PaymentApiKeyRevoked',
      data: { merchantCode: 'm1', terminalId: 'T1', apiKeyId: 'k1', keyDigest: 'd1', revokedBy: 'bob', revokedAt: t1 },
    };
    given([onboarded, firstSecret, terminal, keyIssued])
      .when({ type: 'RevokePaymentApiKey', terminalId: 'T1', apiKeyId: 'k1', by: 'bob', now: t1 })
      .then([revoked]);
    given([onboarded, firstSecret, terminal, keyIssued, revoked])
      .when({ type: 'RevokePaymentApiKey', terminalId: 'T1', apiKeyId: 'k1', by: 'bob', now: t1 })
      .then([]);
    const state = fold(paymentMerchantDecider, [onboarded, firstSecret, terminal, keyIssued, revoked]);
    expect(state.status !== 'NONE' && state.terminals[0]!.apiKeys[0]).to.include({
      status: 'REVOKED',
      createdBy: by,
      updatedBy: 'bob',
      updatedAt: t1,
    });
  });

  it('rotates the secretKey: the previous one stays usable for the overlap window only', () => {
    const rotated: PaymentMerchantEvent = {
      type: 'MerchantSecretKeyIssued',
      data: {
        merchantCode: 'm1',
        secretId: 's2',
        encryptedSecret: 'k1.a.b',
        previousSecretId: 's1',
        previousValidUntil: '2026-03-01T12:00:00.000Z',
        issuedBy: by,
        issuedAt: t1,
      },
    };
    given([onboarded, firstSecret])
      .when({
        type: 'RotateSecretKey',
        secret: { secretId: 's2', encryptedSecret: 'k1.a.b' },
        overlapSeconds: 3600,
        by,
        now: t1,
      })
      .then([rotated]);
    const state = fold(paymentMerchantDecider, [onboarded, firstSecret, rotated]);
    if (state.status === 'NONE') throw new Error('no merchant');
    expect(usableSecrets(state, '2026-03-01T11:59:59.000Z').map((s) => s.secretId)).to.deep.equal(['s1', 's2']);
    expect(usableSecrets(state, '2026-03-01T12:00:00.000Z').map((s) => s.secretId)).to.deep.equal(['s2']);
  });

  describe('payment methods', () => {
    const configure = (method: PaymentMethodConfig) =>
      given([onboarded, firstSecret, terminal]).when({
        type: 'ConfigurePaymentMethod',
        terminalId: 'T1',
        paymentMethodId: 'pm1',
        method,
        by,
        now: t1,
      });
    it('configures a method whose provider can hold, with auto-capture off', () =>
      configure(wallet(false)).then([
        {
          type: 'PaymentMethodConfigured',
          data: {
            merchantCode: 'm1',
            terminalId: 'T1',
            paymentMethodId: 'pm1',
            method: wallet(false),
            configuredBy: by,
            configuredAt: t1,
          },
        },
      ]));
    it('refuses auto-capture set where the provider cannot hold', () => {
      const card: PaymentMethodConfig = { ...wallet(true, 'SANDBOX_CARD'), code: 'CREDIT_CARD', type: 'CARD' };
      configure(card).thenRejects('INVALID_PAYMENT_SETUP', { field: 'autoCapture' });
      configure({ ...card, autoCapture: false }).thenRejects('INVALID_PAYMENT_SETUP', { field: 'autoCapture' });
    });
    it('refuses a 2D merchant id on a method that is not a card', () =>
      configure({ ...wallet(null), twoDMerchantId: 'M2D-1' }).thenRejects('INVALID_PAYMENT_SETUP', {
        field: 'twoDMerchantId',
      }));
    it('gives 2D only when asked, for a non-ATM card method with a 2D merchant id (else the 3D fallback)', () => {
      const card: PaymentMethodConfig = {
        ...wallet(null, 'SANDBOX_CARD'),
        code: 'CREDIT_CARD',
        type: 'CARD',
        category: 'CREDIT',
      };
      const with2d = { ...card, twoDMerchantId: 'M2D-1' };
      expect(effectiveCardType(with2d, '2D')).to.equal('2D');
      expect(effectiveCardType(with2d, '3D')).to.equal('3D');
      expect(effectiveCardType(with2d, undefined)).to.equal('3D');
      expect(effectiveCardType(card, '2D')).to.equal('3D');
      expect(effectiveCardType({ ...with2d, category: 'ATM' }, '2D')).to.equal('3D');
      expect(effectiveCardType({ ...wallet(null), twoDMerchantId: 'M2D-1' }, '2D')).to.equal('3D');
    });
    it('a method supports holding only when every provider of it can hold', () => {
      expect(methodSupportsHolding(wallet(null))).to.equal(true);
      expect(methodSupportsHolding(wallet(null, 'SANDBOX_CARD'))).to.equal(false);
      const both = {
        providers: [...wallet(null).providers, { ...wallet(null).providers[0]!, providerCode: 'SANDBOX_QR' }],
      };
      expect(methodSupportsHolding(both)).to.equal(false);
    });
    it('refuses an unknown provider, a provider of another method type, equal priorities, min above max', () => {
      configure(wallet(null, 'NOPE')).thenRejects('INVALID_PAYMENT_SETUP', { field: 'providers[0].providerCode' });
      configure(wallet(null, 'SANDBOX_QR')).thenRejects('INVALID_PAYMENT_SETUP', {
        field: 'providers[0].providerCode',
      });
      const base = wallet(null);
      configure({
        ...base,
        providers: [base.providers[0]!, { ...base.providers[0]!, providerCode: 'SANDBOX_WALLET' }],
      }).thenRejects('INVALID_PAYMENT_SETUP', { field: 'providers[1].providerCode' });
      configure({
        ...base,
        providers: [{ ...base.providers[0]!, currencies: [{ currency: 'VND', minAmount: 10, maxAmount: 9 }] }],
      }).thenRejects('INVALID_PAYMENT_SETUP', { field: 'providers[0].currencies[0].maxAmount' });
    });
  });
});

describe('choosing a provider for a method (smallest priority among those whose limits fit)', () => {
  const card: PaymentMethodConfig = {
    ...wallet(null, 'SANDBOX_CARD'),
    code: 'CREDIT_CARD',
    type: 'CARD',
    providers: [
      {
        providerCode: 'SANDBOX_CARD_BACKUP',
        priority: 5,
        currencies: [{ currency: 'VND', minAmount: 1, maxAmount: 10_000_000 }],
      },
      {
        providerCode: 'SANDBOX_CARD',
        priority: 1,
        currencies: [{ currency: 'VND', minAmount: 10_000, maxAmount: 5_000_000 }],
      },
    ],
  };
  const chosen = (amount: number, currency = 'VND') => chooseProvider(card, currency, amount)?.provider.code ?? null;

  it('takes the smallest priority when both fit', () => expect(chosen(20_000)).to.equal('SANDBOX_CARD'));
  it('falls to the next provider when the first one’s limits do not take the amount', () => {
    expect(chosen(5_000)).to.equal('SANDBOX_CARD_BACKUP');
    expect(chosen(6_000_000)).to.equal('SANDBOX_CARD_BACKUP');
  });
  it('takes none when no provider takes the amount or the currency', () => {
    expect(chosen(20_000_000)).to.equal(null);
    expect(chosen(20_000, 'USD')).to.equal(null);
  });
  it('includes both limits (minAmount and maxAmount are inclusive)', () => {
    expect(chosen(10_000)).to.equal('SANDBOX_CARD');
    expect(chosen(5_000_000)).to.equal('SANDBOX_CARD');
  });
});
