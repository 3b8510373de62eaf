/**
 * The infrastructure half of a bounded context's module (docs/conventions.md, "Modules"): given the shared
 * adapters, a context builds its services, its background jobs and its stop. The composition root (container.ts)
 * builds every context listed in `contexts` the same way.
 */
import type { Knex } from 'knex';
import type { AccessTokenVerifier } from '../../application/shared/access-tokens.js';
import type { Clock } from '../../application/shared/clock.js';
import type { EventStore } from '../../application/shared/event-store.js';
import type { NumericIdGenerator } from '../../application/shared/ids.js';
import type { Logger } from '../../application/shared/logger.js';
import type { PortDirectory, SharedPorts } from '../../application/shared/ports.js';
import type { Reactor } from '../../application/shared/reactor.js';
import type { Projector } from '../../projections/shared/projector.js';
import type { Config, Role } from './config.js';
import type { EgressPolicy } from './outbound/egress-policy.js';
import type { PostgresChangeFeed } from './read-model-changes.js';

/**
 * What the composition root hands every context. `C` is the context's own configuration slice (with the shared
 * settings), `S` the values of its own secrets (only those: the shared ones stay with the composition root).
 */
export interface ContextDeps<C, S = Record<never, never>> {
  config: Config & C;
  secrets: S;
  knex: Knex;
  store: EventStore;
  ids: NumericIdGenerator;
  clock: Clock;
  logger: Logger;
  /** Announcements of the projectors' changes, for read models that keep what they read (started by api roles). */
  changes: PostgresChangeFeed;
  /** Checks users' access tokens: the identity context's verifier (usable once every context is built). */
  accessTokens: AccessTokenVerifier;
  /** The ports contexts provide one another (application/shared/ports.ts), usable once every context is built. */
  ports: PortDirectory;
  /**
   * The egress policy of outbound sends, instead of the configuration's (egressPolicyOf): only for a benchmark that
   * runs the production build against a receiver on this machine (bench/ipn.ts, bench/payments.ts). Never set from
   * configuration: production refuses loopback and plain http (docs/outbound.md).
   */
  egress?: EgressPolicy;
}

/**
 * What a context's command side is built from (context-module.ts, `commandSide`): the event store's adapters and the
 * ports, no database. The fast in-memory harness (tests/support/fast-app.ts) builds every context from these.
 */
export type CommandDeps<C, S = Record<never, never>> = Omit<ContextDeps<C, S>, 'knex' | 'changes'>;

/**
 * Projectors a role runs on a projection runner of its own, apart from the projector role's (context-module.ts,
 * `runners`): the payment hub's IPN outbox feeds, run by the ipn role on durable consumers `ipn-<name>` (docs/ipn.md),
 * so that its fan-out scales and fails apart from the read models'.
 */
export interface RoleRunner {
  readonly role: Role;
  readonly projectors: readonly Projector[];
}

/** Work a context runs in the background (sweeps, timers, process managers), in the processes of one role. */
export interface BackgroundJob {
  readonly name: string;
  readonly role: Role;
  start(): void | Promise<void>;
  stop(): Promise<void>;
  /** What it reports in /ready under its role (e.g. the IPN dispatcher's sends in flight and outbox counts). */
  status?(): Promise<Record<string, unknown>>;
}

export interface BuiltContext<S> {
  services: S;
  jobs: readonly BackgroundJob[];
  /** Stops what the context started itself (its writers, caches), before the shared adapters close. */
  stop(): Promise<void>;
  /** Ports it implements for every context (the identity context's access-token verifier). */
  provides?: Partial<SharedPorts>;
  /** Its process managers (application/shared/reactor.ts), run by the projector role's projection runner. */
  reactors?: readonly Reactor[];
}

/** The ports the contexts provide, filled in as the composition root builds them. */
export class ProvidedPorts implements PortDirectory {
  private readonly ports: Partial<SharedPorts> = {};

  provide(ports: Partial<SharedPorts>): void {
    for (const [name, port] of Object.entries(ports) as [keyof SharedPorts, SharedPorts[keyof SharedPorts]][]) {
      if (this.ports[name]) throw new Error(`two contexts provide the port ${name}`);
      Object.assign(this.ports, { [name]: port });
    }
  }

  get<K extends keyof SharedPorts>(name: K): SharedPorts[K] {
    const port = this.ports[name];
    if (!port) throw new Error(`no context provides the port ${name} (is its context listed and built?)`);
    return port;
  }
}

/**
 * The access-token port handed to every context before the identity context is built: it forwards to the verifier
 * that context provides. Contexts verify only while serving requests, after the composition root built them all.
 */
export class ProvidedAccessTokens implements AccessTokenVerifier {
  constructor(private readonly ports: PortDirectory) {}

  verify(token: string): ReturnType<AccessTokenVerifier['verify']> {
    return this.ports.get('accessTokens').verify(token);
  }
}

/** A job that runs `work` again `intervalMs` after each run ends (never overlapping); failures are logged. */
export function repeatingJob(options: {
  name: string;
  role: Role;
  intervalMs: number;
  logger: Logger;
  work: () => Promise<unknown>;
}): BackgroundJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const run = () => {
    running = options
      .work()
      .catch((err: unknown) => options.logger.error(`${options.name} failed`, { err }))
      .finally(() => {
        running = undefined;
        if (stopped) return;
        timer = setTimeout(run, options.intervalMs);
        timer.unref();
      });
  };
  return {
    name: options.name,
    role: options.role,
    start: () => {
      stopped = false;
      run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
