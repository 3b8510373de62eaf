/**
 * The payment hub's secrets: its slice of the service's secrets (infrastructure/shared/secrets.ts; README,
 * "Configuration"). Merchants' secretKeys and saved cards' provider tokens are encrypted at rest under
 * PAYMENTS_SECRETS_KEY (AES-256-GCM, infrastructure/shared/secret-cipher.ts); earlier keys in PAYMENTS_SECRETS_OLD_KEYS
 * still decrypt what they encrypted, so the encryption key rotates without rewriting the log.
 */
import { hexKeySecret, oldHexKeysSecret, type SecretValues } from '../shared/secrets.js';

export const paymentsSecrets = {
  PAYMENTS_SECRETS_KEY: hexKeySecret('paymentsSecretsKey'),
  PAYMENTS_SECRETS_OLD_KEYS: oldHexKeysSecret('paymentsSecretsOldKeys'),
};

export type PaymentsSecrets = SecretValues<typeof paymentsSecrets>;
