import { setMaxListeners } from 'node:events';
import type { Knex } from 'knex';
import pLimit from 'p-limit';
import type { EventBus } from '../../application/shared/event-bus.js';
import type { EventStore } from '../../application/shared/event-store.js';
import { systemClock, type Clock } from '../../application/shared/clock.js';
import type { Projector } from '../../projections/shared/projector.js';
import type { Logger } from './logger.js';
import {
  projectionCatchingUp,
  projectionLagClosing,
  projectionLagEvents,
  projectionLagSeconds,
  projectionPosition,
  setPositionInfo,
} from './metrics.js';
import { defaultLeaseOwner, keepLease, Lease } from './messaging/lease.js';
import { pause } from './pause.js';
import { ProjectionBatches } from './projection-batches.js';
import { busBack, catchUpIfDue, catchUpWhileBusAway, type CatchUpDependencies } from './projection-catch-up.js';
import { LagTrend, lookAtLag, type Lag } from './projection-lag.js';
import { OneRebuildAtATime } from './projection-rebuild.js';
import { inTurn, readCheckpoint, type Progress, type Slot } from './projection-slots.js';

export interface ProjectionRunnerDependencies {
  knex: Knex;
  /** Read from the beginning by a rebuild (the bus is not the archive). */
  store: EventStore;
  bus: EventBus;
  projectors: readonly Projector[];
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  clock?: Clock;
}

export interface ProjectionRunnerOptions {
  /** Events per bus batch and per rebuild transaction (default 1000). */
  batchSize?: number;
  /** Deliveries of an event that fails to apply before it is dead-lettered (default 5). */
  maxDeliveries?: number;
  /** Pause before a failed event comes again; doubles per delivery, at most 5 s (default 200 ms). */
  retryBackoffMs?: number;
  /** Durable consumer name = prefix + projector name (default 'projector-'). */
  consumerPrefix?: string;
  /**
   * How often each projector's lag is looked at (a catch-up from the store when far behind or when the bus does not
   * answer) and the lag gauges refreshed (default 1 s).
   */
  metricsIntervalMs?: number;
  /** This process's id in the lease rows (default host-pid-random). */
  ownerId?: string;
  /** Time to live of each projector's lease; renewed every third of it (default 10 s). */
  leaseTtlMs?: number;
  /** Pause between tries while another runner holds a projector's lease, and after an error (default 1 s). */
  retryDelayMs?: number;
  /** Longest a checkpoint row stays behind events its projector does not handle (default 200 ms; projection-batches.ts). */
  checkpointDelayMs?: number;
  /**
   * How long one transaction of a bus batch may run before the rest of the batch goes in the next one (default 200 ms;
   * projection-batches.ts): a batch of 1,000 events on a busy machine no longer holds its transaction, its pooled
   * connection and the checkpoint row for seconds.
   */
  batchTimeMs?: number;
  /**
   * Lag in events past which a projector reads the event store instead of the bus until it is near the head (default
   * 2,000; Infinity: never; projection-catch-up.ts). Looked at with the metrics (metricsIntervalMs) and on /ready.
   */
  catchUpThreshold?: number;
  /** How many projectors read the event store at once to catch up (default 2; projection-catch-up.ts). */
  catchUpsAtOnce?: number;
}

/** One projector in the health report; lag and position only where this runner applies it. */
export interface ProjectorStatus {
  projector: string;
  /** This runner holds its lease and consumes it. */
  applying: boolean;
  /** Messages not yet settled, as the bus counts them; null when the bus did not answer. */
  lagEvents?: number | null;
  lagSeconds?: number;
  /** Events per second the lag in events fell over the last 30 s (negative: it grew); null until two looks tell. */
  lagClosingPerSecond?: number | null;
  /** Reading the event store to catch up, far behind (docs/projections.md, "Catching up"). */
  catchingUp?: boolean;
  position?: string | null;
}

/**
 * Feeds each projector from its own durable bus consumer. A batch is one
 * Postgres transaction that writes the rows and the projector's checkpoint
 * (projection_checkpoints); events at or before the checkpoint are skipped,
 * so redelivery changes nothing; messages are acked after the commit. The
 * projector gets the events of its `eventTypes` in one `apply` call; should
 * that throw, they are applied again one by one to find the failing event
 * (retried, then dead-lettered), the others only move the checkpoint.
 *
 * Read models are versioned: a projector writes physical tables of one
 * generation (`<table>_g<n>`) and readers query views under the logical
 * names. `rebuild` fills a new generation from the event store and swaps the
 * views in one transaction, so the old rows serve until then.
 *
 * Any number of runners may run: per projector, only the holder of its lease
 * (a `leases` row named like its durable consumer) rebuilds and consumes; the
 * others retry until it is free. A holder that cannot renew in time stops its
 * consumer before the lease can run out, and every transaction that writes
 * rows or the checkpoint checks, before it commits, that the lease is still
 * ours (fencing), so a runner that lost it commits nothing.
 *
 * No batch holds the event loop (docs/projections.md, "The event loop"): events are applied in slices, a batch in
 * transactions of bounded time, rebuilds one at a time. A projector far behind reads the event store instead of its
 * consumer until it is near the head (projection-catch-up.ts).
 */
export class ProjectionRunner {
  private readonly slots: Map<string, Slot>;
  /** Last committed position per projector, for the metrics. */
  private readonly progress = new Map<string, Progress>();
  private readonly rebuilds = new OneRebuildAtATime();
  private readonly clock: Clock;
  private readonly batchSize: number;
  private readonly batches: ProjectionBatches;
  private readonly consumerPrefix: string;
  private readonly metricsIntervalMs: number;
  private readonly leaseTtlMs: number;
  private readonly retryDelayMs: number;
  private readonly catchUpThreshold: number;
  private readonly catchUp: CatchUpDependencies;
  private abort = new AbortController();
  private workers: Promise<void>[] = [];
  private metricsTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: ProjectionRunnerDependencies,
    options: ProjectionRunnerOptions = {},
  ) {
    this.clock = deps.clock ?? systemClock;
    this.batchSize = options.batchSize ?? 1000;
    this.batches = new ProjectionBatches({
      knex: deps.knex,
      store: deps.store,
      clock: this.clock,
      logger: deps.logger,
      maxDeliveries: options.maxDeliveries ?? 5,
      retryBackoffMs: options.retryBackoffMs ?? 200,
      progress: this.progress,
      checkpointDelayMs: options.checkpointDelayMs ?? 200,
      batchTimeMs: options.batchTimeMs ?? 200,
    });
    this.consumerPrefix = options.consumerPrefix ?? 'projector-';
    this.metricsIntervalMs = options.metricsIntervalMs ?? 1000;
    this.leaseTtlMs = options.leaseTtlMs ?? 10_000;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.catchUpThreshold = options.catchUpThreshold ?? 2000;
    this.catchUp = {
      store: deps.store,
      batches: this.batches,
      progress: this.progress,
      logger: deps.logger,
      pageSize: this.batchSize,
      readsAtOnce: pLimit(options.catchUpsAtOnce ?? 2),
      repositionEveryMs: this.metricsIntervalMs,
    };
    const ownerId = options.ownerId ?? defaultLeaseOwner();
    this.slots = new Map(
      deps.projectors.map((projector) => [
        projector.name,
        { projector, lease: new Lease(deps.knex, this.consumerPrefix + projector.name, ownerId, this.leaseTtlMs) },
      ]),
    );
    if (this.slots.size !== deps.projectors.length) throw new Error('projector names must be unique');
  }

  /**
   * Starts competing for every projector's lease. Resolves once each projector
   * was tried once: taken (rebuilt if new or its version changed, and
   * consuming), held by another runner, or failed (logged); it keeps trying.
   */
  async start(): Promise<void> {
    if (this.workers.length > 0) return;
    this.abort = new AbortController();
    const { signal } = this.abort;
    // Each slot's leadership listens on it (lead), and waits with pause(): a few listeners per projector, by design.
    setMaxListeners(4 * this.slots.size + 10, signal);
    const firstTries: Promise<void>[] = [];
    for (const slot of this.slots.values()) {
      let tried!: () => void;
      firstTries.push(new Promise<void>((resolve) => (tried = resolve)));
      this.workers.push(this.work(slot, signal, tried));
    }
    await Promise.all(firstTries);
    if (signal.aborted) return;
    let looking = false;
    this.metricsTimer = setInterval(() => {
      if (looking) return; // the last look has not ended (a slow database): the next tick looks again
      looking = true;
      this.refreshMetrics()
        .catch((error: unknown) => this.deps.logger?.warn('projection metrics refresh failed', { error }))
        .finally(() => (looking = false));
    }, this.metricsIntervalMs);
    this.metricsTimer.unref();
  }

  /** Stops every consumer after the batch it is handling, then releases the leases so another runner takes over at once. */
  async stop(): Promise<void> {
    clearInterval(this.metricsTimer);
    this.abort.abort();
    await Promise.all(this.workers);
    this.workers = [];
  }

  /**
   * The event types each projector of this runner applies. Where the bus gives a projector one context's events only,
   * its checkpoint stops at the last of those, not at the log's head (docs/projections.md, "Buses"): waiting for a
   * projector to catch up means waiting for it to pass the last event of these types.
   */
  eventTypes(): Map<string, ReadonlySet<string>> {
    return new Map([...this.slots].map(([name, { projector }]) => [name, projector.eventTypes]));
  }

  /** True while this runner holds the projector's lease (it is rebuilding or applying it). */
  holds(projector: string): boolean {
    const slot = this.slots.get(projector);
    return slot?.term !== undefined && !slot.term.signal.aborted && slot.lease.held;
  }

  /**
   * Each projector as this runner sees it, for the health report (docs/operations.md, "Health"): whether this runner
   * applies it and, if so, its lag in events and seconds, how fast that closes, and its last position.
   */
  async status(): Promise<ProjectorStatus[]> {
    return Promise.all(
      [...this.slots].map(async ([name, slot]) => {
        if (!this.holds(name) || !slot.consumer) return { projector: name, applying: false };
        const lag = await this.look(slot);
        return {
          projector: name,
          applying: true,
          lagEvents: lag.events,
          lagSeconds: lag.seconds,
          lagClosingPerSecond: lag.closingPerSecond,
          catchingUp: slot.catchingUp === true,
          position: this.progress.get(name)?.position ?? null,
        };
      }),
    );
  }

  /**
   * Looks at the lag of every projector this runner applies (reading the store for those far behind, or whose bus
   * does not answer) and sets the lag and position gauges.
   */
  async refreshMetrics(): Promise<void> {
    await Promise.all(
      [...this.slots].map(async ([name, slot]) => {
        if (!slot.consumer) return;
        const lag = await this.look(slot);
        if (lag.events === null) catchUpWhileBusAway(this.catchUp, slot);
        else busBack(this.catchUp, slot);
        const position = this.progress.get(name)?.position ?? null;
        if (lag.events !== null) projectionLagEvents.set({ projector: name }, lag.events);
        projectionLagSeconds.set({ projector: name }, lag.seconds);
        if (lag.closingPerSecond !== null) projectionLagClosing.set({ projector: name }, lag.closingPerSecond);
        projectionCatchingUp.set({ projector: name }, slot.catchingUp ? 1 : 0);
        if (position !== null) setPositionInfo(projectionPosition, { projector: name }, position);
      }),
    );
  }

  /** The projector's lag now (projection-lag.ts); past the catch-up threshold, its next batch reads the store first. */
  private look(slot: Slot): Promise<Lag> {
    return lookAtLag(slot, this.progress.get(slot.projector.name), this.clock.now(), this.catchUpThreshold);
  }

  /**
   * Replays the whole event store into a fresh generation of the projector's
   * tables, then, in one transaction that holds the checkpoint row (pausing
   * the live consumer), applies what arrived meanwhile, points the views at
   * the new tables, drops the old ones and moves the checkpoint. Only the
   * runner holding the projector's lease may rebuild it.
   */
  async rebuild(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) throw new Error(`unknown projector ${name}`);
    if (!this.holds(name))
      throw new Error(`projector ${name} is applied by another runner (lease ${slot.lease.name}); rebuild it there`);
    await this.rebuildHolding(slot, slot.term!.signal);
  }

  /** One projector's life in this runner: take its lease, apply it while the lease holds, try again after losing it. */
  private async work(slot: Slot, stopping: AbortSignal, tried: () => void): Promise<void> {
    const { projector, lease } = slot;
    while (!stopping.aborted) {
      try {
        if (await lease.acquire()) {
          this.deps.logger?.info('projection runner holds the lease', {
            projector: projector.name,
            owner: lease.ownerId,
            takenFromGoneProcess: lease.takenFromGone,
          });
          await this.lead(slot, stopping, tried);
          if (!stopping.aborted)
            this.deps.logger?.warn('projection runner lost the lease; stopped applying', {
              projector: projector.name,
              owner: lease.ownerId,
            });
        }
      } catch (error) {
        if (!stopping.aborted)
          this.deps.logger?.error('projection runner failed; retrying', { projector: projector.name, error });
      }
      if (!stopping.aborted) lease.drop();
      tried();
      await pause(this.retryDelayMs, stopping);
    }
    await lease
      .release()
      .catch((error: unknown) =>
        this.deps.logger?.warn('projection lease release failed', { projector: projector.name, error }),
      );
  }

  /**
   * While the lease is ours: rebuild if needed, consume, keep renewing. The
   * moment the hold ends (lease lost, a fenced commit refused, or stopping)
   * the consumer is told to stop, so it fetches nothing more.
   */
  private async lead(slot: Slot, stopping: AbortSignal, activated: () => void): Promise<void> {
    const term = new AbortController();
    let consumerStopped: Promise<void> | undefined;
    const stopConsumer = () => {
      const consumer = slot.consumer;
      slot.consumer = undefined;
      if (!consumer) return;
      consumerStopped = consumer.stop().catch((error: unknown) => {
        this.deps.logger?.warn('projection consumer failed to stop', { projector: slot.projector.name, error });
      });
    };
    const endTerm = () => term.abort();
    term.signal.addEventListener('abort', stopConsumer);
    stopping.addEventListener('abort', endTerm);
    if (stopping.aborted) term.abort(); // stopped while the lease was being taken: a listener added now never fires
    slot.term = term;
    const kept = keepLease(slot.lease, term, (error) =>
      this.deps.logger?.warn('projection lease renewal failed', { lease: slot.lease.name, error }),
    );
    try {
      await this.activate(slot, term.signal);
      activated();
      await kept;
    } finally {
      term.abort();
      stopping.removeEventListener('abort', endTerm);
      await kept;
      stopConsumer(); // one that activation registered after the term ended
      await consumerStopped;
      await this.batches.saveCheckpoint(slot);
    }
  }

  private async activate(slot: Slot, term: AbortSignal): Promise<void> {
    if (term.aborted) return;
    const { projector } = slot;
    const row = await readCheckpoint(this.deps.knex, projector.name);
    if (!row || row.version !== projector.version) {
      this.deps.logger?.info('rebuilding projection', {
        projector: projector.name,
        from: row?.version ?? null,
        to: projector.version,
      });
      await this.rebuildHolding(slot, term);
    } else {
      this.progress.set(projector.name, {
        position: row.position,
        recordedAt: row.last_recorded_at?.toISOString() ?? null,
      });
    }
    if (term.aborted) return;
    slot.sequence = undefined;
    slot.lag = new LagTrend();
    slot.catchUpDue = undefined;
    slot.busAway = false;
    slot.consumer = await this.deps.bus.consume(
      {
        durableName: this.consumerPrefix + projector.name,
        startAfter: this.progress.get(projector.name)!.position,
        // Where the consumer is created again after an error: after what this runner applied (docs/projections.md,
        // "Where a consumer starts"). Its progress is the committed checkpoint, or past it by events passed over.
        checkpoint: () => this.progress.get(projector.name)?.position ?? null,
        batchSize: this.batchSize,
        eventTypes: projector.eventTypes,
      },
      (messages) =>
        inTurn(slot, async () => {
          await catchUpIfDue(this.catchUp, slot);
          await this.batches.handle(slot, messages);
        }),
    );
    // Far behind already? Then the first batches read the store (look; not awaited: the start waits for no broker).
    void this.look(slot);
  }

  /** `rebuild` for the lease holder (projection-rebuild.ts): one rebuild at a time in this runner. */
  private async rebuildHolding(slot: Slot, term: AbortSignal): Promise<void> {
    const { name } = slot.projector;
    const { knex, store } = this.deps;
    const { generation, progress } = await this.rebuilds.run(
      { knex, store, clock: this.clock, batchSize: this.batchSize },
      slot,
      term,
    );
    this.progress.set(name, progress);
    this.deps.logger?.info('projection rebuilt', { projector: name, generation, position: progress.position });
  }
}
