/**
 * Every bounded context this service runs: one entry each, the one place a context registers (docs/conventions.md,
 * "Adding a context"). Each entry assembles the module (context-module.ts) from the `index.ts` of the context's layers;
 * the composition root (container.ts), `npm start` (main.ts) and the fast in-memory harness (tests/support/fast-app.ts)
 * loop over this list and name no context.
 */
import { checkoutApi } from './api/checkout/index.js';
import { identityApi } from './api/identity/index.js';
import { filesApi } from './api/files/index.js';
import { paymentsApi } from './api/payments/index.js';
import { gatewayApi } from './api/gateway/index.js';
import { shopApi } from './api/shop/index.js';
import { ordersApi } from './api/orders/index.js';
import { defineContext } from './context-module.js';
import { buildShop, buildShopCommandSide, shopConfig, shopDemo, shopSecrets } from './infrastructure/shop/index.js';
import {
  buildCheckout,
  buildCheckoutCommandSide,
  checkoutConfig,
  checkoutDemo,
  checkoutSecrets,
} from './infrastructure/checkout/index.js';
import { buildIdentity, identityConfig, identityDemo, identitySecrets } from './infrastructure/identity/index.js';
import { buildFiles, filesConfig, filesSecrets } from './infrastructure/files/index.js';
import { filesProjectors } from './projections/files/index.js';
import {
  buildPayments,
  buildPaymentsCommands,
  paymentsConfig,
  paymentsDemo,
  paymentsMetrics,
  paymentsMigrations,
  paymentsRunners,
  paymentsSecrets,
} from './infrastructure/payments/index.js';
import { paymentsProjectors } from './projections/payments/index.js';
import {
  buildGateway,
  gatewayConfig,
  gatewayDemo,
  gatewaySecrets,
  startRateLimitPrimary,
} from './infrastructure/gateway/index.js';
import {
  buildOrders,
  buildOrdersCommandSide,
  ordersConfig,
  ordersDemo,
  ordersSecrets,
} from './infrastructure/orders/index.js';
import { checkoutProjectors } from './projections/checkout/index.js';
import { ordersProjectors } from './projections/orders/index.js';
import { gatewayProjectors } from './projections/gateway/index.js';
import { shopProjectors } from './projections/shop/index.js';
import { paymentsEventDecoder } from './domain/payments/event-decoder.js';
import { ordersEventDecoder } from './domain/orders/event-decoder.js';
import { filesEventDecoder } from './domain/files/event-decoder.js';
import { identityEventDecoder } from './domain/identity/event-decoder.js';
import { checkoutEventDecoder } from './domain/checkout/event-decoder.js';
import { shopEventDecoder } from './domain/shop/event-decoder.js';
import { gatewayEventDecoder } from './domain/gateway/event-decoder.js';

/** Every bounded context this service runs, in the order they are built (and their projectors started). */
export const contexts = [
  defineContext({
    name: 'gateway',
    config: gatewayConfig,
    secrets: gatewaySecrets,
    build: buildGateway,
    commandSide: buildGateway,
    api: gatewayApi,
    projectors: gatewayProjectors,
    events: gatewayEventDecoder,
    workersPrimary: startRateLimitPrimary,
    demo: gatewayDemo,
  }),
  defineContext({
    name: 'shop',
    config: shopConfig,
    secrets: shopSecrets,
    build: buildShop,
    commandSide: buildShopCommandSide,
    api: shopApi,
    projectors: shopProjectors,
    events: shopEventDecoder,
    demo: shopDemo,
  }),
  defineContext({
    name: 'checkout',
    config: checkoutConfig,
    secrets: checkoutSecrets,
    build: buildCheckout,
    commandSide: buildCheckoutCommandSide,
    api: checkoutApi,
    projectors: checkoutProjectors,
    events: checkoutEventDecoder,
    demo: checkoutDemo,
  }),
  defineContext({
    name: 'identity',
    config: identityConfig,
    secrets: identitySecrets,
    build: buildIdentity,
    commandSide: buildIdentity,
    api: identityApi,
    projectors: [],
    events: identityEventDecoder,
    demo: identityDemo,
  }),
  defineContext({
    name: 'files',
    config: filesConfig,
    secrets: filesSecrets,
    build: buildFiles,
    api: filesApi,
    projectors: filesProjectors,
    events: filesEventDecoder,
  }),
  defineContext({
    name: 'orders',
    config: ordersConfig,
    secrets: ordersSecrets,
    build: buildOrders,
    commandSide: buildOrdersCommandSide,
    api: ordersApi,
    projectors: ordersProjectors,
    events: ordersEventDecoder,
    demo: ordersDemo,
  }),
  defineContext({
    name: 'payments',
    config: paymentsConfig,
    secrets: paymentsSecrets,
    build: buildPayments,
    commandSide: buildPaymentsCommands,
    api: paymentsApi,
    projectors: paymentsProjectors,
    events: paymentsEventDecoder,
    runners: paymentsRunners,
    migrations: paymentsMigrations,
    metrics: paymentsMetrics,
    demo: paymentsDemo,
  }),
] as const;
