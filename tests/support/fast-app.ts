/**
 * The service's HTTP app over ports only (an in-memory event store, ids and a fixed clock), for fast API specs
 * (docs/testing.md). It loops over the contexts (contexts.ts, or the ones a test gives) as the composition root does,
 * building each one's command side (context-module.ts, `commandSide`) and mounting its interfaces, behind the gateway
 * where they declare its front, and its operator endpoints. What needs a database is left out: a route that reads a
 * read model answers 500, and a context without a command side (files) is not served. The gateway accepts
 * testGatewayClient (tests/support/gateway.ts).
 */
import type { Express, RequestHandler } from 'express';
import { createHttpApp } from '../../api/shared/http-app.js';
import { operatorApi, operatorBasePath } from '../../api/shared/operator-api.js';
import type { GatewayServices } from '../../application/gateway/index.js';
import type { Clock } from '../../application/shared/clock.js';
import type { EventStore } from '../../application/shared/event-store.js';
import type { NumericIdGenerator } from '../../application/shared/ids.js';
import { contexts, loadConfig, type Secrets } from '../../container.js';
import { frontedInterfaces, type AnyContextModule } from '../../context-module.js';
import { readSigningKeys, newSigningKeyJwk } from '../../infrastructure/identity/index.js';
import { ProvidedAccessTokens, ProvidedPorts, type BuiltContext } from '../../infrastructure/shared/context.js';
import { InMemoryEventStore } from '../../infrastructure/shared/eventstore/in-memory-event-store.js';
import { createLogger } from '../../infrastructure/shared/logger.js';
import { httpRequestDuration, metricsRegistry } from '../../infrastructure/shared/metrics.js';
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

export interface FastAppDeps {
  store: EventStore;
  ids: NumericIdGenerator;
  clock: Clock;
  /** Configuration overrides, as startTestApp takes them (e.g. { SHOP_IDEMPOTENCY_MODE: 'reject' }). */
  env?: Record<string, string>;
  /**
   * The contexts to serve, in build order: the service's (contexts.ts) unless a test gives its own list, e.g. with an
   * example context added (tests/api/fast/example-context/). Their secrets are fastAppSecrets'.
   */
  contexts?: readonly AnyContextModule[];
}

export function buildFastApp({ store, ids, clock, env, contexts: modules = contexts }: FastAppDeps): Express {
  const config = loadConfig({ NODE_ENV: 'test', ...testRateLimits, ...env }, modules);
  const logger = createLogger('error');
  const secrets: Record<string, unknown> = fastAppSecrets;

  // As the composition root builds them, in order, each handing the others the ports it provides.
  const ports = new ProvidedPorts();
  const accessTokens = new ProvidedAccessTokens(ports);
  const served = modules.filter((c) => c.commandSide);
  const built = new Map<string, BuiltContext<unknown>>();
  for (const context of served) {
    // The context in front of the interfaces (the gateway) keeps its parties in a store of its own, so that a scene's
    // events are only the ones it gives and makes.
    const own = context.api.guard ? new InMemoryEventStore({ clock }) : store;
    const one = context.commandSide!({
      config,
      secrets: Object.fromEntries(Object.keys(context.secrets).map((name) => [name, secrets[name]])),
      store: own,
      ids,
      clock,
      logger,
      accessTokens,
      ports,
    });
    if (one.provides) ports.provide(one.provides);
    built.set(context.name, one);
  }
  const servicesOf = (context: AnyContextModule) => built.get(context.name)!.services;

  // The gateway lets the test pair through once it is registered: the guard waits for it.
  const gateway = built.get('gateway')?.services as GatewayServices | undefined;
  const registered = gateway ? registerTestGatewayClient(gateway, gateway.check.environment) : Promise.resolve();
  const afterRegistration =
    (guard: RequestHandler): RequestHandler =>
    (req, res, next) => {
      registered.then(() => guard(req, res, next), next);
    };

  return createHttpApp({
    logger,
    metrics: metricsRegistry,
    requestDuration: httpRequestDuration,
    routers: [
      ...frontedInterfaces(served, servicesOf, logger, afterRegistration),
      {
        path: operatorBasePath,
        router: operatorApi({
          logger,
          operatorTokens: fastAppSecrets.OPERATOR_TOKENS,
          routers: served.flatMap((c) => c.api.operatorRouter?.(servicesOf(c), { logger }) ?? []),
        }),
      },
    ],
    ready: async () => ({ ready: true, checks: {} }),
  });
}
