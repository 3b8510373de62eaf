/**
 * A projector far behind catches up from the event store (docs/projections.md, "Catching up"): pages of the log read
 * after its checkpoint and handled as bus batches are, until a page comes back short (the head is near); then its
 * consumer is placed after the checkpoint and the bus goes on. A page is one query, where the bus gives a message at a
 * time (its fetches, heartbeats and acks), and nothing the broker counts can send the consumer back meanwhile.
 *
 * While the bus does not answer (a broker outage), no batch comes to start a catch-up: the runner's lag check reads
 * the store itself (catchUpWhileBusAway), so that the read models keep up through the outage instead of facing its
 * whole backlog once the broker is back (issue 31).
 */
import { performance } from 'node:perf_hooks';
import type { LimitFunction } from 'p-limit';
import type { EventStore } from '../../application/shared/event-store.js';
import type { Logger } from './logger.js';
import type { ProjectionBatches } from './projection-batches.js';
import { inTurn, type Progress, type Slot } from './projection-slots.js';

export interface CatchUpDependencies {
  store: Pick<EventStore, 'readAll' | 'readLastOfAll'>;
  batches: Pick<ProjectionBatches, 'handleStored' | 'passOverTo'>;
  progress: ReadonlyMap<string, Progress>;
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** Events per read of the store. */
  pageSize: number;
  /**
   * How many projectors of the runner read the store at once. Every one of them reads pages of the whole log while
   * the bus is away; all at once, their transactions took the database pool and the leases' renewals waited behind
   * them until the leases ran out (issue 31). Two keep a two-core machine busy.
   */
  readsAtOnce: LimitFunction;
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

/**
 * The bus did not answer the lag check: read the store after the slot's checkpoint now, in the slot's turn (never
 * beside a batch), unless a read is already under way or waiting. Near the head a read is one short page.
 */
export function catchUpWhileBusAway(deps: CatchUpDependencies, slot: Slot): void {
  if (slot.catchingUp || slot.storeReadWaiting || !slot.consumer?.reposition) return;
  if (!slot.busAway) {
    slot.busAway = true;
    deps.logger?.warn('the bus does not answer: the projector reads the event store meanwhile', {
      projector: slot.projector.name,
    });
  }
  slot.storeReadWaiting = true;
  void inTurn(slot, async () => {
    slot.storeReadWaiting = false;
    await catchUpFromStore(deps, slot, null);
  }).catch((error: unknown) =>
    deps.logger?.warn('reading the event store while the bus is away failed; tried again at the next look', {
      projector: slot.projector.name,
      error,
    }),
  );
}

/**
 * The bus answered the lag check again: its consumer, which may have been created again before the store's reads
 * ended, is placed after the checkpoint (in the slot's turn), and the projector goes on from it.
 */
export function busBack(deps: CatchUpDependencies, slot: Slot): void {
  if (!slot.busAway) return;
  slot.busAway = false;
  deps.logger?.info('the bus answers again: the projector goes on from its consumer', {
    projector: slot.projector.name,
  });
  void inTurn(slot, async () => {
    await reposition(slot);
    slot.sequence = undefined;
  }).catch((error: unknown) =>
    deps.logger?.warn('placing the consumer after the checkpoint failed; it places itself when created again', {
      projector: slot.projector.name,
      error,
    }),
  );
}

/**
 * Reads and applies the store after the slot's checkpoint until near its head, or until the runner's hold ends. `lag`:
 * how far behind the bus said it was; null when the bus did not answer (then only a read of more than a page is
 * logged).
 */
export function catchUpFromStore(deps: CatchUpDependencies, slot: Slot, lag: number | null): Promise<void> {
  return deps.readsAtOnce(() => readStore(deps, slot, lag));
}

async function readStore(deps: CatchUpDependencies, slot: Slot, lag: number | null): Promise<void> {
  const { projector } = slot;
  const started = performance.now();
  let read = 0;
  let repositioned = started;
  if (lag !== null)
    deps.logger?.info('projection far behind: reading the event store', { projector: projector.name, lag });
  slot.catchingUp = true;
  try {
    for (;;) {
      if (slot.term?.signal.aborted) return;
      // Only its types: a payments projector behind a flash sale passes over the shop's events in the database. The
      // log's last event first: a short page then has passed everything up to it, and the checkpoint goes there too
      // (else the consumer placed after it would be given every other type's message again).
      const head = await deps.store.readLastOfAll();
      const events = await deps.store.readAll(deps.progress.get(projector.name)?.position ?? null, deps.pageSize, {
        types: projector.eventTypes,
      });
      read += events.length;
      const settled = events.length === 0 || (await deps.batches.handleStored(slot, events));
      if (events.length < deps.pageSize) {
        if (settled && head && !slot.term?.signal.aborted) deps.batches.passOverTo(slot, head);
        break;
      }
      if (performance.now() - repositioned >= deps.repositionEveryMs) {
        await reposition(slot);
        repositioned = performance.now();
      }
    }
    await reposition(slot);
    // The bus's next message follows none this runner was given: it is checked against the store (projection-holes.ts).
    slot.sequence = undefined;
  } finally {
    slot.catchingUp = false;
  }
  if (lag === null && read < deps.pageSize) return;
  const seconds = (performance.now() - started) / 1000;
  deps.logger?.info('projection caught up from the event store', {
    projector: projector.name,
    events: read,
    seconds: Number(seconds.toFixed(1)),
    eventsPerSecond: Math.round(read / Math.max(seconds, 0.001)),
  });
}

/**
 * The consumer placed after the checkpoint. A bus that is away cannot: the consumer places itself after the
 * checkpoint when it is created again on the broker's return (its `checkpoint` option), so the read goes on.
 */
async function reposition(slot: Slot): Promise<void> {
  if (slot.busAway) return;
  await slot.consumer?.reposition?.();
}
