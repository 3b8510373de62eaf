import type { Knex } from 'knex';
import type { BusConsumer, BusMessage, EventBus } from '../../application/shared/event-bus.js';
import type { EventStore, RecordedEvent } from '../../application/shared/event-store.js';
import { systemClock, type Clock } from '../../application/shared/clock.js';
import {
  announceChanges,
  applyStored,
  type PhysicalNames,
  type ProjectedEvent,
  type Projector,
  type ReadModelTable,
} from '../../projections/shared/projector.js';
import type { Logger } from './logger.js';
import {
  projectionDeadLetters,
  projectionEventsApplied,
  projectionLagEvents,
  projectionLagSeconds,
  projectionPosition,
  setPositionInfo,
} from './metrics.js';
import { writeDeadLetter } from './dead-letters.js';
import { firstHole } from './projection-holes.js';
import { defaultLeaseOwner, Lease } from './messaging/lease.js';
import { pause } from './pause.js';

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
  /** How often lag gauges are refreshed (default 5 s). */
  metricsIntervalMs?: number;
  /** This process's id in the lease rows (default host-pid-random). */
  ownerId?: string;
  /** Time to live of each projector's lease; renewed every third of it (default 10 s). */
  leaseTtlMs?: number;
  /** Pause between tries while another runner holds a projector's lease, and after an error (default 1 s). */
  retryDelayMs?: number;
}

/** One projector in the health report; lag and position only where this runner applies it. */
export interface ProjectorStatus {
  projector: string;
  /** This runner holds its lease and consumes it. */
  applying: boolean;
  /** Messages not yet settled, as the bus counts them; null when the bus did not answer. */
  lagEvents?: number | null;
  lagSeconds?: number;
  position?: string | null;
}

interface CheckpointRow {
  projector: string;
  version: number;
  generation: number;
  position: string | null;
  last_recorded_at: Date | null;
}

interface Progress {
  position: string | null;
  recordedAt: string | null;
}

/** What became of a bus batch: events applied, messages dead-lettered, the first message to come again (-1: none). */
interface BatchOutcome {
  applied: number;
  dead: Set<BusMessage>;
  failedAt: number;
}

/** One projector as this runner drives it. */
interface Slot {
  readonly projector: Projector;
  /** Named like the durable consumer it guards (consumerPrefix + projector name). */
  readonly lease: Lease;
  /** Set while this runner holds the lease; aborted when the hold ends (lease lost, or stopping). */
  term?: AbortController;
  consumer?: BusConsumer;
  /** The bus's stream sequence of the last message applied (projection-holes.ts); unknown after each takeover. */
  sequence?: number;
}

/** Thrown inside a transaction whose fencing check found the lease gone: nothing of it commits. */
class LeaseLostError extends Error {
  constructor(lease: Lease) {
    super(`lease ${lease.name} is no longer held by ${lease.ownerId}`);
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

function physicalNames(projector: Projector, generation: number): PhysicalNames {
  return Object.fromEntries(projector.tables.map((t) => [t.name, `${t.name}_g${generation}`]));
}

async function comment(knex: Knex, kind: 'TABLE' | 'VIEW', relation: string, table: ReadModelTable): Promise<void> {
  await knex.raw(`COMMENT ON ${kind} ${quoteIdent(relation)} IS ${quoteLiteral(table.comment)}`);
  for (const [column, text] of Object.entries(table.columns)) {
    await knex.raw(`COMMENT ON COLUMN ${quoteIdent(relation)}.${quoteIdent(column)} IS ${quoteLiteral(text)}`);
  }
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
 */
export class ProjectionRunner {
  private readonly slots: Map<string, Slot>;
  /** Last committed position per projector, for the metrics. */
  private readonly progress = new Map<string, Progress>();
  private readonly rebuilding = new Set<string>();
  /** Failed tries of events applied from the store (they have no delivery count of their own), by event id. */
  private readonly refillFailures = new Map<string, number>();
  private readonly clock: Clock;
  private readonly batchSize: number;
  private readonly maxDeliveries: number;
  private readonly retryBackoffMs: number;
  private readonly consumerPrefix: string;
  private readonly metricsIntervalMs: number;
  private readonly leaseTtlMs: number;
  private readonly retryDelayMs: number;
  private abort = new AbortController();
  private workers: Promise<void>[] = [];
  private metricsTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: ProjectionRunnerDependencies,
    options: ProjectionRunnerOptions = {},
  ) {
    this.clock = deps.clock ?? systemClock;
    this.batchSize = options.batchSize ?? 1000;
    this.maxDeliveries = options.maxDeliveries ?? 5;
    this.retryBackoffMs = options.retryBackoffMs ?? 200;
    this.consumerPrefix = options.consumerPrefix ?? 'projector-';
    this.metricsIntervalMs = options.metricsIntervalMs ?? 5000;
    this.leaseTtlMs = options.leaseTtlMs ?? 10_000;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
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
    const firstTries: Promise<void>[] = [];
    for (const slot of this.slots.values()) {
      let tried!: () => void;
      firstTries.push(new Promise<void>((resolve) => (tried = resolve)));
      this.workers.push(this.work(slot, signal, tried));
    }
    await Promise.all(firstTries);
    if (signal.aborted) return;
    this.metricsTimer = setInterval(() => {
      this.refreshMetrics().catch((error: unknown) =>
        this.deps.logger?.warn('projection metrics refresh failed', { error }),
      );
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

  /** True while this runner holds the projector's lease (it is rebuilding or applying it). */
  holds(projector: string): boolean {
    const slot = this.slots.get(projector);
    return slot?.term !== undefined && !slot.term.signal.aborted && slot.lease.held;
  }

  /**
   * Each projector as this runner sees it, for the health report (docs/operations.md, "Health"): whether this runner
   * applies it and, if so, its lag in events and seconds and its last position.
   */
  async status(): Promise<ProjectorStatus[]> {
    return Promise.all(
      [...this.slots].map(async ([name, slot]) => {
        if (!this.holds(name) || !slot.consumer) return { projector: name, applying: false };
        const lagEvents = await slot.consumer.pending().catch(() => null);
        const { position, recordedAt } = this.progress.get(name) ?? { position: null, recordedAt: null };
        const behind =
          lagEvents !== null && lagEvents > 0 && recordedAt !== null
            ? (this.clock.now().getTime() - Date.parse(recordedAt)) / 1000
            : 0;
        return { projector: name, applying: true, lagEvents, lagSeconds: Math.max(0, behind), position };
      }),
    );
  }

  /** Sets the lag and position gauges of every projector this runner applies. */
  async refreshMetrics(): Promise<void> {
    for (const [name, { consumer }] of this.slots) {
      if (!consumer) continue;
      const pending = await consumer.pending();
      const { position, recordedAt } = this.progress.get(name) ?? { position: null, recordedAt: null };
      projectionLagEvents.set({ projector: name }, pending);
      const behind =
        pending > 0 && recordedAt !== null ? (this.clock.now().getTime() - Date.parse(recordedAt)) / 1000 : 0;
      projectionLagSeconds.set({ projector: name }, Math.max(0, behind));
      if (position !== null) setPositionInfo(projectionPosition, { projector: name }, position);
    }
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
    const kept = this.keepLease(slot.lease, term);
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
    }
  }

  /**
   * Renews every third of the time to live until `term` ends; ends it when a
   * renewal fails, or has not answered while a third of the lease is left, so
   * the consumer stops before the lease can run out however long the database hangs.
   */
  private async keepLease(lease: Lease, term: AbortController): Promise<void> {
    while (!term.signal.aborted) {
      await pause(this.leaseTtlMs / 3, term.signal);
      if (term.signal.aborted) return;
      const renewal = lease.renew().catch((error: unknown) => {
        this.deps.logger?.warn('projection lease renewal failed', { lease: lease.name, error });
        return false;
      });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>(
        (resolve) => (timer = setTimeout(() => resolve(false), lease.remainingMs - this.leaseTtlMs / 3)),
      );
      const renewed = await Promise.race([renewal, late]).finally(() => clearTimeout(timer));
      if (!renewed) term.abort();
    }
  }

  private async activate(slot: Slot, term: AbortSignal): Promise<void> {
    if (term.aborted) return;
    const { projector } = slot;
    const row = await this.checkpoint(this.deps.knex, projector.name);
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
    slot.consumer = await this.deps.bus.consume(
      {
        durableName: this.consumerPrefix + projector.name,
        startAfter: this.progress.get(projector.name)!.position,
        batchSize: this.batchSize,
      },
      (messages) => this.handle(slot, messages),
    );
  }

  /** `rebuild` for the lease holder; every transaction is fenced, and it gives up between batches once `term` ends. */
  private async rebuildHolding(slot: Slot, term: AbortSignal): Promise<void> {
    const { projector, lease } = slot;
    const { name } = projector;
    if (this.rebuilding.has(name)) throw new Error(`projector ${name} is already being rebuilt`);
    this.rebuilding.add(name);
    const fenced = <T>(work: (trx: Knex.Transaction) => Promise<T>) =>
      this.deps.knex.transaction(async (trx) => {
        if (term.aborted) throw new LeaseLostError(lease);
        const result = await work(trx);
        if (!(await lease.heldIn(trx))) throw new LeaseLostError(lease);
        return result;
      });
    try {
      const { knex } = this.deps;
      const from = (await this.checkpoint(knex, name))?.generation ?? 0;
      const names = physicalNames(projector, from + 1);
      await fenced(async (trx) => {
        for (const table of Object.values(names)) await trx.raw(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
        await projector.createTables(trx, names);
        for (const table of projector.tables) await comment(trx, 'TABLE', names[table.name]!, table);
      });
      let progress: Progress = { position: null, recordedAt: null };
      for (;;) {
        const events = await this.deps.store.readAll(progress.position, this.batchSize);
        if (events.length === 0) break;
        progress = await fenced((trx) => this.replay(trx, projector, names, events));
      }
      progress = await fenced(async (trx) => {
        await trx.raw(
          `INSERT INTO projection_checkpoints (projector, version, generation) VALUES (?, ?, 0) ON CONFLICT (projector) DO NOTHING`,
          [name, projector.version],
        );
        const row = (await this.checkpoint(trx, name, true))!;
        if (row.generation !== from) throw new Error(`projector ${name} was rebuilt by someone else meanwhile`);
        for (;;) {
          const events = await this.deps.store.readAll(progress.position, this.batchSize);
          if (events.length === 0) break;
          progress = await this.replay(trx, projector, names, events);
        }
        for (const table of projector.tables) {
          await trx.raw(`DROP VIEW IF EXISTS ${quoteIdent(table.name)}`);
          await trx.raw(`CREATE VIEW ${quoteIdent(table.name)} AS SELECT * FROM ${quoteIdent(names[table.name]!)}`);
          await comment(trx, 'VIEW', table.name, table);
          if (from > 0)
            await trx.raw(`DROP TABLE IF EXISTS ${quoteIdent(physicalNames(projector, from)[table.name]!)}`);
        }
        // Every row may have changed: caches in front of the read model start afresh.
        await announceChanges(trx, name, new Set(['*']));
        await trx('projection_checkpoints')
          .where({ projector: name })
          .update({
            version: projector.version,
            generation: from + 1,
            position: progress.position,
            last_recorded_at: progress.recordedAt,
            updated_at: this.clock.now(),
          });
        return progress;
      });
      this.progress.set(name, progress);
      this.deps.logger?.info('projection rebuilt', {
        projector: name,
        generation: from + 1,
        position: progress.position,
      });
    } finally {
      this.rebuilding.delete(name);
    }
  }

  private async checkpoint(knex: Knex, projector: string, lock = false): Promise<CheckpointRow | undefined> {
    const query = knex<CheckpointRow>('projection_checkpoints').where({ projector }).first();
    return lock ? query.forUpdate() : query;
  }

  private async replay(
    trx: Knex.Transaction,
    projector: Projector,
    names: PhysicalNames,
    events: ProjectedEvent[],
  ): Promise<Progress> {
    const handled = events.filter((e) => projector.eventTypes.has(e.type));
    if (handled.length > 0) await applyStored(projector, trx, handled, names);
    const last = events[events.length - 1]!;
    return { position: last.position, recordedAt: last.recordedAt };
  }

  /**
   * One bus batch. Where the bus skipped events before one of its messages (projection-holes.ts), the messages
   * before it are handled, then the skipped events are applied from the event store, then the rest.
   */
  private async handle(slot: Slot, messages: BusMessage[]): Promise<void> {
    const { projector, lease } = slot;
    if (!lease.held || slot.term?.signal.aborted) return void (await this.refuse(slot, messages));
    const checkpoint = this.progress.get(projector.name)?.position ?? null;
    const hole = await firstHole(this.deps.store, checkpoint, slot.sequence, messages);
    if (!hole) return void (await this.handleBatch(slot, messages));
    const rest = messages.slice(hole.index);
    const handled = hole.index === 0 || (await this.handleBatch(slot, messages.slice(0, hole.index)));
    if (!handled || !(await this.refill(slot, hole.missing))) return void (await Promise.all(rest.map((m) => m.nak())));
    return this.handle(slot, rest);
  }

  /**
   * Events the bus did not give this runner, read from the event store, applied and checkpointed in one fenced
   * transaction. One that fails is retried with the batch it came before, up to the runner's maximum, then
   * dead-lettered like any other. False when nothing was committed (the lease is gone, or an event failed).
   */
  private async refill(slot: Slot, missing: RecordedEvent[]): Promise<boolean> {
    const { projector, lease } = slot;
    this.deps.logger?.warn(
      'the bus skipped events (given to another consumer, or the stream was recreated); applying them from the event store',
      {
        projector: projector.name,
        count: missing.length,
        from: missing[0]!.position,
        to: missing.at(-1)!.position,
      },
    );
    try {
      const progress = await this.deps.knex.transaction(async (trx) => {
        const row = await this.checkpoint(trx, projector.name, true);
        if (!row) throw new Error(`projector ${projector.name} has no checkpoint row`);
        const names = physicalNames(projector, row.generation);
        const events = missing.filter((e) => row.position === null || e.position > row.position);
        if (events.length === 0) return undefined;
        for (const event of events.filter((e) => projector.eventTypes.has(e.type))) {
          try {
            await trx.transaction((savepoint) => applyStored(projector, savepoint, [event], names));
            this.refillFailures.delete(event.id);
          } catch (error) {
            const deliveryCount = (this.refillFailures.get(event.id) ?? 0) + 1;
            this.refillFailures.set(event.id, deliveryCount);
            if (deliveryCount < this.maxDeliveries) throw error;
            this.refillFailures.delete(event.id);
            await writeDeadLetter(
              trx,
              { projector: projector.name, message: { event, deliveryCount }, error, at: this.clock.now() },
              this.deps.logger,
            );
            projectionDeadLetters.inc({ projector: projector.name });
          }
        }
        const last = events.at(-1)!;
        await trx('projection_checkpoints').where({ projector: projector.name }).update({
          position: last.position,
          last_recorded_at: last.recordedAt,
          updated_at: this.clock.now(),
        });
        if (!(await lease.heldIn(trx))) throw new LeaseLostError(lease);
        projectionEventsApplied.inc({ projector: projector.name }, events.length);
        return { position: last.position, recordedAt: last.recordedAt };
      });
      if (progress) this.progress.set(projector.name, progress);
      return true;
    } catch (error) {
      if (error instanceof LeaseLostError) {
        slot.term?.abort();
        return false;
      }
      this.deps.logger?.warn('projection failed to apply events skipped by the bus; they come again', {
        projector: projector.name,
        error,
      });
      await pause(this.retryBackoffMs, slot.term!.signal);
      return false;
    }
  }

  /**
   * A batch without holes: apply, checkpoint and dead-letter in one transaction that
   * commits only while the lease is ours; settle the messages after it commits.
   * A batch that finds the lease gone is nak'ed whole and ends the runner's hold.
   * True when every message was settled.
   */
  private async handleBatch(slot: Slot, messages: BusMessage[]): Promise<boolean> {
    const { projector, lease } = slot;
    let outcome: BatchOutcome = { applied: 0, dead: new Set(), failedAt: -1 };
    const progress = await this.deps.knex
      .transaction(async (trx) => {
        const row = await this.checkpoint(trx, projector.name, true);
        if (!row) throw new Error(`projector ${projector.name} has no checkpoint row; start the runner to create it`);
        const names = physicalNames(projector, row.generation);
        const from: Progress = { position: row.position, recordedAt: row.last_recorded_at?.toISOString() ?? null };
        const fresh = this.after(from.position, messages);
        const handled = fresh.filter((m) => projector.eventTypes.has(m.event.type)).map((m) => m.event);
        let progress = from;
        try {
          if (handled.length > 0)
            await trx.transaction((savepoint) => applyStored(projector, savepoint, handled, names));
          outcome.applied = handled.length;
          if (fresh.length > 0)
            progress = { position: fresh.at(-1)!.event.position, recordedAt: fresh.at(-1)!.event.recordedAt };
        } catch (error) {
          this.deps.logger?.warn('projection failed to apply a batch; applying its events one by one', {
            projector: projector.name,
            error,
          });
          ({ outcome, progress } = await this.oneByOne(trx, projector, names, messages, fresh, from));
        }
        if (progress.position !== row.position) {
          await trx('projection_checkpoints').where({ projector: projector.name }).update({
            position: progress.position,
            last_recorded_at: progress.recordedAt,
            updated_at: this.clock.now(),
          });
        }
        if (!(await lease.heldIn(trx))) throw new LeaseLostError(lease);
        return progress;
      })
      .catch((error: unknown) => {
        if (error instanceof LeaseLostError) return undefined;
        throw error;
      });
    if (!progress) return this.refuse(slot, messages);
    const { applied, dead, failedAt } = outcome;
    this.progress.set(projector.name, progress);
    const lastApplied = [...messages].reverse().find((m) => m.event.position === progress.position);
    if (lastApplied?.sequence !== undefined) slot.sequence = lastApplied.sequence;
    projectionEventsApplied.inc({ projector: projector.name }, applied);
    projectionDeadLetters.inc({ projector: projector.name }, dead.size);
    if (progress.position !== null)
      setPositionInfo(projectionPosition, { projector: projector.name }, progress.position);
    const settled = failedAt < 0 ? messages : messages.slice(0, failedAt);
    // Settled all at once, not one await each: the NATS client then sends them in one write, not one per message.
    await Promise.all(settled.map((m) => (dead.has(m) ? m.term() : m.ack())));
    if (failedAt < 0) return true;
    const failed = messages[failedAt]!;
    await pause(Math.min(this.retryBackoffMs * 2 ** (failed.deliveryCount - 1), 5000), slot.term!.signal);
    await Promise.all(messages.slice(failedAt).map((m) => m.nak()));
    return false;
  }

  /** The messages of a batch after `position`, each position once (a message delivered twice in one batch counts once). */
  private after(position: string | null, messages: BusMessage[]): BusMessage[] {
    const fresh: BusMessage[] = [];
    for (const m of messages) {
      if (position !== null && m.event.position <= position) continue;
      fresh.push(m);
      position = m.event.position;
    }
    return fresh;
  }

  /**
   * The per-event path, after a batch failed to apply in one go: each handled
   * event under its own savepoint, so the failing one is found; it comes again
   * (it and everything after it are nak'ed) until its last delivery, when it is
   * dead-lettered and the checkpoint moves past it.
   */
  private async oneByOne(
    trx: Knex.Transaction,
    projector: Projector,
    names: PhysicalNames,
    messages: BusMessage[],
    fresh: BusMessage[],
    from: Progress,
  ): Promise<{ outcome: BatchOutcome; progress: Progress }> {
    const outcome: BatchOutcome = { applied: 0, dead: new Set(), failedAt: -1 };
    let progress = from;
    for (const message of fresh) {
      const { event } = message;
      if (projector.eventTypes.has(event.type)) {
        try {
          await trx.transaction((savepoint) => applyStored(projector, savepoint, [event], names));
          outcome.applied++;
        } catch (error) {
          if (message.deliveryCount < this.maxDeliveries) {
            this.deps.logger?.warn('projection failed to apply an event; it comes again', {
              projector: projector.name,
              eventId: event.id,
              deliveryCount: message.deliveryCount,
              error,
            });
            outcome.failedAt = messages.indexOf(message);
            break;
          }
          await writeDeadLetter(
            trx,
            { projector: projector.name, message, error, at: this.clock.now() },
            this.deps.logger,
          );
          outcome.dead.add(message);
        }
      }
      progress = { position: event.position, recordedAt: event.recordedAt };
    }
    return { outcome, progress };
  }

  /** A batch this runner may no longer commit: nak it whole (it comes again, in order, to the lease holder) and end the hold. */
  private async refuse(slot: Slot, messages: BusMessage[]): Promise<false> {
    this.deps.logger?.warn('projection batch not committed: the lease is gone', {
      projector: slot.projector.name,
      owner: slot.lease.ownerId,
    });
    slot.term?.abort();
    await Promise.all(messages.map((m) => m.nak()));
    return false;
  }
}
