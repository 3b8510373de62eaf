/**
 * The contract every bounded context implements (docs/conventions.md, "Modules"): one module object per context,
 * assembled from the `index.ts` of each of its layers, listed in container.ts's `contexts`. Adding a context is a
 * folder per layer and one entry in that list.
 */
import type { ZodObject, ZodRawShape, z } from 'zod';
import type { ContextApi } from './api/shared/context-api.js';
import type { BuiltContext, ContextDeps } from './infrastructure/shared/context.js';
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
  /** Its interfaces, operator endpoints and their OpenAPI (api/<context>/index.ts). */
  readonly api: ContextApi<Services>;
  /** Its read models (projections/<context>/index.ts), in the order the runner starts them. */
  readonly projectors: readonly Projector[];
  /**
   * Its event types (domain/<context>/event-decoder.ts): the NATS bus files each event under its context, so that a
   * consumer of one context's events is given only those (docs/projections.md, "Buses").
   */
  readonly events: Pick<EventDecoder<DomainEvent>, 'has'>;
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
