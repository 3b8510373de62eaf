/**
 * The payment hub's fast API specs share this scene (tests/api/fast/payments-*.test.ts; docs/testing.md): one merchant
 * `m1` with its secretKey, terminal T1 with a WALLET method on the sandbox wallet, and the lookup of its
 * paymentApiKey, as streams of the in-memory store, at a fixed time.
 */
import { secretBinding } from '../../../application/payments/request-signatures.js';
import { secretDigest } from '../../../application/shared/signatures.js';
import type { TransactionDetails } from '../../../domain/payments/transaction-details.js';
import { AesGcmSecretCipher } from '../../../infrastructure/shared/secret-cipher.js';
import { existingStream } from '../../support/api-spec.js';
import { fastAppSecrets } from '../../support/fast-app.js';

export const now = '2026-03-01T10:00:00.000Z';
/** X-Timestamp of the signed requests: `now` in Unix seconds. */
export const timestamp = String(Date.parse(now) / 1000);
export const secretKey = 'phs_fast-spec-secret-0123456789abcdefghijklmnop';
export const apiKey = 'phk_fastspeckey0123456789abcdefghijklmnopqr';
const cipher = new AesGcmSecretCipher('payments-merchant-secret', fastAppSecrets.PAYMENTS_SECRETS_KEY);

/** Merchant m1 whose secretKey is `secret` (the published vectors' key, for one: docs/payments-signing.md). */
export const merchantWithSecret = (secret: string) =>
  existingStream('paymentMerchant-m1', [
    {
      type: 'PaymentMerchantOnboarded',
      data: {
        merchantCode: 'm1',
        name: 'Shop One',
        ipnUrl: 'https://m1.example/ipn',
        maxIpnRetries: 3,
        onboardedBy: 'alice',
        onboardedAt: now,
      },
    },
    {
      type: 'MerchantSecretKeyIssued',
      data: {
        merchantCode: 'm1',
        secretId: 's1',
        encryptedSecret: cipher.encrypt(secret, secretBinding('m1', 's1')),
        previousSecretId: null,
        previousValidUntil: null,
        issuedBy: 'alice',
        issuedAt: now,
      },
    },
    {
      type: 'TerminalAdded',
      data: { merchantCode: 'm1', terminalId: 'T1', name: 'Main', addedBy: 'alice', addedAt: now },
    },
    {
      type: 'PaymentMethodConfigured',
      data: {
        merchantCode: 'm1',
        terminalId: 'T1',
        paymentMethodId: 'pm',
        method: {
          code: 'WALLET',
          type: 'WALLET',
          category: 'EWALLET',
          names: { vi: 'Ví', en: 'E-wallet' },
          iconUrl: 'https://cdn.example/w.png',
          supportsTokenization: false,
          requiresRedirect: true,
          verificationAmount: null,
          sortOrder: 1,
          autoCapture: false,
          enabled: true,
          providers: [
            {
              providerCode: 'SANDBOX_WALLET',
              priority: 1,
              currencies: [{ currency: 'VND', minAmount: 1, maxAmount: 1e9 }],
            },
          ],
        },
        configuredBy: 'alice',
        configuredAt: now,
      },
    },
  ]);
export const merchant = merchantWithSecret(secretKey);
export const keyLookup = existingStream(`paymentApiKey-${secretDigest(apiKey)}`, [
  {
    type: 'PaymentApiKeyClaimed',
    data: { merchantCode: 'm1', terminalId: 'T1', apiKeyId: 'k1', expiresAt: null, claimedAt: now },
  },
]);

export const walletProviderId = '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02';

/** A wallet transaction's details as its TransactionInitiated event carries them. */
export const transactionDetails = (
  transactionId: string,
  overrides: Partial<TransactionDetails> = {},
): TransactionDetails => ({
  transactionId,
  merchantCode: 'm1',
  merchantName: 'Shop One',
  terminalId: 'T1',
  orderId: 'o1',
  referenceId: 'r1',
  amount: 100_000,
  currency: 'VND',
  description: 'order o1',
  paymentMethod: { id: 'pm', code: 'WALLET', name: 'E-wallet', type: 'WALLET' },
  provider: { id: walletProviderId, code: 'SANDBOX_WALLET', name: 'Sandbox wallet' },
  cardType: '3D',
  skipHolding: true,
  userPaymentMethodId: null,
  sellerMerchantId: null,
  businessUnitId: null,
  branchId: null,
  returnUrl: null,
  providerData: null,
  orderInfo: null,
  payer: { kind: 'NONE' },
  miniAppId: null,
  expiresAt: '2026-03-01T14:00:00.000Z',
  createdAt: now,
  ...overrides,
});
