/**
 * The order view's module, infrastructure half: its configuration slice, its secrets (the key encrypting merchants'
 * secretKeys) and how its services are built from the shared adapters: the command side on the event store alone
 * (so the fast tests build it on an in-memory store too), the queries on the read model's tables. The only file of
 * infrastructure/orders the composition root imports (docs/conventions.md, "Modules").
 */
import {
  CustomerAccessPolicy,
  OrderMerchantKeys,
  OrderQueries,
  OrderWebhooks,
  WebhookKeys,
  type OrdersServices,
} from '../../application/orders/index.js';
import { absentReadModel } from '../shared/absent-read-model.js';
import type { BuiltContext, CommandDeps, ContextDeps } from '../shared/context.js';
import { AesGcmSecretCipher } from '../shared/secret-cipher.js';
import type { OrdersConfig } from './config.js';
import { PostgresOrderReadModel } from './order-read-model.js';
import type { OrdersSecrets } from './secrets.js';

export { ordersConfig, type OrdersConfig } from './config.js';
export { ordersSecrets, type OrdersSecrets } from './secrets.js';

const hourMs = 3_600_000;

export type OrderCommandServices = Pick<OrdersServices, 'merchants' | 'webhookKeys' | 'webhooks' | 'webhookMaxBytes'>;

/** The command side: merchants and keys, the webhooks. */
export function buildOrderCommands(
  deps: Pick<ContextDeps<OrdersConfig, OrdersSecrets>, 'config' | 'secrets' | 'store' | 'ids' | 'clock'>,
): OrderCommandServices {
  const { config, secrets, store, ids, clock } = deps;
  const cipher = new AesGcmSecretCipher(
    'order-secret-key',
    secrets.ORDERS_SECRET_KEY_KEY,
    secrets.ORDERS_SECRET_KEY_OLD_KEYS,
  );
  const environment = config.ORDERS_KEY_ENVIRONMENT ?? (config.NODE_ENV === 'production' ? 'live' : 'test');
  return {
    merchants: new OrderMerchantKeys({
      store,
      ids,
      clock,
      cipher,
      rotationOverlapMs: config.ORDERS_KEY_ROTATION_OVERLAP_HOURS * hourMs,
    }),
    webhookKeys: new WebhookKeys({ store, clock, cipher, environment }),
    webhooks: new OrderWebhooks({
      store,
      clock,
      limits: {
        earlyWindowMs: config.ORDERS_EARLY_EVENT_WINDOW_HOURS * hourMs,
        maxEarlyEvents: config.ORDERS_MAX_EARLY_EVENTS,
        maxAgeMs: config.ORDERS_EVENT_MAX_AGE_HOURS * hourMs,
        maxFutureMs: config.ORDERS_EVENT_MAX_FUTURE_SECONDS * 1000,
      },
    }),
    webhookMaxBytes: config.ORDERS_WEBHOOK_MAX_BYTES,
  };
}

/** Its services on `readModel` (the order view's queries read it). */
function assembleOrders(
  deps: CommandDeps<OrdersConfig, OrdersSecrets>,
  readModel: ConstructorParameters<typeof OrderQueries>[0],
): BuiltContext<OrdersServices> {
  return {
    services: {
      ...buildOrderCommands(deps),
      queries: new OrderQueries(readModel),
      accessTokens: deps.accessTokens,
      customerAccess: new CustomerAccessPolicy({
        consents: () => deps.ports.get('consents'),
        hostAppAudiences: deps.config.ORDERS_HOST_APP_AUDIENCES,
      }),
    },
    jobs: [],
    stop: async () => {},
  };
}

export const buildOrders = (deps: ContextDeps<OrdersConfig, OrdersSecrets>): BuiltContext<OrdersServices> =>
  assembleOrders(deps, new PostgresOrderReadModel(deps.knex, { countLimit: deps.config.ORDERS_LIST_COUNT_LIMIT }));

/** The command side alone (context-module.ts, `commandSide`): the queries have no read model. */
export const buildOrdersCommandSide = (deps: CommandDeps<OrdersConfig, OrdersSecrets>): BuiltContext<OrdersServices> =>
  assembleOrders(deps, absentReadModel('the order view'));
export { ordersDemo, seedOrdersDemo, type OrdersDemoData } from './demo-seed.js';
