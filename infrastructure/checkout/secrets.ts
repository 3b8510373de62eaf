/** The promotion checkout's secrets: its slice of the service's secrets (infrastructure/shared/secrets.ts). */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { weakHexKey, type Secret, type SecretValues } from '../shared/secrets.js';

const hexKey = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)');

export const checkoutSecrets = {
  /** 32-byte key (64 hex chars) encrypting promotion codes and pins at rest (events and the wallet table). */
  CHECKOUT_CODE_KEY: {
    rule: hexKey,
    dev: { key: 'checkoutCodeKey', generate: () => randomBytes(32).toString('hex') },
    weak: weakHexKey,
  },
  /** Earlier code keys, comma separated: they still decrypt what they encrypted (a rotation re-encrypts nothing). */
  CHECKOUT_CODE_OLD_KEYS: {
    rule: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .pipe(z.array(hexKey)),
    dev: { key: 'checkoutCodeOldKeys', generate: () => '' },
    optional: true,
  },
} satisfies Record<string, Secret<string> | Secret<string[]>>;

export type CheckoutSecrets = SecretValues<typeof checkoutSecrets>;
