/**
 * The service's HTTP app over ports only (an in-memory event store, ids and a fixed clock), for fast API specs
 * (docs/testing.md). The one place that builds it: each context's command side from its own builder
 * (buildShopCommands, buildCheckout, buildGateway), the gateway in front of the shop, the payment hub, the checkout
 * and the order view accepting testGatewayClient (tests/support/gateway.ts), with what needs knex (read models,
 * catalog and search routers, projections, relay) left out: a route reading one answers 500.
 */
import type { Express } from 'express';
import { Router } from 'express';
import { checkoutApi } from '../../api/checkout/index.js';
import { ordersApi, ordersOperatorRouter } from '../../api/orders/index.js';
import { identityApi } from '../../api/identity/index.js';
import { paymentsApi, paymentsBasePath, paymentsGatewayFront } from '../../api/payments/index.js';
import { gatewayApi, gatewayGuard } from '../../api/gateway/index.js';
import { shopGatewayFront } from '../../api/shop/gateway-front.js';
import type { GatewayFront } from '../../api/shared/gateway-front.js';
import { CustomerAccessPolicy, OrderQueries } from '../../application/orders/index.js';
import { operatorApi } from '../../api/shared/operator-api.js';
import { createHttpApp } from '../../api/shared/http-app.js';
import { operatorRouter } from '../../api/shop/operator-router.js';
import { purchaseRouter } from '../../api/shop/purchase-router.js';
import { shopRouter } from '../../api/shop/router.js';
import type { Clock } from '../../application/shared/clock.js';
import type { EventStore } from '../../application/shared/event-store.js';
import type { NumericIdGenerator } from '../../application/shared/ids.js';
import { loadConfig, type Secrets } from '../../container.js';
import { buildCheckoutServices } from '../../infrastructure/checkout/index.js';
import { buildOrderCommands } from '../../infrastructure/orders/index.js';
import { buildIdentity, newSigningKeyJwk, readSigningKeys } from '../../infrastructure/identity/index.js';
import { buildGateway } from '../../infrastructure/gateway/index.js';
import { buildPaymentsCommands } from '../../infrastructure/payments/index.js';
import { ProvidedPorts } from '../../infrastructure/shared/context.js';
import { InMemoryEventStore } from '../../infrastructure/shared/eventstore/in-memory-event-store.js';
import { createLogger } from '../../infrastructure/shared/logger.js';
import { httpRequestDuration, metricsRegistry } from '../../infrastructure/shared/metrics.js';
import { buildShopCommands } from '../../infrastructure/shop/index.js';
import { operatorToken } from '../api/support.js';
import { registerTestGatewayClient, testRateLimits } from './gateway.js';

/** The credentials the fast app accepts: the same as the PostgreSQL-backed test app's (tests/support/app.ts). */
export const fastAppSecrets: Secrets = {
  OPERATOR_TOKENS: [{ name: 'alice', token: operatorToken }],
  /** Fixed, so that a test can give events holding voucher codes encrypted with it. */
  VOUCHER_CODE_KEY: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
  VOUCHER_CODE_OLD_KEYS: [],
  CHECKOUT_CODE_KEY: '1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100',
  CHECKOUT_CODE_OLD_KEYS: [],
  IDENTITY_SIGNING_KEYS: readSigningKeys(JSON.stringify([newSigningKeyJwk()])),
  ORDERS_SECRET_KEY_KEY: '202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f',
  ORDERS_SECRET_KEY_OLD_KEYS: [],
  /** Fixed too, so that a test can give merchant events holding a secretKey encrypted with it. */
  PAYMENTS_SECRETS_KEY: '1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100',
  PAYMENTS_SECRETS_OLD_KEYS: [],
};

const noReadModel = (): Promise<never> =>
  Promise.reject(new Error('the fast app has no order read model (tests/api/orders use the real one)'));

export interface FastAppDeps {
  store: EventStore;
  ids: NumericIdGenerator;
  clock: Clock;
  /** Configuration overrides, as startTestApp takes them (e.g. { SHOP_IDEMPOTENCY_MODE: 'reject' }). */
  env?: Record<string, string>;
}

export function buildFastApp({ store, ids, clock, env }: FastAppDeps): Express {
  const config = loadConfig({ NODE_ENV: 'test', ...testRateLimits, ...env });
  const secrets = fastAppSecrets;
  const logger = createLogger('error');

  const shop = buildShopCommands({ config, secrets, store, ids, clock, logger });
  // Nothing reads the wallet read model here: `applicable` (the one endpoint that does) is not for the fast specs.
  const checkout = buildCheckoutServices({
    config,
    secrets,
    store,
    ids,
    clock,
    walletReadModel: {
      entries: () =>
        Promise.reject(new Error('the fast app has no wallet read model (tests/api/checkout use the real one)')),
    },
    merchantKeys: shop.credentials,
  });
  const orders = buildOrderCommands({ config, secrets, store, ids, clock });
  const identityContext = buildIdentity({ config, secrets, store, clock });
  const identity = identityContext.services;
  // The gateway's parties live in a store of their own, so that a scene's events are only the ones it gives and makes.
  const gateway = buildGateway({ config, store: new InMemoryEventStore({ clock }), clock, logger }).services;
  const registered = registerTestGatewayClient(gateway, gateway.check.environment);
  /** An interface behind the gateway, as container.ts mounts it, once the test pair is registered. */
  const behindGateway = (front: GatewayFront, router: Router) => {
    const guard = gatewayGuard(front, gateway, { logger });
    return Router().use((req, res, next) => {
      registered.then(() => guard(req, res, next), next);
    }, router);
  };
  const ports = new ProvidedPorts();
  ports.provide({ users: identity.users, consents: identityContext.provides!.consents! });
  const payments = buildPaymentsCommands({ config, secrets, store, clock, ports }).services;
  // The checkout's applicable and the order view's queries read projections: here they answer 500.
  const [checkoutInterface] = checkoutApi.interfaces(checkout, { logger });
  const [ordersInterface] = ordersApi.interfaces(
    {
      ...orders,
      queries: new OrderQueries({
        list: noReadModel,
        detail: noReadModel,
        dailyStats: noReadModel,
      }),
      accessTokens: identityContext.provides!.accessTokens!,
      customerAccess: new CustomerAccessPolicy({
        consents: () => ports.get('consents'),
        hostAppAudiences: config.ORDERS_HOST_APP_AUDIENCES,
      }),
    },
    { logger },
  );

  return createHttpApp({
    logger,
    metrics: metricsRegistry,
    requestDuration: httpRequestDuration,
    routers: [
      {
        path: '/api/v1',
        router: behindGateway(shopGatewayFront, shopRouter({ logger, routers: [purchaseRouter(shop)] })),
      },
      {
        path: paymentsBasePath,
        router: behindGateway(paymentsGatewayFront, paymentsApi.interfaces(payments, { logger })[0]!.router),
      },
      { path: checkoutInterface!.path, router: behindGateway(checkoutInterface!.gateway!, checkoutInterface!.router) },
      { path: ordersInterface!.path, router: behindGateway(ordersInterface!.gateway!, ordersInterface!.router) },
      {
        path: '/operator/v1',
        router: operatorApi({
          logger,
          operatorTokens: secrets.OPERATOR_TOKENS,
          routers: [
            operatorRouter({ logger, ...shop }),
            checkoutApi.operatorRouter!(checkout, { logger }),
            ordersOperatorRouter({ logger, merchants: orders.merchants }),
            identityApi.operatorRouter!(identity, { logger }),
            gatewayApi.operatorRouter!(gateway, { logger }),
            paymentsApi.operatorRouter!(payments, { logger }),
          ],
        }),
      },
    ],
    ready: async () => ({ ready: true, checks: {} }),
  });
}
