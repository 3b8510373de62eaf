/**
 * The payment hub's module, infrastructure half: its configuration slice, its secrets and how its services are built
 * from the shared adapters. The only file of infrastructure/payments the composition root imports
 * (docs/conventions.md, "Modules").
 */
import {
  PaymentMerchantDirectory,
  PaymentOnboarding,
  RequestSignatures,
  TransactionService,
  type PaymentsServices,
} from '../../application/payments/index.js';
import type { BuiltContext, ContextDeps } from '../shared/context.js';
import { AesGcmSecretCipher } from '../shared/secret-cipher.js';
import type { PaymentsConfig } from './config.js';
import type { PaymentsSecrets } from './secrets.js';

export { paymentsConfig, type PaymentsConfig } from './config.js';
export { paymentsSecrets, type PaymentsSecrets } from './secrets.js';

/** Needs only the event store's side of the shared adapters (so fast tests build it on an in-memory store too). */
export function buildPayments(
  deps: Pick<ContextDeps<PaymentsConfig, PaymentsSecrets>, 'config' | 'secrets' | 'store' | 'clock' | 'ports'>,
): BuiltContext<PaymentsServices> {
  const { config, secrets, store, clock, ports } = deps;
  const cipher = new AesGcmSecretCipher(
    'payments-merchant-secret',
    secrets.PAYMENTS_SECRETS_KEY,
    secrets.PAYMENTS_SECRETS_OLD_KEYS,
  );
  const directory = new PaymentMerchantDirectory({ store, clock });
  return {
    services: {
      directory,
      onboarding: new PaymentOnboarding({
        store,
        clock,
        cipher,
        directory,
        secretOverlapSeconds: config.PAYMENTS_SECRET_OVERLAP_SECONDS,
      }),
      signatures: new RequestSignatures({
        directory,
        cipher,
        clock,
        timestampWindowSeconds: config.PAYMENTS_TIMESTAMP_WINDOW_SECONDS,
      }),
      transactions: new TransactionService({
        store,
        clock,
        directory,
        // The identity context's directory, reached while serving (never while building).
        users: () => ports.get('users'),
        settings: {
          abandonAfterSeconds: config.PAYMENTS_ABANDON_AFTER_SECONDS,
          holdTimeoutSeconds: config.PAYMENTS_HOLD_TIMEOUT_SECONDS,
        },
      }),
    },
    jobs: [],
    stop: async () => {},
  };
}
