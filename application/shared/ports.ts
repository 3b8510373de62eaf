/**
 * Ports one context implements for the others (docs/conventions.md, "Modules": a context imports no other context).
 * A context provides its ports from its build (`provides`); every context reaches them through `deps.ports`, once
 * the composition root built them all (so only while serving requests or running jobs, never during a build).
 * Add a port here with the interface it is typed by, itself in `application/shared`.
 */
import type { AccessTokenVerifier } from './access-tokens.js';
import type { ConsentLookup } from './consents.js';
import type { MerchantApiKeys } from './merchant-api-keys.js';
import type { PromotionWalletPort } from './promotion-wallet.js';
import type { UserLookup } from './user-lookup.js';

export interface SharedPorts {
  /** Checks users' access tokens (identity). */
  accessTokens: AccessTokenVerifier;
  /** Users' current consent per mini-app (identity). */
  consents: ConsentLookup;
  /** Checks merchants' X-Promotion-Api-Key (the shop, which issues them). */
  merchantApiKeys: MerchantApiKeys;
  /** Issues bought vouchers into users' wallets (the checkout). */
  promotionWallet: PromotionWalletPort;
  /** Finds host-app users by id (identity). */
  users: UserLookup;
}

/** What contexts read their ports through. */
export interface PortDirectory {
  /** The port, or an error naming the context that should provide it. */
  get<K extends keyof SharedPorts>(name: K): SharedPorts[K];
}
