import { z, type ZodObject, type ZodRawShape } from 'zod';
import { publicUrlRule, sandboxesAllowedSetting, sandboxRules } from './sandboxes.js';

/** A boolean setting: true/false, 1/0, yes/no. */
export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** What a process can run; ROLES picks them. */
export const roles = ['api', 'relay', 'projector', 'ipn'] as const;
export type Role = (typeof roles)[number];

/**
 * The settings every process reads, validated at start; each context adds its own slice (its config.ts, listed by
 * container.ts). Secrets are declared apart (secrets.ts). Documented in README.md ("Configuration"); keep the two in
 * step.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * A process without the api role answers /health, /ready (with its roles' lag) and /metrics on this port; unset:
   * PORT; 0: any free port, logged (docs/operations.md, "Health").
   */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly']).default('info'),
  /** External PostgreSQL; unset: an embedded PostgreSQL is started under EMBEDDED_PG_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /** Where the embedded PostgreSQL and generated development secrets live. */
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** NATS with JetStream; unset: the in-process bus. */
  NATS_URL: z.string().optional(),
  NATS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('EVENTS'),
  NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .default('events'),
  /**
   * How long a caught-up projector's NATS consumer waits, once the next event came, for the events behind it, so they
   * come as one batch: fewer fetches, acks and transactions per event at the cost of this much lag (docs/projections.md,
   * "Buses"). 0: each event as it comes.
   */
  NATS_FETCH_LINGER_MS: z.coerce.number().int().min(0).max(5000).default(25),
  /**
   * Give a projector whose event types are one bounded context's only that context's events (a subject filter): far
   * less fan-out; its checkpoint then stops at its context's last event, not the log's (docs/projections.md, "Buses").
   * false: every projector is given every event, as before.
   */
  NATS_FILTER_BY_CONTEXT: bool.default('true'),
  /** EventStoreDB connection string; unset: the PostgreSQL event store. */
  EVENTSTORE_URL: z.string().optional(),
  /** Which roles this process runs (comma separated): api, relay, projector, ipn (the payment hub's IPN dispatcher). */
  ROLES: z
    .string()
    .default('api,relay,projector,ipn')
    .transform((s) => s.split(',').map((r) => r.trim()))
    .pipe(z.array(z.enum(roles))),
  /** Processes serving the api role (node:cluster workers of this process, which keeps the other roles); 1: this process serves it. */
  API_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /** Seed the demo merchant, campaign and pools (default on with the embedded database). */
  SEED_DEMO: bool.optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000),
  /**
   * Who may read /metrics, /openapi.json and /docs: `operator` (an operator token, Authorization: Bearer) or
   * `public`. Unset: operator in production, public elsewhere (docs/operations.md).
   */
  OPERATIONS_ENDPOINTS: z.enum(['public', 'operator']).optional(),
  /**
   * Development and tests only: the outbound client may send to loopback addresses and `localhost` (the demo IPN
   * receiver, tests' local receivers). Unset: true outside production; refused in production (docs/outbound.md).
   */
  EGRESS_ALLOW_LOOPBACK: bool.optional(),
  /**
   * With NODE_ENV=production, the sandboxes this (staging) deployment runs: `payments`, `identity`, comma separated;
   * unset: none, and a sandbox configured is refused (sandboxes.ts; docs/operations.md, "Sandboxes in production").
   */
  SANDBOXES_ALLOWED: sandboxesAllowedSetting,
});

export type Config = z.infer<typeof configSchema>;

/** Whether /metrics, /openapi.json and /docs ask for an operator token. */
export const operationsNeedOperator = (config: Pick<Config, 'NODE_ENV' | 'OPERATIONS_ENDPOINTS'>): boolean =>
  (config.OPERATIONS_ENDPOINTS ?? (config.NODE_ENV === 'production' ? 'operator' : 'public')) === 'operator';

export class ConfigError extends Error {}

/**
 * Production never runs on the embedded database, nor seeds demo data (whose credentials are printed), nor sends to
 * loopback addresses, nor runs a sandbox a staging setting does not name: all are development conveniences
 * (README.md, "Configuration").
 */
function productionRules(config: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (config.NODE_ENV !== 'production') return;
  if (!config.DATABASE_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['DATABASE_URL'],
      message: 'must be set in production (no embedded database)',
    });
  if (config.SEED_DEMO)
    ctx.addIssue({ code: 'custom', path: ['SEED_DEMO'], message: 'demo data is never seeded in production' });
  if (config.EGRESS_ALLOW_LOOPBACK)
    ctx.addIssue({
      code: 'custom',
      path: ['EGRESS_ALLOW_LOOPBACK'],
      message: 'production never sends to loopback addresses (docs/outbound.md)',
    });
  // No sandbox unless SANDBOXES_ALLOWED names it; the public addresses handed out are https and not localhost.
  sandboxRules(config, ctx);
  publicUrlRule(config, 'FILES_PUBLIC_BASE_URL', ctx);
}

/**
 * The shared settings and those of `slice` (the contexts' slices, merged), from the environment. `checked` (the
 * secrets' rules) is validated with them, so that one message names every wrong variable, but left out of the result:
 * secrets are loaded apart (secrets.ts).
 */
export function loadConfig<S extends ZodRawShape = Record<never, never>>(
  env: NodeJS.ProcessEnv = process.env,
  slice?: S,
  checked: ZodRawShape = {},
): Config & z.infer<ZodObject<S>> {
  const parsed = configSchema
    .extend(slice ?? {})
    .extend(checked)
    .superRefine(productionRules)
    .safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const settings: Record<string, unknown> = { ...parsed.data };
  for (const name of Object.keys(checked)) delete settings[name];
  return settings as Config & z.infer<ZodObject<S>>;
}
