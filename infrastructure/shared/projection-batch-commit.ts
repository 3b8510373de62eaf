/**
 * One transaction of a bus batch (docs/projections.md, "Projection runner"), for projection-batches.ts: the batch's
 * messages after the checkpoint applied slice by slice (projection-slices.ts) until about batchTimeMs has passed, the
 * per-event path that finds a poison event and dead-letters it at its last delivery, the checkpoint, and the fencing
 * check before the commit.
 */
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { BusMessage } from '../../application/shared/event-bus.js';
import type { Clock } from '../../application/shared/clock.js';
import { applyStored, type PhysicalNames, type Projector } from '../../projections/shared/projector.js';
import { writeDeadLetter } from './dead-letters.js';
import type { Logger } from './logger.js';
import { applySlice, sliceSize } from './projection-slices.js';
import {
  LeaseLostError,
  physicalNames,
  readCheckpoint,
  type BatchOutcome,
  type Progress,
  type Slot,
} from './projection-slots.js';

export interface BatchCommitDependencies {
  knex: Knex;
  clock: Clock;
  logger?: Pick<Logger, 'warn' | 'error'>;
  /** Deliveries of an event that fails to apply before it is dead-lettered. */
  maxDeliveries: number;
  /** How long one transaction may run before the rest of the batch goes in the next. */
  batchTimeMs: number;
}

/**
 * One transaction of a batch, from its message `start`: the messages after the checkpoint, slice by slice
 * (projection-slices.ts), each slice's events of the projector's types applied in one call under a savepoint (event
 * by event when that call throws, to find the failing one); after each slice, it stops once batchTimeMs has passed.
 * Then the checkpoint, and the fencing check. Answers where it stopped (`end`, the index after its last message),
 * what it applied and the checkpoint it committed; undefined when the lease is gone (nothing committed).
 */
export async function commitPart(
  deps: BatchCommitDependencies,
  slot: Slot,
  messages: BusMessage[],
  start: number,
): Promise<{ end: number; progress: Progress; outcome: BatchOutcome } | undefined> {
  const { projector, lease } = slot;
  const outcome: BatchOutcome = { applied: 0, dead: new Set(), failedAt: -1 };
  return deps.knex
    .transaction(async (trx) => {
      const began = performance.now();
      const row = await readCheckpoint(trx, projector.name, true);
      if (!row) throw new Error(`projector ${projector.name} has no checkpoint row; start the runner to create it`);
      const names = physicalNames(projector, row.generation);
      let progress: Progress = { position: row.position, recordedAt: row.last_recorded_at?.toISOString() ?? null };
      let end = start;
      while (end < messages.length && outcome.failedAt < 0) {
        const { fresh, next } = slice(slot, messages, end, progress.position);
        const handled = fresh.filter((m) => projector.eventTypes.has(m.event.type)).map((m) => m.event);
        try {
          if (handled.length > 0) await trx.transaction((savepoint) => applySlice(slot, savepoint, handled, names));
          outcome.applied += handled.length;
          if (fresh.length > 0)
            progress = { position: fresh.at(-1)!.event.position, recordedAt: fresh.at(-1)!.event.recordedAt };
        } catch (error) {
          deps.logger?.warn('projection failed to apply a batch; applying its events one by one', {
            projector: projector.name,
            error,
          });
          const one = await oneByOne(deps, trx, projector, names, messages, fresh, progress);
          outcome.applied += one.outcome.applied;
          for (const m of one.outcome.dead) outcome.dead.add(m);
          outcome.failedAt = one.outcome.failedAt;
          progress = one.progress;
        }
        end = next;
        if (performance.now() - began >= deps.batchTimeMs) break;
      }
      if (progress.position !== row.position) {
        await trx('projection_checkpoints').where({ projector: projector.name }).update({
          position: progress.position,
          last_recorded_at: progress.recordedAt,
          updated_at: deps.clock.now(),
        });
      }
      if (!(await lease.heldIn(trx))) throw new LeaseLostError(lease);
      return { end, progress, outcome };
    })
    .catch((error: unknown) => {
      if (error instanceof LeaseLostError) return undefined;
      throw error;
    });
}

/**
 * The next slice of a batch from its message `start`: the messages after `position` (each position once: a message
 * delivered twice in one batch counts once) up to the slot's slice size of events the projector applies, and the
 * index after the last message it took.
 */
function slice(
  slot: Slot,
  messages: BusMessage[],
  start: number,
  position: string | null,
): { fresh: BusMessage[]; next: number } {
  const size = sliceSize(slot);
  const fresh: BusMessage[] = [];
  let handled = 0;
  let next = start;
  for (; next < messages.length && handled < size; next++) {
    const m = messages[next]!;
    if (position !== null && m.event.position <= position) continue;
    fresh.push(m);
    position = m.event.position;
    if (slot.projector.eventTypes.has(m.event.type)) handled++;
  }
  return { fresh, next };
}

/**
 * The per-event path, after a batch failed to apply in one go: each handled
 * event under its own savepoint, so the failing one is found; it comes again
 * (it and everything after it are nak'ed) until its last delivery, when it is
 * dead-lettered and the checkpoint moves past it.
 */
async function oneByOne(
  deps: BatchCommitDependencies,
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
        if (message.deliveryCount < deps.maxDeliveries) {
          deps.logger?.warn('projection failed to apply an event; it comes again', {
            projector: projector.name,
            eventId: event.id,
            deliveryCount: message.deliveryCount,
            error,
          });
          outcome.failedAt = messages.indexOf(message);
          break;
        }
        await writeDeadLetter(trx, { projector: projector.name, message, error, at: deps.clock.now() }, deps.logger);
        outcome.dead.add(message);
      }
    }
    progress = { position: event.position, recordedAt: event.recordedAt };
  }
  return { outcome, progress };
}
