/** The promotion checkout's secrets: its slice of the service's secrets (infrastructure/shared/secrets.ts). */
import { hexKeySecret, oldHexKeysSecret, type SecretValues } from '../shared/secrets.js';

export const checkoutSecrets = {
  /** 32-byte key (64 hex chars) encrypting promotion codes and pins at rest (events and the wallet table). */
  CHECKOUT_CODE_KEY: hexKeySecret('checkoutCodeKey'),
  /** Earlier code keys, comma separated: they still decrypt what they encrypted (a rotation re-encrypts nothing). */
  CHECKOUT_CODE_OLD_KEYS: oldHexKeysSecret('checkoutCodeOldKeys'),
};

export type CheckoutSecrets = SecretValues<typeof checkoutSecrets>;
