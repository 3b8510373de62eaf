/**
 * The composition root: builds every adapter, service and router from the
 * configuration. main.ts runs it; the API tests and benchmarks build it too,
 * so they exercise exactly what production runs.
 */
import type { Express } from 'express';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import { createHttpApp } from './api/shared/http-app.js';
import { buildOpenApiDocument, type OpenApiOptions } from './api/shared/openapi.js';
import { registerOperationsOpenApi } from './api/shared/operations-openapi.js';
import { catalogRouter } from './api/shop/catalog-router.js';
import { registerShopOpenApi } from './api/shop/openapi.js';
import { operatorApi, operatorBasePath } from './api/shared/operator-api.js';
import { registerShopOperatorOpenApi } from './api/shop/operator-openapi.js';
import { operatorRouter } from './api/shop/operator-router.js';
import { purchaseRouter } from './api/shop/purchase-router.js';
import { shopBasePath, shopRouter } from './api/shop/router.js';
import { searchRouter } from './api/shop/search-router.js';
import { systemClock, type Clock } from './application/shared/clock.js';
import type { EventBus } from './application/shared/event-bus.js';
import type { EventStore } from './application/shared/event-store.js';
import { CampaignAdmin } from './application/shop/campaign-admin.js';
import { CategoryAdmin } from './application/shop/category-admin.js';
import { CatalogQueries } from './application/shop/catalog-queries.js';
import { ShopCredentials } from './application/shop/credentials.js';
import { MerchantAdmin } from './application/shop/merchant-admin.js';
import { PurchaseService } from './application/shop/purchase-service.js';
import { VoucherSearch } from './application/shop/voucher-search.js';
import { VoucherPoolAdmin } from './application/shop/voucher-pool-admin.js';
import type { Config } from './infrastructure/shared/config.js';
import { createKnex } from './infrastructure/shared/database.js';
import { createEventStore } from './infrastructure/shared/eventstore/create-event-store.js';
import { runInLogContext, type Logger } from './infrastructure/shared/logger.js';
import { createEventBus } from './infrastructure/shared/messaging/create-event-bus.js';
import { Relay } from './infrastructure/shared/messaging/relay.js';
import { httpRequestDuration, metricsRegistry } from './infrastructure/shared/metrics.js';
import { migrate } from './infrastructure/shared/migrations/index.js';
import { PostgresNumericIds } from './infrastructure/shared/numeric-ids.js';
import { ProjectionRunner } from './infrastructure/shared/projection-runner.js';
import type { Secrets } from './infrastructure/shared/secrets.js';
import { PostgresCatalogReadModel } from './infrastructure/shop/catalog-read-model.js';
import { PostgresChangeFeed } from './infrastructure/shared/read-model-changes.js';
import { AesGcmVoucherCodeCipher } from './infrastructure/shop/voucher-code-cipher.js';
import { PostgresVoucherSearchReadModel } from './infrastructure/shop/voucher-search-read-model.js';
import { catalogProjector } from './projections/shop/catalog.js';
import { reservationsProjector } from './projections/shop/reservations.js';
import { voucherInventoryProjector } from './projections/shop/voucher-inventory.js';
import { voucherSearchProjector } from './projections/shop/voucher-search.js';

export const projectors = [reservationsProjector, voucherInventoryProjector, catalogProjector, voucherSearchProjector];

/** The OpenAPI document served at /openapi.json: each interface registers its own routes, next to its routers. */
export const openApi: OpenApiOptions = {
  description: [
    'The voucher shop (`/api/v1`) and its operator API (`/operator/v1`).',
    'Every answer is the envelope `{code, message, data}`: `SUCCESS`/`Success` on success; on failure `data` is null (the operator API puts the offending field in `data.field`) and `message` says what was wrong.',
    'Amounts are integers in minor units; times are ISO 8601. Details and the resolved contradictions of the spec: docs/shop-api.md.',
  ].join('\n\n'),
  registrations: [registerShopOpenApi, registerShopOperatorOpenApi, registerOperationsOpenApi],
};

export interface Container {
  config: Config;
  knex: Knex;
  store: EventStore;
  bus: EventBus;
  relay: Relay;
  projections: ProjectionRunner;
  merchants: MerchantAdmin;
  campaigns: CampaignAdmin;
  categories: CategoryAdmin;
  pools: VoucherPoolAdmin;
  purchases: PurchaseService;
  credentials: ShopCredentials;
  catalog: CatalogQueries;
  search: VoucherSearch;
  app: Express;
  /** Starts the background roles this process runs (relay, projectors, expiry sweep). */
  startBackground(): Promise<void>;
  /** Stops background work and closes every connection, in dependency order. */
  stop(): Promise<void>;
}

export async function buildContainer(options: {
  config: Config;
  databaseUrl: string;
  secrets: Secrets;
  logger: Logger;
  clock?: Clock;
  /** What GET /metrics answers (default: this process's registry). */
  metrics?: Pick<Registry, 'contentType' | 'metrics'>;
}): Promise<Container> {
  const { config, secrets, logger } = options;
  const clock = options.clock ?? systemClock;
  const knex = createKnex(options.databaseUrl, 20);
  await migrate(knex);
  const store = createEventStore({ knex, eventStoreUrl: config.EVENTSTORE_URL, logger });
  const bus = await createEventBus(config, { store, knex, logger });
  const ids = new PostgresNumericIds(knex);

  const merchants = new MerchantAdmin({ store, ids, clock });
  const campaigns = new CampaignAdmin({ store, ids, clock });
  const categories = new CategoryAdmin({ store, ids, clock });
  const credentials = new ShopCredentials({ store, clock, clients: secrets.shopClients });
  const purchases = new PurchaseService({
    store,
    ids,
    clock,
    codes: new AesGcmVoucherCodeCipher(secrets.voucherCodeKey),
    settings: {
      idempotencyMode: config.SHOP_IDEMPOTENCY_MODE,
      reservationTtlSeconds: config.SHOP_RESERVATION_TTL_SECONDS,
      autoExpiry: config.SHOP_RESERVATION_AUTO_EXPIRY,
      dayUtcOffsetMinutes: config.SHOP_DAY_UTC_OFFSET_MINUTES,
    },
    logger,
  });
  // Pool admin commands go through the purchase executor, which holds the hot pool states.
  const pools = new VoucherPoolAdmin({ store, ids, clock, pools: purchases.pools });
  // Reads keep what they read in memory while this feed hears the projectors announce their changes; only a process
  // that serves the API listens (and warms its catalog): elsewhere reads go to the tables.
  const readModelChanges = new PostgresChangeFeed({ databaseUrl: options.databaseUrl, logger });
  const catalogReadModel = new PostgresCatalogReadModel(knex, readModelChanges, {
    sources: { catalog: catalogProjector.name, inventory: voucherInventoryProjector.name },
    cachedParts: config.SHOP_CATALOG_CACHED_PARTS,
    warm: true,
  });
  if (config.ROLES.includes('api')) readModelChanges.start();
  const catalog = new CatalogQueries({
    readModel: catalogReadModel,
    clock,
    dayUtcOffsetMinutes: config.SHOP_DAY_UTC_OFFSET_MINUTES,
  });
  const search = new VoucherSearch({
    readModel: new PostgresVoucherSearchReadModel(knex, readModelChanges, voucherSearchProjector.name),
    catalog,
    clock,
  });

  const relay = new Relay({ store, bus, knex, logger });
  const projections = new ProjectionRunner({ knex, store, bus, projectors, logger, clock });

  const app = createHttpApp({
    logger,
    metrics: options.metrics ?? metricsRegistry,
    requestDuration: httpRequestDuration,
    openApi: buildOpenApiDocument(openApi),
    runInLogContext,
    routers: [
      {
        path: shopBasePath,
        router: shopRouter({
          logger,
          routers: [
            purchaseRouter({ purchases, credentials }),
            searchRouter({ search, credentials }),
            catalogRouter({ catalog, credentials }),
          ],
        }),
      },
      {
        path: operatorBasePath,
        router: operatorApi({
          logger,
          operatorTokens: secrets.operatorTokens,
          routers: [operatorRouter({ logger, merchants, campaigns, categories, pools })],
        }),
      },
    ],
    ready: async () => {
      const database = await knex
        .raw('select 1')
        .then(() => true)
        .catch(() => false);
      return { ready: database, checks: { database } };
    },
  });

  let expiryTimer: NodeJS.Timeout | undefined;
  return {
    config,
    knex,
    store,
    bus,
    relay,
    projections,
    merchants,
    campaigns,
    categories,
    pools,
    purchases,
    credentials,
    catalog,
    search,
    app,
    async startBackground() {
      // Projectors first, so a rebuild on start finishes before the relay feeds them.
      if (config.ROLES.includes('projector')) await projections.start();
      if (config.ROLES.includes('relay')) relay.start();
      if (config.ROLES.includes('api') && config.SHOP_RESERVATION_AUTO_EXPIRY) {
        const sweep = () =>
          purchases
            .expireDue()
            .catch((err: unknown) => logger.error('reservation expiry sweep failed', { err }))
            .finally(() => {
              expiryTimer = setTimeout(sweep, 5_000);
              expiryTimer.unref();
            });
        void sweep();
      }
    },
    async stop() {
      clearTimeout(expiryTimer);
      await purchases.stop();
      await relay.stop();
      await projections.stop();
      await bus.close();
      await store.close();
      await readModelChanges.stop();
      await knex.destroy();
    },
  };
}
