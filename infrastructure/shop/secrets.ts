/** The voucher shop's secrets: its slice of the service's secrets (infrastructure/shared/secrets.ts; README, "Configuration"). */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { weakHexKey, type Secret, type SecretValues } from '../shared/secrets.js';

// The dev-secrets.json keys predate the per-context slices: developers' files hold them, so they stay.
export const shopSecrets = {
  /** 32-byte key (64 hex chars) encrypting voucher codes at rest. */
  VOUCHER_CODE_KEY: {
    rule: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)'),
    dev: { key: 'voucherCodeKey', generate: () => randomBytes(32).toString('hex') },
    weak: weakHexKey,
  },
  /** Earlier voucher code keys, comma separated (64 hex characters each): they still decrypt what they encrypted. */
  VOUCHER_CODE_OLD_KEYS: {
    rule: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[0-9a-fA-F]{64}$/, 'each key is 64 hex characters (32 bytes)'))),
    dev: { key: 'voucherCodeOldKeys', generate: () => '' },
    optional: true,
  },
} satisfies Record<string, Secret<string> | Secret<string[]>>;

export type ShopSecrets = SecretValues<typeof shopSecrets>;
