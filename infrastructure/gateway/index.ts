/**
 * The gateway's module, infrastructure half: its configuration slice, its secrets (none) and how its services are
 * built from the shared adapters. The only file of infrastructure/gateway the composition root imports
 * (docs/conventions.md, "Modules"; docs/gateway.md).
 */
import {
  EndpointCatalog,
  GatewayCheck,
  GatewayDirectory,
  GatewayPartyAdmin,
  type GatewayServices,
} from '../../application/gateway/index.js';
import type { BuiltContext, ContextDeps } from '../shared/context.js';
import { gatewayEnvironmentOf, type GatewayConfig } from './config.js';
import { FlexibleRateLimiter, rateLimitStoreOf } from './rate-limiters.js';

export { gatewayConfig, gatewayEnvironmentOf, type GatewayConfig } from './config.js';
export { gatewaySecrets, type GatewaySecrets } from './secrets.js';
export { gatewayDemo, seedGatewayDemo, type GatewayDemoData } from './demo-seed.js';
export { FlexibleRateLimiter, rateLimitTable, startRateLimitPrimary, rateLimitStoreOf } from './rate-limiters.js';

/** Needs the database only for the postgres rate-limit store (so fast tests build it on an in-memory store too). */
export function buildGateway(
  deps: Pick<ContextDeps<GatewayConfig>, 'config' | 'store' | 'clock' | 'logger'> &
    Partial<Pick<ContextDeps<GatewayConfig>, 'knex'>>,
): BuiltContext<GatewayServices> {
  const { config, store, clock, logger } = deps;
  const environment = gatewayEnvironmentOf(config);
  const rateLimiter = new FlexibleRateLimiter(rateLimitStoreOf(config), {
    knex: deps.knex,
    redisUrl: config.REDIS_URL,
    logger,
  });
  const directory = new GatewayDirectory(store, config.GATEWAY_LOOKUP_CACHE_MS);
  const endpoints = new EndpointCatalog();
  return {
    services: {
      parties: new GatewayPartyAdmin({ store, clock, directory, endpoints }),
      check: new GatewayCheck({
        directory,
        rateLimiter,
        clock,
        settings: {
          environment,
          defaultLimit: {
            points: config.GATEWAY_RATE_LIMIT_POINTS,
            windowSeconds: config.GATEWAY_RATE_LIMIT_WINDOW_SECONDS,
          },
          userLimit:
            config.GATEWAY_USER_RATE_LIMIT_POINTS === 0
              ? null
              : {
                  points: config.GATEWAY_USER_RATE_LIMIT_POINTS,
                  windowSeconds: config.GATEWAY_USER_RATE_LIMIT_WINDOW_SECONDS,
                },
        },
      }),
      endpoints,
    },
    jobs: [],
    stop: () => rateLimiter.stop(),
  };
}
