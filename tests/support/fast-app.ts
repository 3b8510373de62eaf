/**
 * The service's HTTP app over ports only (an in-memory event store, ids and a fixed clock), for fast API specs
 * (docs/testing.md). The one place that builds it: the application services wired as container.ts wires them, with
 * what needs knex (read models, catalog and search routers, projections, relay) left out. Keep it in step with
 * container.ts.
 */
import type { Express } from 'express';
import { checkoutOperatorRouter } from '../../api/checkout/index.js';
import { operatorApi } from '../../api/shared/operator-api.js';
import { createHttpApp } from '../../api/shared/http-app.js';
import { operatorRouter } from '../../api/shop/operator-router.js';
import { purchaseRouter } from '../../api/shop/purchase-router.js';
import { shopRouter } from '../../api/shop/router.js';
import { PromotionMasterAdmin } from '../../application/checkout/index.js';
import type { Clock } from '../../application/shared/clock.js';
import type { EventStore } from '../../application/shared/event-store.js';
import type { NumericIdGenerator } from '../../application/shared/ids.js';
import { CampaignAdmin } from '../../application/shop/campaign-admin.js';
import { CategoryAdmin } from '../../application/shop/category-admin.js';
import { ShopCredentials } from '../../application/shop/credentials.js';
import { MerchantAdmin } from '../../application/shop/merchant-admin.js';
import { PurchaseService } from '../../application/shop/purchase-service.js';
import { VoucherPoolAdmin } from '../../application/shop/voucher-pool-admin.js';
import { loadConfig } from '../../container.js';
import { createLogger } from '../../infrastructure/shared/logger.js';
import { httpRequestDuration, metricsRegistry } from '../../infrastructure/shared/metrics.js';
import { AesGcmVoucherCodeCipher } from '../../infrastructure/shop/voucher-code-cipher.js';
import { operatorToken, shopClient } from '../api/support.js';

/** The credentials the fast app accepts: the same as the PostgreSQL-backed test app's (tests/support/app.ts). */
export const fastAppSecrets = {
  shopClients: [shopClient],
  operatorTokens: [{ name: 'alice', token: operatorToken }],
  /** Fixed, so that a test can give events holding voucher codes encrypted with it. */
  voucherCodeKey: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
};

export interface FastAppDeps {
  store: EventStore;
  ids: NumericIdGenerator;
  clock: Clock;
  /** Configuration overrides, as startTestApp takes them (e.g. { SHOP_IDEMPOTENCY_MODE: 'reject' }). */
  env?: Record<string, string>;
}

export function buildFastApp({ store, ids, clock, env }: FastAppDeps): Express {
  const config = loadConfig({ NODE_ENV: 'test', ...env });
  const secrets = fastAppSecrets;
  const logger = createLogger('error');

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
  const pools = new VoucherPoolAdmin({ store, ids, clock, pools: purchases.pools });
  const promotionMasters = new PromotionMasterAdmin({ store, ids, clock });

  return createHttpApp({
    logger,
    metrics: metricsRegistry,
    requestDuration: httpRequestDuration,
    routers: [
      { path: '/api/v1', router: shopRouter({ logger, routers: [purchaseRouter({ purchases, credentials })] }) },
      {
        path: '/operator/v1',
        router: operatorApi({
          logger,
          operatorTokens: secrets.operatorTokens,
          routers: [
            operatorRouter({ logger, merchants, campaigns, categories, pools }),
            checkoutOperatorRouter({ logger, promotionMasters }),
          ],
        }),
      },
    ],
    ready: async () => ({ ready: true, checks: {} }),
  });
}
