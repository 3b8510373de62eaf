/**
 * The timer job (docs/process-managers.md, "Timers"): fires a context's due stored timers (projections/shared/timers.ts)
 * with the handler of their kind. One process at a time fires a table's timers (a lease), and it marks a timer
 * fired only while the database says the lease is still its own (fencing): a holder that stalled past its lease
 * cannot overwrite what its successor did. A failure is retried with doubling backoff, at most `maxBackoffMs` apart.
 */
import type { Knex } from 'knex';
import type { Clock } from '../../application/shared/clock.js';
import type { Logger } from '../../application/shared/logger.js';
import type { DueTimer, TimerHandler } from '../../application/shared/timers.js';
import type { Role } from './config.js';
import type { BackgroundJob } from './context.js';
import { defaultLeaseOwner, Lease } from './messaging/lease.js';
import { timersFailed, timersFired } from './metrics.js';

export interface TimerJobOptions {
  /** The timer projector's logical table (its view). */
  table: string;
  handlers: readonly TimerHandler[];
  knex: Knex;
  clock: Clock;
  logger: Logger;
  role?: Role;
  /** Pause between polls (default 1 s). */
  intervalMs?: number;
  /** Due timers taken per poll (default 100), fired `concurrency` at a time (default 8). */
  batchSize?: number;
  concurrency?: number;
  /** First retry after this long, doubling (default 1 s, at most 5 min). */
  backoffMs?: number;
  maxBackoffMs?: number;
  leaseTtlMs?: number;
  ownerId?: string;
}

interface TimerRow {
  timer_id: string;
  kind: string;
  due_at: Date;
  payload: Record<string, unknown>;
  attempts: number;
}

export function timerJob(options: TimerJobOptions): BackgroundJob & { runOnce(): Promise<number> } {
  const { table, knex, clock, logger } = options;
  const handlers = new Map(options.handlers.map((h) => [h.kind, h]));
  const lease = new Lease(
    knex,
    `timers-${table}`,
    options.ownerId ?? defaultLeaseOwner(),
    options.leaseTtlMs ?? 15_000,
  );
  const intervalMs = options.intervalMs ?? 1000;
  const backoffMs = options.backoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 300_000;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  /** Takes the lease, or renews it when a third of its time passed; true while this process holds it. */
  async function holdLease(): Promise<boolean> {
    if (!lease.held) return lease.acquire();
    return lease.renewalDue ? lease.renew() : true;
  }

  /** Marks one timer, fenced by the lease. */
  async function mark(id: string, changes: Record<string, unknown>): Promise<void> {
    await knex.transaction(async (trx) => {
      if (!(await lease.heldIn(trx))) return;
      await trx(table).where({ timer_id: id }).update(changes);
    });
  }

  async function fireOne(row: TimerRow, now: Date): Promise<void> {
    const handler = handlers.get(row.kind);
    const due: DueTimer = {
      id: row.timer_id,
      kind: row.kind,
      dueAt: row.due_at.toISOString(),
      payload: row.payload,
      attempts: row.attempts,
    };
    try {
      if (!handler) throw new Error(`no handler for timers of kind ${row.kind}`);
      await handler.fire(due);
      await mark(row.timer_id, { fired_at: clock.now().toISOString() });
      timersFired.inc({ kind: row.kind });
    } catch (err) {
      const wait = Math.min(maxBackoffMs, backoffMs * 2 ** Math.min(row.attempts, 30));
      logger.warn('timer failed; retried later', {
        timer: row.timer_id,
        kind: row.kind,
        attempts: row.attempts + 1,
        err,
      });
      timersFailed.inc({ kind: row.kind });
      await mark(row.timer_id, {
        attempts: row.attempts + 1,
        next_attempt_at: new Date(now.getTime() + wait).toISOString(),
        last_error: String(err instanceof Error ? err.message : err).slice(0, 500),
      });
    }
  }

  /** One poll: fires what is due (if this process holds the lease); answers how many timers it fired or tried. */
  async function runOnce(): Promise<number> {
    if (!(await holdLease())) return 0;
    const now = clock.now();
    const rows = await knex<TimerRow>(table)
      .select('timer_id', 'kind', 'due_at', 'payload', 'attempts')
      .whereNull('fired_at')
      .where('due_at', '<=', now.toISOString())
      .where((q) => q.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', now.toISOString()))
      .orderBy('due_at')
      .limit(options.batchSize ?? 100);
    const queue = [...rows];
    const workers = Array.from({ length: Math.min(options.concurrency ?? 8, queue.length) }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        if (!lease.held) return;
        await fireOne(row, now);
      }
    });
    await Promise.all(workers);
    return rows.length;
  }

  const loop = () => {
    running = runOnce()
      .catch((err: unknown) => {
        lease.drop();
        logger.error(`timers of ${table} failed`, { err });
      })
      .finally(() => {
        running = undefined;
        if (stopped) return;
        timer = setTimeout(loop, intervalMs);
        timer.unref();
      });
  };

  return {
    name: `timers-${table}`,
    role: options.role ?? 'projector',
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      if (lease.held) await lease.release().catch(() => undefined);
    },
  };
}
