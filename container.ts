/**
 * The composition root: builds the shared adapters, then every bounded context listed in contexts.ts the same way
 * (context-module.ts), and the HTTP app that mounts their interfaces. main.ts runs it; the API tests and benchmarks
 * build it too, so they exercise exactly what production runs. It names no context: everything a context registers is
 * a field of its module (context-module.ts). Adding a context: docs/conventions.md, "Adding a context".
 */
import type { Express, Request } from 'express';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import type { ZodRawShape } from 'zod';
import { createHttpApp } from './api/shared/http-app.js';
import { buildOpenApiDocument, type OpenApiOptions } from './api/shared/openapi.js';
import { registerOperationsOpenApi } from './api/shared/operations-openapi.js';
import { operatorApi, operatorBasePath, refuseOperator } from './api/shared/operator-api.js';
import { operatorAuth, operatorOf } from './api/shared/operator-auth.js';
import { registerOperatorOpenApi } from './api/shared/operator-openapi.js';
import { systemClock, type Clock } from './application/shared/clock.js';
import type { EventBus } from './application/shared/event-bus.js';
import type { EventStore } from './application/shared/event-store.js';
import { contexts } from './contexts.js';
import {
  frontedInterfaces,
  type AnyContextModule,
  type SecretsOf,
  type ServicesOf,
  type SlicesOf,
} from './context-module.js';
import {
  loadConfig as loadSettings,
  operationsNeedOperator,
  type Config as SharedConfig,
  type Role,
} from './infrastructure/shared/config.js';
import { ProvidedAccessTokens, ProvidedPorts, type BackgroundJob } from './infrastructure/shared/context.js';
import { createKnex } from './infrastructure/shared/database.js';
import { createEventStore } from './infrastructure/shared/eventstore/create-event-store.js';
import type { Logger } from './infrastructure/shared/logger.js';
import { createEventBus } from './infrastructure/shared/messaging/create-event-bus.js';
import { Relay } from './infrastructure/shared/messaging/relay.js';
import { httpRequestDuration, metricsRegistry } from './infrastructure/shared/metrics.js';
import { migrate, migrations as sharedMigrations } from './infrastructure/shared/migrations/index.js';
import { PostgresNumericIds } from './infrastructure/shared/numeric-ids.js';
import { ProjectionRunner } from './infrastructure/shared/projection-runner.js';
import { reactorProjector } from './infrastructure/shared/reactor-projector.js';
import type { Projector } from './projections/shared/projector.js';
import { PostgresChangeFeed } from './infrastructure/shared/read-model-changes.js';
import { readiness } from './infrastructure/shared/readiness.js';
import type { EgressPolicy } from './infrastructure/shared/outbound/egress-policy.js';
import {
  loadSecrets as loadSecretValues,
  secretRules,
  sharedSecrets,
  type SecretsShape,
  type SharedSecrets,
} from './infrastructure/shared/secrets.js';

export { contexts };

export type Config = SharedConfig & SlicesOf<typeof contexts>;
export type Services = ServicesOf<typeof contexts>;
/** The values of the shared secrets and of every context's, by variable name. */
export type Secrets = SharedSecrets & SecretsOf<typeof contexts>;

/** Every secret the service declares: the shared ones, then each context's. */
const secretsShape: SecretsShape = Object.assign({}, sharedSecrets, ...contexts.map((c) => c.secrets));

/**
 * The service's configuration: the shared settings and every context's slice, from the environment. The secrets'
 * formats are checked with them (one message names every wrong variable); their values come from loadSecrets.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  /** The contexts whose slices to read: the service's, or more (a test's example context, tests/support/fast-app.ts). */
  modules: readonly AnyContextModule[] = contexts,
): Config {
  const slices: ZodRawShape = Object.assign({}, ...modules.map((c) => c.config));
  return loadSettings(env, slices, secretRules(secretsShape)) as Config;
}

/** The service's secrets (infrastructure/shared/secrets.ts): refused in production when missing, else kept in DATA_DIR. */
export function loadSecrets(config: Pick<Config, 'NODE_ENV' | 'DATA_DIR'>, env = process.env): Secrets {
  return loadSecretValues(secretsShape, config, env) as Secrets;
}

/** The values of `context`'s own secrets: a context is handed no other's, nor the shared ones. */
const secretsOf = (context: AnyContextModule, secrets: Secrets): Record<string, unknown> =>
  Object.fromEntries(Object.keys(context.secrets).map((name) => [name, secrets[name as keyof Secrets]]));

/** The context an event type belongs to (its decoder's); undefined for the shared ones (idempotency records, claims). */
const contextOfEventTypeIn =
  (modules: readonly AnyContextModule[]) =>
  (type: string): string | undefined =>
    modules.find((c) => c.events.has(type))?.name;
export const contextOfEventType = contextOfEventTypeIn(contexts);

/** Every projector of every context, in start order. */
const projectorsOf = (modules: readonly AnyContextModule[]) => modules.flatMap((c) => c.projectors);
export const projectors = projectorsOf(contexts);

/** The OpenAPI document served at /openapi.json: each context registers its own routes, next to its routers. */
const openApiOf = (modules: readonly AnyContextModule[]): OpenApiOptions => ({
  description: modules.map((c) => c.api.description).join('\n\n'),
  registrations: [registerOperatorOpenApi, ...modules.flatMap((c) => c.api.openApi), registerOperationsOpenApi],
});
export const openApi = openApiOf(contexts);

/** The migrations of the shared stores, then each context's own (infrastructure/shared/migrations). */
const migrationsOf = (modules: readonly AnyContextModule[]) => [
  ...sharedMigrations,
  ...modules.flatMap((c) => c.migrations ?? []),
];

// Each context's metrics join the process registry once, whatever the number of containers a process builds (tests).
for (const metric of contexts.flatMap((c) => c.metrics ?? [])) metricsRegistry.registerMetric(metric);

export interface Container {
  config: Config;
  knex: Knex;
  store: EventStore;
  bus: EventBus;
  relay: Relay;
  projections: ProjectionRunner;
  /** The event types of every projector this service runs (read models, reactors, the IPN feeds), by name. */
  projectorEventTypes(): Map<string, ReadonlySet<string>>;
  /** Each context's services, by context name. */
  services: Services;
  app: Express;
  /** Only /health, /ready and /metrics: what a process without the api role serves on HEALTH_PORT. */
  operationsApp: Express;
  /**
   * Keeps /ready at 503 NOT_READY, with the check `name` false, until the answered release is called: work the process
   * must finish before it takes traffic although it already serves (main.ts: the demo seed, whose orders go through
   * the webhooks). Released, the check stays in /ready's details as true.
   */
  holdReadiness(name: string): () => void;
  /** Starts the background roles this process runs (relay, projectors, the contexts' jobs). */
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
  /**
   * The contexts to build: contexts.ts's, unless a test gives its own list (an example context added,
   * tests/integration/example-context.test.ts). Their metrics are not registered: only contexts.ts's are.
   */
  contexts?: readonly AnyContextModule[];
  /** An egress policy instead of the configuration's: benchmarks only (infrastructure/shared/context.ts, `egress`). */
  egress?: EgressPolicy;
}): Promise<Container> {
  const { config, secrets, logger } = options;
  const clock = options.clock ?? systemClock;
  const knex = createKnex(options.databaseUrl, 20);
  // Each module is walked as AnyContextModule: defineContext checked that its build, api and projectors agree on its
  // services, slice and secrets, which a loop over the union of modules cannot correlate.
  const modules: readonly AnyContextModule[] = options.contexts ?? contexts;
  await migrate(knex, migrationsOf(modules));
  const store = createEventStore({ knex, eventStoreUrl: config.EVENTSTORE_URL, logger });
  const bus = await createEventBus(config, { store, knex, logger, contextOf: contextOfEventTypeIn(modules) });
  const ids = new PostgresNumericIds(knex);
  // Read models that keep what they read hear the projectors' announcements here; only api processes listen.
  const changes = new PostgresChangeFeed({ databaseUrl: options.databaseUrl, logger });
  if (config.ROLES.includes('api')) changes.start();

  const ports = new ProvidedPorts();
  const accessTokens = new ProvidedAccessTokens(ports);
  const deps = { config, knex, store, ids, clock, logger, changes, accessTokens, ports, egress: options.egress };
  const built = new Map<string, Awaited<ReturnType<AnyContextModule['build']>>>();
  for (const context of modules) {
    const one = await context.build({ ...deps, secrets: secretsOf(context, secrets) });
    if (one.provides) ports.provide(one.provides);
    built.set(context.name, one);
  }
  const services = Object.fromEntries([...built].map(([name, b]) => [name, b.services])) as Services;
  /** A context's services, as its own build made them. */
  const servicesOf = (context: AnyContextModule) => built.get(context.name)!.services;

  const relay = new Relay({ store, bus, knex, logger });
  // The contexts' process managers run on the projection runner, after the read models (docs/process-managers.md).
  const reactors = [...built.values()].flatMap((b) => (b.reactors ?? []).map(reactorProjector));
  const projections = new ProjectionRunner({
    knex,
    store,
    bus,
    projectors: [...projectorsOf(modules), ...reactors],
    logger,
    clock,
  });
  // Each role that runs projectors of its own (the ipn role: the outbox feeds its dispatcher delivers, docs/ipn.md)
  // gets a runner of its own, on consumers `<role>-<name>`, so that its fan-out scales and fails apart from the read
  // models'.
  const roleProjectors = new Map<Role, Projector[]>();
  for (const { role, projectors: mine } of modules.flatMap((c) => c.runners ?? []))
    roleProjectors.set(role, [...(roleProjectors.get(role) ?? []), ...mine]);
  const roleRunners = new Map(
    [...roleProjectors].map(([role, mine]) => [
      role,
      new ProjectionRunner({ knex, store, bus, projectors: mine, logger, clock }, { consumerPrefix: `${role}-` }),
    ]),
  );

  const jobs: BackgroundJob[] = [...built.values()].flatMap((b) => b.jobs);
  /** Start-up work /ready waits for (holdReadiness), by name: done or not. */
  const holds = new Map<string, boolean>();
  const ready = readiness({ config, knex, bus, relay, projections, roleRunners, jobs, holds });

  // Where the operations endpoints are the operators' (production), /ready shows its details to an operator only.
  const operator = operatorOf(secrets.OPERATOR_TOKENS);
  const readyDetailsFor = operationsNeedOperator(config) ? (req: Request) => operator(req) !== undefined : undefined;

  const operatorRouters = modules.flatMap((c) => c.api.operatorRouter?.(servicesOf(c), { logger }) ?? []);
  const fronted = frontedInterfaces(modules, servicesOf, logger);
  const app = createHttpApp({
    logger,
    metrics: options.metrics ?? metricsRegistry,
    requestDuration: httpRequestDuration,
    openApi: buildOpenApiDocument(openApiOf(modules)),
    operationsGuard: operationsNeedOperator(config) ? operatorAuth(secrets.OPERATOR_TOKENS, refuseOperator) : undefined,
    readyDetailsFor,
    routers: [
      ...fronted,
      {
        path: operatorBasePath,
        router: operatorApi({ logger, operatorTokens: secrets.OPERATOR_TOKENS, routers: operatorRouters }),
      },
    ],
    ready,
  });

  // A process without the api role still answers /health, /ready and /metrics (main.ts, HEALTH_PORT).
  const operationsApp = createHttpApp({
    logger,
    metrics: options.metrics ?? metricsRegistry,
    requestDuration: httpRequestDuration,
    operationsGuard: operationsNeedOperator(config) ? operatorAuth(secrets.OPERATOR_TOKENS, refuseOperator) : undefined,
    readyDetailsFor,
    routers: [],
    ready,
  });

  // The caller's address the gateway's IP allowlist checks: the socket's, or X-Forwarded-For's through trusted proxies.
  app.set('trust proxy', config.GATEWAY_TRUST_PROXY);

  const started: BackgroundJob[] = [];
  return {
    config,
    knex,
    store,
    bus,
    relay,
    projections,
    projectorEventTypes: () =>
      new Map([...projections.eventTypes(), ...[...roleRunners.values()].flatMap((r) => [...r.eventTypes()])]),
    services,
    app,
    operationsApp,
    holdReadiness(name) {
      holds.set(name, false);
      return () => {
        holds.set(name, true);
      };
    },
    async startBackground() {
      // Projectors first, so a rebuild on start finishes before the relay feeds them.
      if (config.ROLES.includes('projector')) await projections.start();
      for (const [role, runner] of roleRunners) if (config.ROLES.includes(role)) await runner.start();
      if (config.ROLES.includes('relay')) relay.start();
      for (const job of jobs) {
        if (!config.ROLES.includes(job.role)) continue;
        await job.start();
        started.push(job);
      }
    },
    async stop() {
      for (const job of started.splice(0)) await job.stop();
      for (const b of [...built.values()].reverse()) await b.stop();
      await relay.stop();
      await projections.stop();
      for (const runner of roleRunners.values()) await runner.stop();
      await bus.close();
      await store.close();
      await changes.stop();
      await knex.destroy();
    },
  };
}
