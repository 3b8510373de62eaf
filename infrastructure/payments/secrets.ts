/**
 * The payment hub's secrets: its slice of the service's secrets (infrastructure/shared/secrets.ts; README,
 * "Configuration"). Merchants' secretKeys are encrypted at rest under PAYMENTS_SECRETS_KEY
 * (AES-256-GCM, infrastructure/shared/secret-cipher.ts); earlier keys in PAYMENTS_SECRETS_OLD_KEYS still
 * decrypt what they encrypted, so the encryption key rotates without rewriting the log.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { weakHexKey, type Secret, type SecretValues } from '../shared/secrets.js';

const hexKey = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)');

export const paymentsSecrets = {
  PAYMENTS_SECRETS_KEY: {
    rule: hexKey,
    dev: { key: 'paymentsSecretsKey', generate: () => randomBytes(32).toString('hex') },
    weak: weakHexKey,
  },
  PAYMENTS_SECRETS_OLD_KEYS: {
    rule: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .pipe(z.array(hexKey)),
    dev: { key: 'paymentsSecretsOldKeys', generate: () => '' },
    optional: true,
  },
} satisfies Record<string, Secret<string> | Secret<string[]>>;

export type PaymentsSecrets = SecretValues<typeof paymentsSecrets>;
