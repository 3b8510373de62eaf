/** The voucher shop's secrets: its slice of the service's secrets (infrastructure/shared/secrets.ts; README, "Configuration"). */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Secret, SecretValues } from '../shared/secrets.js';

// The dev-secrets.json keys predate the per-context slices: developers' files hold them, so they stay.
export const shopSecrets = {
  /** 32-byte key (64 hex chars) encrypting voucher codes at rest. */
  VOUCHER_CODE_KEY: {
    rule: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)'),
    dev: { key: 'voucherCodeKey', generate: () => randomBytes(32).toString('hex') },
  },
} satisfies Record<string, Secret<string>>;

export type ShopSecrets = SecretValues<typeof shopSecrets>;
