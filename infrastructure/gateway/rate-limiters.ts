/**
 * The gateway's rate-limiter port (application/gateway/rate-limiter.ts) on rate-limiter-flexible, fixed windows
 * (docs/gateway.md, "Rate limits" and "Stores"). One library limiter per distinct limit (points and window), made on
 * first use: the default and each override the parties use. Stores:
 * - cluster: the counts live in the node:cluster primary (RateLimiterClusterMaster, startRateLimitPrimary), each API
 *   worker asks it over IPC (RateLimiterCluster): every worker counts against the same window;
 * - memory: this process's own counts (the one process serving the API, or each of several counting alone);
 * - postgres: a table of the service's database (RateLimiterPostgres on knex): several hosts share it;
 * - redis: REDIS_URL (RateLimiterRedis on ioredis): several hosts share it, cheaper per request than PostgreSQL.
 * When a shared store fails, postgres and redis fall back to this process's memory (the library's insurance limiter)
 * and the cluster store lets the request through: the limit protects the service, it must not take it down.
 */
import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Knex } from 'knex';
import {
  RateLimiterCluster,
  RateLimiterClusterMaster,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RateDecision, RateLimit, RateLimiter } from '../../application/gateway/index.js';
import type { Logger } from '../../application/shared/logger.js';
import type { GatewayConfig } from './config.js';

/** The table of the postgres store (created on first use; the library's own layout). */
export const rateLimitTable = 'gateway_rate_limits';

export type RateLimitStore = 'cluster' | 'memory' | 'postgres' | 'redis';

/** The store this process uses: `auto` is the primary's counts in an API worker, memory in a process of its own. */
export function rateLimitStoreOf(config: Pick<GatewayConfig, 'GATEWAY_RATE_LIMIT_STORE'>): RateLimitStore {
  const store = config.GATEWAY_RATE_LIMIT_STORE;
  if (store === 'auto') return cluster.isWorker ? 'cluster' : 'memory';
  return store;
}

/**
 * In the process that forks API workers (main.ts): holds the counts every worker's RateLimiterCluster asks for.
 * Needed only with the auto store; the library keeps one per process, so calling it twice is harmless.
 */
export function startRateLimitPrimary(config: Pick<GatewayConfig, 'GATEWAY_RATE_LIMIT_STORE'>): void {
  if (config.GATEWAY_RATE_LIMIT_STORE === 'auto') new RateLimiterClusterMaster();
}

type Factory = (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

/** Keys longer than the postgres store's column (255) are shortened to their hash; they never are in practice. */
const storedKey = (key: string) => (key.length <= 200 ? key : createHash('sha256').update(key).digest('hex'));

export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  private readonly factory: Factory;
  /** The store's setup (the postgres table, the redis connection), awaited by the first counts; never rejects. */
  private ready: Promise<void> | undefined;
  private close: () => Promise<void> = async () => {};

  constructor(
    readonly store: RateLimitStore,
    private readonly deps: { knex?: Knex; redisUrl?: string; logger: Logger },
  ) {
    const { logger } = deps;
    const memory: Factory = (o) => new RateLimiterMemory(o);
    switch (store) {
      case 'memory':
        this.factory = memory;
        break;
      case 'cluster':
        this.factory = (o) => new RateLimiterCluster({ ...o, timeoutMs: 2000 });
        break;
      case 'postgres': {
        const knex = deps.knex;
        if (!knex) throw new Error('the postgres rate-limit store needs the database');
        this.ready = knex
          .raw(
            `CREATE TABLE IF NOT EXISTS ${rateLimitTable} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
          )
          .then(
            () => undefined,
            (err: unknown) => void logger.error('gateway rate limits: the table could not be created', { err }),
          );
        this.factory = (o) =>
          new RateLimiterPostgres({
            ...o,
            storeClient: knex,
            storeType: 'knex',
            tableName: rateLimitTable,
            tableCreated: true,
            insuranceLimiter: memory(o),
          });
        break;
      }
      case 'redis': {
        // No offline queue: while Redis is away a count fails at once (and the insurance limiter counts instead).
        const redis = new Redis(deps.redisUrl ?? 'redis://127.0.0.1:6379', {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          lazyConnect: true,
        });
        redis.on('error', (err: Error) => logger.warn('gateway rate limits: redis error', { err: err.message }));
        this.ready = redis.connect().catch((err: unknown) => {
          logger.error('gateway rate limits: redis unreachable; counting in memory until it answers', { err });
        });
        this.factory = (o) =>
          new RateLimiterRedis({ ...o, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: memory(o) });
        this.close = async () => {
          await redis.quit().catch(() => redis.disconnect());
        };
        break;
      }
    }
  }

  async consume(key: string, limit: RateLimit): Promise<RateDecision> {
    if (this.ready) {
      await this.ready;
      this.ready = undefined;
    }
    const profile = `gw_${limit.points}_${limit.windowSeconds}`;
    let limiter = this.limiters.get(profile);
    if (!limiter) {
      limiter = this.factory({ keyPrefix: profile, points: limit.points, duration: limit.windowSeconds });
      this.limiters.set(profile, limiter);
    }
    try {
      await limiter.consume(storedKey(key));
      return { allowed: true };
    } catch (refused) {
      if (refused instanceof RateLimiterRes)
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refused.msBeforeNext / 1000)) };
      this.deps.logger.error('gateway rate limit not counted; the request goes through', {
        store: this.store,
        err: refused,
      });
      return { allowed: true };
    }
  }

  async stop(): Promise<void> {
    await this.ready;
    await this.close();
  }
}
