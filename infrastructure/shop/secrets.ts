/** The voucher shop's secrets: its slice of the service's secrets (infrastructure/shared/secrets.ts; README, "Configuration"). */
import { hexKeySecret, oldHexKeysSecret, type SecretValues } from '../shared/secrets.js';

// The dev-secrets.json keys predate the per-context slices: developers' files hold them, so they stay.
export const shopSecrets = {
  /** 32-byte key (64 hex chars) encrypting voucher codes at rest. */
  VOUCHER_CODE_KEY: hexKeySecret('voucherCodeKey'),
  /** Earlier voucher code keys, comma separated (64 hex characters each): they still decrypt what they encrypted. */
  VOUCHER_CODE_OLD_KEYS: oldHexKeysSecret('voucherCodeOldKeys'),
};

export type ShopSecrets = SecretValues<typeof shopSecrets>;
