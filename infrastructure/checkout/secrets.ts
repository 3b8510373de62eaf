/** The promotion checkout's secrets: its slice of the service's secrets (none; infrastructure/shared/secrets.ts). */
import type { SecretValues } from '../shared/secrets.js';

export const checkoutSecrets = {};

export type CheckoutSecrets = SecretValues<typeof checkoutSecrets>;
