/**
 * A projector far behind catches up from the event store (docs/projections.md, "Catching up"): pages of the log read
 * after its checkpoint and handled as bus batches are, until a page comes back short (the head is near); then its
 * consumer is placed after the checkpoint and the bus goes on. A page is one query, where the bus gives a message at a
 * time (its fetches, heartbeats and acks), and nothing the broker counts can send the consumer back meanwhile.
 */
import { performance } from 'node:perf_hooks';
import type { EventStore } from '../../application/shared/event-store.js';
import type { Logger } from './logger.js';
import type { ProjectionBatches } from './projection-batches.js';
import type { Progress, Slot } from './projection-slots.js';

export interface CatchUpDependencies {
  store: Pick<EventStore, 'readAll'>;
  batches: Pick<ProjectionBatches, 'handleStored'>;
  progress: ReadonlyMap<string, Progress>;
  logger?: Pick<Logger, 'info'>;
  /** Events per read of the store. */
  pageSize: number;
  /** How often the consumer is placed after the checkpoint meanwhile, so that the lag it reports is what is left (as often as the lag is looked at for the metrics). */
  repositionEveryMs: number;
}

/** When the slot's lag called for it (projection-lag.ts, lookAtLag): a catch-up from the store, before its next batch. */
export async function catchUpIfDue(deps: CatchUpDependencies, slot: Slot): Promise<void> {
  const lag = slot.catchUpDue;
  if (lag === undefined) return;
  slot.catchUpDue = undefined;
  await catchUpFromStore(deps, slot, lag);
}

/** Reads and applies the store after the slot's checkpoint until near its head, or until the runner's hold ends. */
export async function catchUpFromStore(deps: CatchUpDependencies, slot: Slot, lag: number): Promise<void> {
  const { projector } = slot;
  const started = performance.now();
  let read = 0;
  let repositioned = started;
  deps.logger?.info('projection far behind: reading the event store', { projector: projector.name, lag });
  slot.catchingUp = true;
  try {
    for (;;) {
      if (slot.term?.signal.aborted) return;
      const events = await deps.store.readAll(deps.progress.get(projector.name)?.position ?? null, deps.pageSize);
      read += events.length;
      if (events.length > 0) await deps.batches.handleStored(slot, events);
      if (events.length < deps.pageSize) break;
      if (performance.now() - repositioned >= deps.repositionEveryMs) {
        await slot.consumer?.reposition?.();
        repositioned = performance.now();
      }
    }
    await slot.consumer?.reposition?.();
    // The bus's next message follows none this runner was given: it is checked against the store (projection-holes.ts).
    slot.sequence = undefined;
  } finally {
    slot.catchingUp = false;
  }
  const seconds = (performance.now() - started) / 1000;
  deps.logger?.info('projection caught up from the event store', {
    projector: projector.name,
    events: read,
    seconds: Number(seconds.toFixed(1)),
    eventsPerSecond: Math.round(read / Math.max(seconds, 0.001)),
  });
}
