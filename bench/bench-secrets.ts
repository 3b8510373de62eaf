/** The secrets of a benchmark's deployment: fresh keys per run, the bench operator (bench/gateway-party.ts's peer). */
import { randomBytes } from 'node:crypto';
import type { Secrets } from '../container.js';
import { newSigningKeyJwk, readSigningKeys } from '../infrastructure/identity/index.js';

export function benchSecrets(): Secrets {
  return {
    OPERATOR_TOKENS: [{ name: 'bench', token: 'bench-operator-token-0123456789abcdef' }],
    VOUCHER_CODE_KEY: randomBytes(32).toString('hex'),
    VOUCHER_CODE_OLD_KEYS: [],
    CHECKOUT_CODE_KEY: randomBytes(32).toString('hex'),
    CHECKOUT_CODE_OLD_KEYS: [],
    ORDERS_SECRET_KEY_KEY: randomBytes(32).toString('hex'),
    ORDERS_SECRET_KEY_OLD_KEYS: [],
    PAYMENTS_SECRETS_KEY: randomBytes(32).toString('hex'),
    PAYMENTS_SECRETS_OLD_KEYS: [],
    IDENTITY_SIGNING_KEYS: readSigningKeys(JSON.stringify([newSigningKeyJwk()])),
  };
}

/** The same secrets as environment variables, for a benchmark that also starts main.ts (the roles it runs apart). */
export function benchSecretsEnv(): Record<string, string> {
  return {
    OPERATOR_TOKENS: 'bench=bench-operator-token-0123456789abcdef',
    VOUCHER_CODE_KEY: randomBytes(32).toString('hex'),
    CHECKOUT_CODE_KEY: randomBytes(32).toString('hex'),
    ORDERS_SECRET_KEY_KEY: randomBytes(32).toString('hex'),
    PAYMENTS_SECRETS_KEY: randomBytes(32).toString('hex'),
    IDENTITY_SIGNING_KEYS: JSON.stringify([newSigningKeyJwk()]),
  };
}
