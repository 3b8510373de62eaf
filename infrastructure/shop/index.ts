/**
 * The voucher shop's module, infrastructure half: its configuration slice, its secrets and how its services are built
 * from the shared adapters. The only file of infrastructure/shop the composition root imports (docs/conventions.md,
 * "Modules").
 * Its read-model adapters query the tables of the shop's projectors and listen for their announcements, so they name
 * them through projections/shop/index.ts.
 */
import {
  CampaignAdmin,
  CampaignSaleSync,
  campaignSaleReactor,
  CatalogQueries,
  CategoryAdmin,
  MerchantAdmin,
  PurchaseService,
  ShopCredentials,
  VoucherPoolAdmin,
  VoucherSearch,
  vouchersToWalletReactor,
  type ShopServices,
} from '../../application/shop/index.js';
import { catalogProjector, voucherInventoryProjector, voucherSearchProjector } from '../../projections/shop/index.js';
import { absentReadModel } from '../shared/absent-read-model.js';
import { repeatingJob, type BuiltContext, type CommandDeps, type ContextDeps } from '../shared/context.js';
import { PostgresCatalogReadModel } from './catalog-read-model.js';
import type { ShopConfig } from './config.js';
import { AesGcmVoucherCodeCipher } from './voucher-code-cipher.js';
import { PostgresVoucherSearchReadModel } from './voucher-search-read-model.js';

import type { ShopSecrets } from './secrets.js';

export { shopConfig, type ShopConfig } from './config.js';
export { shopSecrets, type ShopSecrets } from './secrets.js';
export { seedDemo, shopDemo, type DemoData, type DemoServices } from './demo-seed.js';

/** The shop's command side: everything but its read models, so it needs no database of its own (fast tests build it on an in-memory store). */
export function buildShopCommands(
  deps: Pick<ContextDeps<ShopConfig, ShopSecrets>, 'config' | 'secrets' | 'store' | 'ids' | 'clock' | 'logger'>,
) {
  const { config, secrets, store, ids, clock, logger } = deps;
  const codes = new AesGcmVoucherCodeCipher(secrets.VOUCHER_CODE_KEY, secrets.VOUCHER_CODE_OLD_KEYS);
  const purchases = new PurchaseService({
    store,
    ids,
    clock,
    codes,
    settings: {
      idempotencyMode: config.SHOP_IDEMPOTENCY_MODE,
      reservationTtlSeconds: config.SHOP_RESERVATION_TTL_SECONDS,
      autoExpiry: config.SHOP_RESERVATION_AUTO_EXPIRY,
      dayUtcOffsetMinutes: config.SHOP_DAY_UTC_OFFSET_MINUTES,
      maxVouchersPerReservation: config.SHOP_MAX_VOUCHERS_PER_RESERVATION,
    },
    logger,
  });
  // A campaign's sale terms are copied into its pools, where reserve decides (docs/shop-purchase.md, "On sale").
  const sales = new CampaignSaleSync({ store, pools: purchases.pools, clock, logger });
  return {
    merchants: new MerchantAdmin({ store, ids, clock }),
    campaigns: new CampaignAdmin({ store, ids, clock, sales }),
    categories: new CategoryAdmin({ store, ids, clock }),
    credentials: new ShopCredentials({ store, clock }),
    purchases,
    // Pool admin commands go through the purchase executor, which holds the hot pool states.
    pools: new VoucherPoolAdmin({ store, ids, clock, pools: purchases.pools, sales }),
    sales,
    codes,
  };
}

type ReadModels = {
  catalog: ConstructorParameters<typeof CatalogQueries>[0]['readModel'];
  search: ConstructorParameters<typeof VoucherSearch>[0]['readModel'];
};

/** The shop on the read models `readModels` makes: PostgreSQL's (buildShop), or none (buildShopCommandSide). */
function assembleShop(
  deps: CommandDeps<ShopConfig, ShopSecrets>,
  readModels: () => ReadModels,
): BuiltContext<ShopServices> {
  const { config, clock, logger } = deps;
  const { sales, codes, ...commands } = buildShopCommands(deps);
  const { purchases } = commands;
  const read = readModels();
  const catalog = new CatalogQueries({
    readModel: read.catalog,
    clock,
    dayUtcOffsetMinutes: config.SHOP_DAY_UTC_OFFSET_MINUTES,
  });
  const search = new VoucherSearch({ readModel: read.search, catalog, clock });
  const jobs = config.SHOP_RESERVATION_AUTO_EXPIRY
    ? [
        repeatingJob({
          name: 'reservation expiry sweep',
          role: 'api',
          intervalMs: 5_000,
          logger,
          work: () => purchases.expireDue(),
        }),
      ]
    : [];
  return {
    services: { ...commands, catalog, search },
    jobs,
    reactors: [campaignSaleReactor(sales), vouchersToWalletReactor({ store: deps.store, codes, ports: deps.ports })],
    // The checkout takes the keys the shop issues (X-Promotion-API-Key).
    provides: { merchantApiKeys: commands.credentials },
    stop: () => purchases.stop(),
  };
}

export async function buildShop(deps: ContextDeps<ShopConfig, ShopSecrets>): Promise<BuiltContext<ShopServices>> {
  const { config, knex, changes } = deps;
  // Reads keep what they read in memory while the change feed hears the projectors announce their changes; only a
  // process that serves the API listens (and warms its catalog): elsewhere reads go to the tables.
  return assembleShop(deps, () => ({
    catalog: new PostgresCatalogReadModel(knex, changes, {
      sources: { catalog: catalogProjector.name, inventory: voucherInventoryProjector.name },
      cachedParts: config.SHOP_CATALOG_CACHED_PARTS,
      warm: true,
    }),
    search: new PostgresVoucherSearchReadModel(knex, changes, voucherSearchProjector.name),
  }));
}

/** The command side alone (context-module.ts, `commandSide`): the catalog and the search have no read model. */
export const buildShopCommandSide = (deps: CommandDeps<ShopConfig, ShopSecrets>): BuiltContext<ShopServices> =>
  assembleShop(deps, () => ({
    catalog: absentReadModel('the shop catalog'),
    search: absentReadModel('the voucher search'),
  }));
