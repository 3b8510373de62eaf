/** The order view's secrets: its slice of the service's secrets (infrastructure/shared/secrets.ts; README). */
import { hexKeySecret, oldHexKeysSecret, type SecretValues } from '../shared/secrets.js';

export const ordersSecrets = {
  /** 32-byte key (64 hex chars) encrypting merchants' webhook secretKeys at rest. */
  ORDERS_SECRET_KEY_KEY: hexKeySecret('ordersSecretKeyKey'),
  /** Earlier such keys, comma separated: they still decrypt the secretKeys they encrypted. */
  ORDERS_SECRET_KEY_OLD_KEYS: oldHexKeysSecret('ordersSecretKeyOldKeys'),
};

export type OrdersSecrets = SecretValues<typeof ordersSecrets>;
