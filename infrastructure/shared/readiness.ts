/**
 * Readiness and what this process's roles report (docs/operations.md, "Health"): the database, NATS where there is
 * one, the relay's lease, each projector's lag, the feeds of each role's own runner with the status of that role's
 * jobs (the ipn role: its outbox feeds and dispatchers), and the start-up work the process holds readiness for. The
 * composition root (container.ts) serves it at /ready from the API and, in a process without it, from its own port.
 */
import type { Knex } from 'knex';
import type { EventBus } from '../../application/shared/event-bus.js';
import type { Config, Role } from './config.js';
import type { BackgroundJob } from './context.js';
import type { Relay } from './messaging/relay.js';
import type { ProjectionRunner } from './projection-runner.js';

export interface Readiness {
  ready: boolean;
  checks: Record<string, boolean>;
  roles: Record<string, unknown>;
}

export function readiness(deps: {
  config: Pick<Config, 'NATS_URL' | 'ROLES'>;
  knex: Knex;
  bus: EventBus;
  relay: Relay;
  projections: ProjectionRunner;
  /** Each role's own runner (context-module.ts, `runners`), by role. */
  roleRunners: ReadonlyMap<Role, ProjectionRunner>;
  jobs: readonly BackgroundJob[];
  /** Start-up work /ready waits for (Container.holdReadiness), by name: done or not. */
  holds: ReadonlyMap<string, boolean>;
}): () => Promise<Readiness> {
  const { config, knex, bus, relay, projections, roleRunners, jobs, holds } = deps;
  const runs = (role: Role) => config.ROLES.includes(role);
  /** A role runner's feeds, and the status of the jobs of that role that report one (the IPN dispatchers). */
  const roleReport = async (role: Role, runner: ProjectionRunner) => ({
    feeds: await runner.status(),
    dispatchers: await Promise.all(
      jobs.filter((j) => j.role === role && j.status).map(async (j) => ({ job: j.name, ...(await j.status!()) })),
    ),
  });
  return async () => {
    const [database, broker] = await Promise.all([
      knex
        .raw('select 1')
        .then(() => true)
        .catch(() => false),
      bus.reachable ? bus.reachable() : true,
    ]);
    // The broker only where there is one: the in-process bus has none to lose.
    const checks: Record<string, boolean> = {
      ...(config.NATS_URL ? { database, nats: broker } : { database }),
      ...Object.fromEntries(holds),
    };
    const roles: Record<string, unknown> = {
      ...(runs('relay') ? { relay: { active: relay.active, blocked: relay.blocked } } : {}),
      ...(runs('projector') ? { projectors: await projections.status() } : {}),
    };
    for (const [role, runner] of roleRunners) if (runs(role)) roles[role] = await roleReport(role, runner);
    // A relay that refuses to publish (the stream is ahead of the log) stops the whole fan-out: not ready.
    const started = [...holds.values()].every(Boolean);
    return { ready: database && broker && started && !relay.blocked, checks, roles };
  };
}
