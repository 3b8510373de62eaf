/**
 * The promotion checkout's module, infrastructure half: its configuration slice, its secrets and how its services
 * are built from the shared adapters. The only file of infrastructure/checkout the composition root imports
 * (docs/conventions.md, "Modules"). Its wallet read model queries the tables of its projectors, named through
 * projections/checkout/index.ts.
 */
import {
  allotmentReactor,
  ApplicableQuery,
  CheckoutService,
  checkoutTimerHandlers,
  PromotionMasterAdmin,
  PromotionWallet,
  type CheckoutServices,
  type WalletReadModel,
} from '../../application/checkout/index.js';
import { checkoutTimersTable, timerKinds } from '../../projections/checkout/index.js';
import type { MerchantApiKeys } from '../../application/shared/merchant-api-keys.js';
import { absentReadModel } from '../shared/absent-read-model.js';
import type { BuiltContext, CommandDeps, ContextDeps } from '../shared/context.js';
import { AesGcmSecretCipher } from '../shared/secret-cipher.js';
import { timerJob } from '../shared/timer-job.js';
import type { CheckoutConfig } from './config.js';
import type { CheckoutSecrets } from './secrets.js';
import { PostgresWalletReadModel } from './wallet-read-model.js';

export { checkoutConfig, type CheckoutConfig } from './config.js';
export { checkoutSecrets, type CheckoutSecrets } from './secrets.js';

type ServiceDeps = Pick<ContextDeps<CheckoutConfig, CheckoutSecrets>, 'config' | 'secrets' | 'store' | 'ids' | 'clock'>;

/** The command side and the queries on a given wallet read model (fast tests build it on an in-memory store). */
export function buildCheckoutServices(
  deps: ServiceDeps & { walletReadModel: WalletReadModel; merchantKeys: MerchantApiKeys },
): CheckoutServices {
  const { config, secrets, store, ids, clock } = deps;
  const codes = new AesGcmSecretCipher('checkout-code', secrets.CHECKOUT_CODE_KEY, secrets.CHECKOUT_CODE_OLD_KEYS);
  return {
    promotionMasters: new PromotionMasterAdmin({ store, ids, clock }),
    wallet: new PromotionWallet({ store, ids, clock, codes }),
    checkout: new CheckoutService({
      store,
      clock,
      codes,
      settings: { reservationTtlSeconds: config.CHECKOUT_RESERVATION_TTL_SECONDS },
    }),
    applicable: new ApplicableQuery({ wallet: deps.walletReadModel, clock, codes }),
    merchantKeys: deps.merchantKeys,
  };
}

/** Its services on `walletReadModel`, with the port and the process manager they give the other contexts. */
function assembleCheckout(
  deps: CommandDeps<CheckoutConfig, CheckoutSecrets>,
  walletReadModel: WalletReadModel,
): BuiltContext<CheckoutServices> {
  const services = buildCheckoutServices({
    ...deps,
    walletReadModel,
    // The shop issues the keys; its port is there once every context is built (only requests use it).
    merchantKeys: { check: (headers) => deps.ports.get('merchantApiKeys').check(headers) },
  });
  return {
    services,
    jobs: [],
    // The shop's process manager issues bought vouchers into wallets through this port.
    provides: { promotionWallet: services.wallet },
    reactors: [allotmentReactor(services.wallet)],
    stop: async () => {},
  };
}

export function buildCheckout(deps: ContextDeps<CheckoutConfig, CheckoutSecrets>): BuiltContext<CheckoutServices> {
  const built = assembleCheckout(deps, new PostgresWalletReadModel(deps.knex));
  const { services } = built;
  const timers = timerJob({
    table: checkoutTimersTable,
    handlers: checkoutTimerHandlers({ wallet: services.wallet, checkout: services.checkout, kinds: timerKinds }),
    knex: deps.knex,
    clock: deps.clock,
    logger: deps.logger,
  });
  return { ...built, jobs: [timers] };
}

/** The command side alone (context-module.ts, `commandSide`): `applicable` has no wallet read model, nor timers. */
export const buildCheckoutCommandSide = (
  deps: CommandDeps<CheckoutConfig, CheckoutSecrets>,
): BuiltContext<CheckoutServices> => assembleCheckout(deps, absentReadModel('the checkout wallet'));
export { checkoutDemo, seedCheckoutDemo, type CheckoutDemoData } from './demo-seed.js';
