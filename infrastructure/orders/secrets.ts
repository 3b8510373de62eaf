/** The order view's secrets: its slice of the service's secrets (infrastructure/shared/secrets.ts; README). */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { weakHexKey, type Secret, type SecretValues } from '../shared/secrets.js';

const hexKey = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)');

export const ordersSecrets = {
  /** 32-byte key (64 hex chars) encrypting merchants' webhook secretKeys at rest. */
  ORDERS_SECRET_KEY_KEY: {
    rule: hexKey,
    dev: { key: 'ordersSecretKeyKey', generate: () => randomBytes(32).toString('hex') },
    weak: weakHexKey,
  },
  /** Earlier such keys, comma separated: they still decrypt the secretKeys they encrypted. */
  ORDERS_SECRET_KEY_OLD_KEYS: {
    rule: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .pipe(z.array(hexKey)),
    dev: { key: 'ordersSecretKeyOldKeys', generate: () => '' },
    optional: true,
  },
} satisfies Record<string, Secret<string> | Secret<string[]>>;

export type OrdersSecrets = SecretValues<typeof ordersSecrets>;
