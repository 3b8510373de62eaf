/**
 * A paymentApiKey's lookup stream (paymentApiKey-<sha256 of the key>; docs/payments.md, "Keys and secrets"): the
 * terminal a key names, written with the merchant event that issued or revoked it, so that authenticating a request
 * reads one small stream. Pure.
 */
import type { PaymentApiKeyLookupEvent, PaymentMerchantEvent } from './events.js';

/** The key's lookup-stream event a merchant event implies, if any (written with it by the application). */
export function apiKeyLookupEventFor(
  event: PaymentMerchantEvent,
): { keyDigest: string; event: PaymentApiKeyLookupEvent } | null {
  switch (event.type) {
    case 'PaymentApiKeyIssued': {
      const { merchantCode, terminalId, apiKeyId, keyDigest, expiresAt, issuedAt } = event.data;
      return {
        keyDigest,
        event: {
          type: 'PaymentApiKeyClaimed',
          data: { merchantCode, terminalId, apiKeyId, expiresAt, claimedAt: issuedAt },
        },
      };
    }
    case 'PaymentApiKeyRevoked': {
      const { merchantCode, terminalId, apiKeyId, keyDigest, revokedAt } = event.data;
      return {
        keyDigest,
        event: { type: 'PaymentApiKeyLookupRevoked', data: { merchantCode, terminalId, apiKeyId, revokedAt } },
      };
    }
    default:
      return null;
  }
}

// ---- authentication by key ----

export type PaymentApiKeyLookup = {
  merchantCode: string;
  terminalId: string;
  apiKeyId: string;
  expiresAt: string | null;
  revoked: boolean;
} | null;

export function evolvePaymentApiKeyLookup(
  state: PaymentApiKeyLookup,
  event: PaymentApiKeyLookupEvent,
): PaymentApiKeyLookup {
  switch (event.type) {
    case 'PaymentApiKeyClaimed': {
      const { merchantCode, terminalId, apiKeyId, expiresAt } = event.data;
      return { merchantCode, terminalId, apiKeyId, expiresAt, revoked: false };
    }
    case 'PaymentApiKeyLookupRevoked':
      return state && { ...state, revoked: true };
  }
}

/** Whether a presented key may be used at `now`: known, not revoked, not expired. */
export function paymentApiKeyUsable(
  lookup: PaymentApiKeyLookup,
  now: string,
): lookup is NonNullable<PaymentApiKeyLookup> {
  if (!lookup || lookup.revoked) return false;
  return lookup.expiresAt === null || Date.parse(now) < Date.parse(lookup.expiresAt);
}
