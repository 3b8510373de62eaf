/**
 * The contract every bounded context implements (docs/conventions.md, "Modules" and "Adding a context"): one module
 * object per context, assembled from the `index.ts` of each of its layers, listed in container.ts's `contexts`.
 * Everything a context registers is a field here: the composition root (container.ts), `npm start` (main.ts) and the
 * fast in-memory harness (tests/support/fast-app.ts) loop over the list and name no context.
 */
import { Router, type RequestHandler } from 'express';
import type { Metric } from 'prom-client';
import type { ZodObject, ZodRawShape, z } from 'zod';
import type { ContextApi } from './api/shared/context-api.js';
import type { Logger } from './application/shared/logger.js';
import type { Config } from './infrastructure/shared/config.js';
import type { BuiltContext, CommandDeps, ContextDeps, RoleRunner } from './infrastructure/shared/context.js';
import type { DemoSeed, DemoSeedDeps } from './infrastructure/shared/demo-seed.js';
import type { Migration } from './infrastructure/shared/migrations/index.js';
import type { SecretsShape, SecretValues } from './infrastructure/shared/secrets.js';
import type { DomainEvent } from './domain/shared/decider.js';
import type { EventDecoder } from './domain/shared/event-decoder.js';
import type { Projector } from './projections/shared/projector.js';

export interface ContextModule<
  Name extends string,
  Services,
  Slice extends ZodRawShape,
  Secrets extends SecretsShape = Record<never, never>,
> {
  readonly name: Name;
  /** Its settings (infrastructure/<context>/config.ts), merged into the service's configuration. */
  readonly config: Slice;
  /** Its secrets (infrastructure/<context>/secrets.ts), loaded with the shared ones; its build gets their values. */
  readonly secrets: Secrets;
  /** Builds its services and background jobs from the shared adapters (infrastructure/<context>/index.ts). */
  build(
    deps: ContextDeps<z.infer<ZodObject<Slice>>, SecretValues<Secrets>>,
  ): BuiltContext<Services> | Promise<BuiltContext<Services>>;
  /**
   * Its command side alone, on the event store's adapters and no database (infrastructure/<context>/index.ts): every
   * service, those that read a read model given one that refuses (their routes answer 500). The fast in-memory
   * harness serves it (tests/support/fast-app.ts). Absent: the harness does not serve the context (the files
   * context: its uploads need a disk).
   */
  commandSide?(deps: CommandDeps<z.infer<ZodObject<Slice>>, SecretValues<Secrets>>): BuiltContext<Services>;
  /** Its interfaces, operator endpoints and their OpenAPI (api/<context>/index.ts). */
  readonly api: ContextApi<Services>;
  /** Its read models (projections/<context>/index.ts), in the order the runner starts them. */
  readonly projectors: readonly Projector[];
  /**
   * Its event types (domain/<context>/event-decoder.ts): the NATS bus files each event under its context, so that a
   * consumer of one context's events is given only those (docs/projections.md, "Buses").
   */
  readonly events: Pick<EventDecoder<DomainEvent>, 'has'>;
  /**
   * Projectors a role of their own runs, apart from the projector role's read models: the payment hub's IPN outbox
   * feeds, run by the ipn role (infrastructure/shared/context.ts, RoleRunner).
   */
  readonly runners?: readonly RoleRunner[];
  /**
   * Its own tables that are not read models (infrastructure/<context>/migrations.ts), run after the shared migrations
   * (infrastructure/shared/migrations); a projector creates its read-model tables itself.
   */
  readonly migrations?: readonly Migration[];
  /** Its Prometheus metrics (infrastructure/<context>/metrics.ts, created with `registers: []`), served at /metrics. */
  readonly metrics?: readonly Metric[];
  /**
   * What it runs in the primary process when API workers serve the api role (API_WORKERS > 1, main.ts;
   * infrastructure/shared/api-workers.ts): the gateway counts its rate limits there, in one window for all workers.
   */
  workersPrimary?(config: Config & z.infer<ZodObject<Slice>>): void;
  /** Its demo data for `npm start` and the banner's lines about it (infrastructure/shared/demo-seed.ts). */
  demo?(
    // Not where the services are inferred from: a seed may need only some of them.
    services: NoInfer<Services>,
    deps: DemoSeedDeps<z.infer<ZodObject<Slice>>>,
  ): ReturnType<DemoSeed<Services, z.infer<ZodObject<Slice>>>>;
}

/** Types a module (its name, services and settings are inferred from the pieces). */
export const defineContext = <Name extends string, Services, Slice extends ZodRawShape, Secrets extends SecretsShape>(
  module: ContextModule<Name, Services, Slice, Secrets>,
) => module;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any module, whatever its services, slice and secrets
export type AnyContextModule = ContextModule<string, any, ZodRawShape, SecretsShape>;

/** The services of every listed context, by its name: `container.services.shop.purchases`. */
export type ServicesOf<M extends readonly AnyContextModule[]> = {
  [K in M[number] as K['name']]: K extends ContextModule<string, infer S, ZodRawShape, SecretsShape> ? S : never;
};

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** One module's settings (distributes over a union of modules). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any services: only the slice is read
type SliceOf<K> = K extends ContextModule<string, any, infer S, SecretsShape> ? z.infer<ZodObject<S>> : never;

/** The settings of every listed context, merged. */
export type SlicesOf<M extends readonly AnyContextModule[]> = UnionToIntersection<SliceOf<M[number]>>;

/** One module's secret values (distributes over a union of modules). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any services: only the secrets are read
type SecretsOfModule<K> = K extends ContextModule<string, any, ZodRawShape, infer S> ? SecretValues<S> : never;

/** The secret values of every listed context, merged. */
export type SecretsOf<M extends readonly AnyContextModule[]> = UnionToIntersection<SecretsOfModule<M[number]>>;

/**
 * Every context's interfaces, each behind the guard of the context that stands in front of them (the gateway,
 * docs/gateway.md: `ContextApi.guard`) when it declares its front; null: a public surface. The fast in-memory
 * harness mounts them the same way (tests/support/fast-app.ts), `around` the guard to wait for its test client.
 */
export function frontedInterfaces(
  modules: readonly AnyContextModule[],
  servicesOf: (context: AnyContextModule) => unknown,
  logger: Logger,
  around: (guard: RequestHandler) => RequestHandler = (guard) => guard,
): { path: string; router: Router }[] {
  const guards = modules.filter((c) => c.api.guard).map((c) => c.api.guard!(servicesOf(c), { logger }));
  if (guards.length > 1) throw new Error('two contexts stand in front of the interfaces (ContextApi.guard)');
  const [guard] = guards;
  return modules
    .flatMap((c) => c.api.interfaces(servicesOf(c), { logger }))
    .map(({ path, router, gateway }) => {
      if (!gateway) return { path, router };
      if (!guard) throw new Error(`${path} declares a gateway front, and no context guards it (ContextApi.guard)`);
      return { path, router: Router().use(around(guard(gateway)), router) };
    });
}
