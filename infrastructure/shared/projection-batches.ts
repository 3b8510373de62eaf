/**
 * How the projection runner applies what the bus delivers to a projector it holds (docs/projections.md, "Projection
 * runner"): a batch in fenced transactions of bounded time with its checkpoint (projection-batch-commit.ts, where the
 * per-event path finds a poison event), batches of events the projector does not handle passed over, events the bus
 * gave to someone else applied from the event store (projection-holes.ts), and pages of the store handled as batches
 * when the projector catches up (projection-catch-up.ts).
 */
import type { Knex } from 'knex';
import type { BusMessage } from '../../application/shared/event-bus.js';
import type { EventStore, RecordedEvent } from '../../application/shared/event-store.js';
import type { Clock } from '../../application/shared/clock.js';
import { applyStored } from '../../projections/shared/projector.js';
import { writeDeadLetter } from './dead-letters.js';
import type { Logger } from './logger.js';
import { projectionDeadLetters, projectionEventsApplied, projectionPosition, setPositionInfo } from './metrics.js';
import { pause } from './pause.js';
import { firstHole } from './projection-holes.js';
import { commitPart } from './projection-batch-commit.js';
import { LeaseLostError, physicalNames, readCheckpoint, type Progress, type Slot } from './projection-slots.js';

export interface ProjectionBatchesDependencies {
  knex: Knex;
  store: EventStore;
  clock: Clock;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Deliveries of an event that fails to apply before it is dead-lettered. */
  maxDeliveries: number;
  /** Pause before a failed event comes again; doubles per delivery, at most 5 s. */
  retryBackoffMs: number;
  /** The runner's last committed position per projector, kept up to date here. */
  progress: Map<string, Progress>;
  /**
   * How long the checkpoint row may stay behind a run of events the projector does not handle before it is saved
   * (passOver).
   */
  checkpointDelayMs: number;
  /** How long one transaction of a batch may run before the rest of the batch goes in the next (handleBatch). */
  batchTimeMs: number;
}

export class ProjectionBatches {
  /** Failed tries of events applied from the store (they have no delivery count of their own), by event id. */
  private readonly refillFailures = new Map<string, number>();
  private readonly progress: Map<string, Progress>;
  private readonly clock: Clock;
  private readonly maxDeliveries: number;
  private readonly retryBackoffMs: number;

  constructor(private readonly deps: ProjectionBatchesDependencies) {
    this.progress = deps.progress;
    this.clock = deps.clock;
    this.maxDeliveries = deps.maxDeliveries;
    this.retryBackoffMs = deps.retryBackoffMs;
  }

  /**
   * One bus batch. Where the bus skipped events before one of its messages (projection-holes.ts), the messages
   * before it are handled, then the skipped events are applied from the event store, then the rest.
   */
  async handle(slot: Slot, messages: BusMessage[]): Promise<void> {
    const { projector, lease } = slot;
    if (!lease.held || slot.term?.signal.aborted) return void (await this.refuse(slot, messages));
    const checkpoint = this.progress.get(projector.name)?.position ?? null;
    const hole = await firstHole(this.deps.store, checkpoint, slot.sequence, messages, projector.eventTypes);
    if (!hole) return void ((await this.passOver(slot, messages)) || (await this.handleBatch(slot, messages)));
    const rest = messages.slice(hole.index);
    const handled = hole.index === 0 || (await this.handleBatch(slot, messages.slice(0, hole.index)));
    if (!handled || !(await this.refill(slot, hole.missing))) return void (await Promise.all(rest.map((m) => m.nak())));
    return this.handle(slot, rest);
  }

  /**
   * Events read from the event store (a projector far behind catching up, projection-catch-up.ts), handled as a bus
   * batch is: applied in slices and transactions of bounded time, or passed over. An event that fails is tried again
   * with the next read, counted as the events refill applies are, and dead-lettered at the runner's maximum. True when
   * every event was applied or passed over.
   */
  async handleStored(slot: Slot, events: readonly RecordedEvent[]): Promise<boolean> {
    const settled = { all: true };
    await this.handle(
      slot,
      events.map((event) => new StoredMessage(event, this.refillFailures, slot, settled)),
    );
    return settled.all;
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
        const row = await readCheckpoint(trx, projector.name, true);
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
   * A batch of events none of which the projector handles (most batches of most projectors, since each receives the
   * whole log) writes nothing: the messages are acked, the progress kept here, and the checkpoint row saved at most
   * checkpointDelayMs later (saveCheckpoint), or with the next batch that applies something. One transaction per
   * projector per batch was most of the database's work under load. A crash before the save costs nothing but a read:
   * the checkpoint is then behind the consumer's ack floor, and the events between, which the projector does not
   * handle, are read from the store as a hole (projection-holes.ts) and passed over again. False when the batch holds
   * an event to apply.
   */
  private async passOver(slot: Slot, messages: BusMessage[]): Promise<boolean> {
    const { projector } = slot;
    const fresh = this.after(this.progress.get(projector.name)?.position ?? null, messages);
    if (fresh.some((m) => projector.eventTypes.has(m.event.type))) return false;
    const last = fresh.at(-1);
    if (last) {
      this.progress.set(projector.name, { position: last.event.position, recordedAt: last.event.recordedAt });
      if (last.sequence !== undefined) slot.sequence = last.sequence;
      setPositionInfo(projectionPosition, { projector: projector.name }, last.event.position);
      slot.saveTimer ??= setTimeout(() => void this.saveCheckpoint(slot), this.deps.checkpointDelayMs);
    }
    await Promise.all(messages.map((m) => m.ack()));
    return true;
  }

  /**
   * Moves the progress to `event` when behind it, as a pass-over does, for a read of the store by type that found
   * nothing of the projector's types up to it (projection-catch-up.ts): the row is saved at most checkpointDelayMs
   * later, and the consumer placed after it is not given again what lies between.
   */
  passOverTo(slot: Slot, event: RecordedEvent): void {
    const { projector } = slot;
    const position = this.progress.get(projector.name)?.position ?? null;
    if (position !== null && position >= event.position) return;
    this.progress.set(projector.name, { position: event.position, recordedAt: event.recordedAt });
    setPositionInfo(projectionPosition, { projector: projector.name }, event.position);
    slot.saveTimer ??= setTimeout(() => void this.saveCheckpoint(slot), this.deps.checkpointDelayMs);
  }

  /**
   * Saves the progress passOver kept, in a fenced transaction, unless a batch moved the row as far already. Also
   * called when the runner's hold ends, so a clean stop leaves the row where the runner got.
   */
  async saveCheckpoint(slot: Slot): Promise<void> {
    const { projector, lease } = slot;
    clearTimeout(slot.saveTimer);
    slot.saveTimer = undefined;
    const progress = this.progress.get(projector.name);
    if (!progress?.position || !lease.held) return;
    await this.deps.knex
      .transaction(async (trx) => {
        const row = await readCheckpoint(trx, projector.name, true);
        if (!row || (row.position !== null && row.position >= progress.position!)) return;
        await trx('projection_checkpoints').where({ projector: projector.name }).update({
          position: progress.position,
          last_recorded_at: progress.recordedAt,
          updated_at: this.clock.now(),
        });
        if (!(await lease.heldIn(trx))) throw new LeaseLostError(lease);
      })
      .catch((error: unknown) => {
        if (error instanceof LeaseLostError) return;
        // The next batch that applies something, or the next pass-over, saves it.
        this.deps.logger?.warn('projection checkpoint save failed', { projector: projector.name, error });
      });
  }

  /**
   * A batch without holes, in transactions of about batchTimeMs at most (each ends after the slice that passed it):
   * each applies, checkpoints and dead-letters a run of the batch's messages and commits only while the lease is ours,
   * and its messages are settled after it commits. A batch that finds the lease gone has the rest nak'ed and ends the
   * runner's hold. True when every message was settled.
   */
  private async handleBatch(slot: Slot, messages: BusMessage[]): Promise<boolean> {
    const { projector } = slot;
    for (let start = 0; start < messages.length;) {
      const part = await commitPart(this.deps, slot, messages, start);
      if (!part) return this.refuse(slot, messages.slice(start));
      const { end, progress, outcome } = part;
      const { applied, dead, failedAt } = outcome;
      this.progress.set(projector.name, progress);
      const lastApplied = messages
        .slice(start, end)
        .reverse()
        .find((m) => m.event.position === progress.position);
      if (lastApplied?.sequence !== undefined) slot.sequence = lastApplied.sequence;
      projectionEventsApplied.inc({ projector: projector.name }, applied);
      projectionDeadLetters.inc({ projector: projector.name }, dead.size);
      if (progress.position !== null)
        setPositionInfo(projectionPosition, { projector: projector.name }, progress.position);
      const settled = messages.slice(start, failedAt < 0 ? end : failedAt);
      // Settled all at once, not one await each: the NATS client then sends them in one write, not one per message.
      await Promise.all(settled.map((m) => (dead.has(m) ? m.term() : m.ack())));
      if (failedAt >= 0) {
        const failed = messages[failedAt]!;
        await pause(Math.min(this.retryBackoffMs * 2 ** (failed.deliveryCount - 1), 5000), slot.term!.signal);
        await Promise.all(messages.slice(failedAt).map((m) => m.nak()));
        return false;
      }
      start = end;
    }
    return true;
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

/**
 * An event read from the store, handed to the batch handling as a bus message (handleStored). Its deliveries are
 * counted by event id, as a bus counts them: every one nak'ed comes again one delivery further (not once the lease is
 * gone: the next holder counts its own).
 */
class StoredMessage implements BusMessage {
  readonly deliveryCount: number;

  constructor(
    readonly event: RecordedEvent,
    private readonly failures: Map<string, number>,
    private readonly slot: Slot,
    private readonly settled: { all: boolean },
  ) {
    this.deliveryCount = (failures.get(event.id) ?? 0) + 1;
  }

  async ack(): Promise<void> {
    this.failures.delete(this.event.id);
  }

  async term(): Promise<void> {
    this.failures.delete(this.event.id);
  }

  async nak(): Promise<void> {
    this.settled.all = false;
    if (!this.slot.term?.signal.aborted) this.failures.set(this.event.id, this.deliveryCount);
  }
}
