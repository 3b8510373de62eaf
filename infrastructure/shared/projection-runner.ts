import type { Knex } from 'knex';
import type { BusConsumer, BusMessage, EventBus } from '../../application/shared/event-bus.js';
import type { EventStore } from '../../application/shared/event-store.js';
import { systemClock, type Clock } from '../../application/shared/clock.js';
import type { PhysicalNames, ProjectedEvent, Projector, ReadModelTable } from '../../projections/shared/projector.js';
import type { Logger } from './logger.js';
import { projectionDeadLetters, projectionEventsApplied, projectionLagEvents, projectionLagSeconds, projectionPosition, setPositionInfo } from './metrics.js';
import { pause } from './messaging/pause.js';

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
  /** Events per bus batch and per rebuild transaction (default 100). */
  batchSize?: number;
  /** Deliveries of an event that fails to apply before it is dead-lettered (default 5). */
  maxDeliveries?: number;
  /** Pause before a failed event comes again; doubles per delivery, at most 5 s (default 200 ms). */
  retryBackoffMs?: number;
  /** Durable consumer name = prefix + projector name (default 'projector-'). */
  consumerPrefix?: string;
  /** How often lag gauges are refreshed (default 5 s). */
  metricsIntervalMs?: number;
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
 * so redelivery changes nothing; messages are acked after the commit.
 *
 * Read models are versioned: a projector writes physical tables of one
 * generation (`<table>_g<n>`) and readers query views under the logical
 * names. `rebuild` fills a new generation from the event store and swaps the
 * views in one transaction, so the old rows serve until then.
 *
 * Run one runner per projector at a time (the ROLES=projector process): two
 * runners sharing a durable consumer would commit interleaved batches.
 */
export class ProjectionRunner {
  private readonly projectors: Map<string, Projector>;
  private readonly consumers = new Map<string, BusConsumer>();
  /** Last committed position per projector, for the metrics. */
  private readonly progress = new Map<string, Progress>();
  private readonly rebuilding = new Set<string>();
  private readonly clock: Clock;
  private readonly batchSize: number;
  private readonly maxDeliveries: number;
  private readonly retryBackoffMs: number;
  private readonly consumerPrefix: string;
  private readonly metricsIntervalMs: number;
  private abort = new AbortController();
  private metricsTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: ProjectionRunnerDependencies,
    options: ProjectionRunnerOptions = {},
  ) {
    this.projectors = new Map(deps.projectors.map((p) => [p.name, p]));
    if (this.projectors.size !== deps.projectors.length) throw new Error('projector names must be unique');
    this.clock = deps.clock ?? systemClock;
    this.batchSize = options.batchSize ?? 100;
    this.maxDeliveries = options.maxDeliveries ?? 5;
    this.retryBackoffMs = options.retryBackoffMs ?? 200;
    this.consumerPrefix = options.consumerPrefix ?? 'projector-';
    this.metricsIntervalMs = options.metricsIntervalMs ?? 5000;
  }

  /** Rebuilds projectors that are new or whose version changed, then consumes the bus for each. */
  async start(): Promise<void> {
    this.abort = new AbortController();
    for (const projector of this.projectors.values()) {
      const row = await this.checkpoint(this.deps.knex, projector.name);
      if (!row || row.version !== projector.version) {
        this.deps.logger?.info('rebuilding projection', { projector: projector.name, from: row?.version ?? null, to: projector.version });
        await this.rebuild(projector.name);
      } else {
        this.progress.set(projector.name, { position: row.position, recordedAt: row.last_recorded_at?.toISOString() ?? null });
      }
      const consumer = await this.deps.bus.consume(
        { durableName: this.consumerPrefix + projector.name, startAfter: this.progress.get(projector.name)!.position, batchSize: this.batchSize },
        (messages) => this.handle(projector, messages),
      );
      this.consumers.set(projector.name, consumer);
    }
    this.metricsTimer = setInterval(() => {
      this.refreshMetrics().catch((error: unknown) => this.deps.logger?.warn('projection metrics refresh failed', { error }));
    }, this.metricsIntervalMs);
    this.metricsTimer.unref();
  }

  /** Stops every consumer after the batch it is handling. */
  async stop(): Promise<void> {
    clearInterval(this.metricsTimer);
    this.abort.abort();
    await Promise.all([...this.consumers.values()].map((c) => c.stop()));
    this.consumers.clear();
  }

  /** Sets the lag and position gauges of every running projector. */
  async refreshMetrics(): Promise<void> {
    for (const [name, consumer] of this.consumers) {
      const pending = await consumer.pending();
      const { position, recordedAt } = this.progress.get(name) ?? { position: null, recordedAt: null };
      projectionLagEvents.set({ projector: name }, pending);
      const behind = pending > 0 && recordedAt !== null ? (this.clock.now().getTime() - Date.parse(recordedAt)) / 1000 : 0;
      projectionLagSeconds.set({ projector: name }, Math.max(0, behind));
      if (position !== null) setPositionInfo(projectionPosition, { projector: name }, position);
    }
  }

  /**
   * Replays the whole event store into a fresh generation of the projector's
   * tables, then, in one transaction that holds the checkpoint row (pausing
   * the live consumer), applies what arrived meanwhile, points the views at
   * the new tables, drops the old ones and moves the checkpoint.
   */
  async rebuild(name: string): Promise<void> {
    const projector = this.projectors.get(name);
    if (!projector) throw new Error(`unknown projector ${name}`);
    if (this.rebuilding.has(name)) throw new Error(`projector ${name} is already being rebuilt`);
    this.rebuilding.add(name);
    try {
      const { knex } = this.deps;
      const from = (await this.checkpoint(knex, name))?.generation ?? 0;
      const names = physicalNames(projector, from + 1);
      await knex.transaction(async (trx) => {
        for (const table of Object.values(names)) await trx.raw(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
        await projector.createTables(trx, names);
        for (const table of projector.tables) await comment(trx, 'TABLE', names[table.name]!, table);
      });
      let progress: Progress = { position: null, recordedAt: null };
      for (;;) {
        const events = await this.deps.store.readAll(progress.position, this.batchSize);
        if (events.length === 0) break;
        progress = await knex.transaction((trx) => this.replay(trx, projector, names, events));
      }
      progress = await knex.transaction(async (trx) => {
        await trx.raw(`INSERT INTO projection_checkpoints (projector, version, generation) VALUES (?, ?, 0) ON CONFLICT (projector) DO NOTHING`, [
          name,
          projector.version,
        ]);
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
          if (from > 0) await trx.raw(`DROP TABLE IF EXISTS ${quoteIdent(physicalNames(projector, from)[table.name]!)}`);
        }
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
      this.deps.logger?.info('projection rebuilt', { projector: name, generation: from + 1, position: progress.position });
    } finally {
      this.rebuilding.delete(name);
    }
  }

  private async checkpoint(knex: Knex, projector: string, lock = false): Promise<CheckpointRow | undefined> {
    const query = knex<CheckpointRow>('projection_checkpoints').where({ projector }).first();
    return lock ? query.forUpdate() : query;
  }

  private async replay(trx: Knex.Transaction, projector: Projector, names: PhysicalNames, events: ProjectedEvent[]): Promise<Progress> {
    for (const event of events) await projector.apply(trx, event, names);
    const last = events[events.length - 1]!;
    return { position: last.position, recordedAt: last.recordedAt };
  }

  /** One bus batch: apply, checkpoint and dead-letter in one transaction; settle the messages after it commits. */
  private async handle(projector: Projector, messages: BusMessage[]): Promise<void> {
    const dead = new Set<BusMessage>();
    let failedAt = -1;
    let applied = 0;
    const progress = await this.deps.knex.transaction(async (trx) => {
      const row = await this.checkpoint(trx, projector.name, true);
      if (!row) throw new Error(`projector ${projector.name} has no checkpoint row; start the runner to create it`);
      const names = physicalNames(projector, row.generation);
      let progress: Progress = { position: row.position, recordedAt: row.last_recorded_at?.toISOString() ?? null };
      for (const [i, message] of messages.entries()) {
        const { event } = message;
        if (progress.position !== null && event.position <= progress.position) continue;
        try {
          await trx.transaction((savepoint) => projector.apply(savepoint, event, names));
          applied++;
        } catch (error) {
          if (message.deliveryCount < this.maxDeliveries) {
            this.deps.logger?.warn('projection failed to apply an event; it comes again', {
              projector: projector.name,
              eventId: event.id,
              deliveryCount: message.deliveryCount,
              error,
            });
            failedAt = i;
            break;
          }
          await this.deadLetter(trx, projector.name, message, error);
          dead.add(message);
        }
        progress = { position: event.position, recordedAt: event.recordedAt };
      }
      if (progress.position !== row.position) {
        await trx('projection_checkpoints')
          .where({ projector: projector.name })
          .update({ position: progress.position, last_recorded_at: progress.recordedAt, updated_at: this.clock.now() });
      }
      return progress;
    });
    this.progress.set(projector.name, progress);
    projectionEventsApplied.inc({ projector: projector.name }, applied);
    projectionDeadLetters.inc({ projector: projector.name }, dead.size);
    if (progress.position !== null) setPositionInfo(projectionPosition, { projector: projector.name }, progress.position);
    const settled = failedAt < 0 ? messages : messages.slice(0, failedAt);
    for (const m of settled) await (dead.has(m) ? m.term() : m.ack());
    if (failedAt < 0) return;
    const failed = messages[failedAt]!;
    await pause(Math.min(this.retryBackoffMs * 2 ** (failed.deliveryCount - 1), 5000), this.abort.signal);
    for (const m of messages.slice(failedAt)) await m.nak();
  }

  private async deadLetter(trx: Knex.Transaction, projector: string, message: BusMessage, error: unknown): Promise<void> {
    const { event } = message;
    this.deps.logger?.error('projection gave up on an event; dead-lettered', { projector, eventId: event.id, position: event.position, error });
    await trx('dead_letters').insert({
      projector,
      event_id: event.id,
      position: event.position,
      event_type: event.type,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      payload: JSON.stringify(event),
      delivery_count: message.deliveryCount,
      at: this.clock.now(),
    });
  }
}
