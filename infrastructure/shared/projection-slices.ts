/**
 * A projector's events applied in slices (docs/projections.md, "The event loop"). A projector builds a run's rows and
 * statement parameters without waiting on anything: 1,000 pools held the loop 80 ms in the search projector on a quiet
 * machine, seconds on a busy one. So the runner hands it at most a slice of events per `apply` call, giving way to the
 * loop between slices, and sizes each projector's slices by the longest stretch its last call held the loop: about one
 * turn's budget.
 */
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { applyStored, type PhysicalNames, type ProjectedEvent } from '../../projections/shared/projector.js';
import { giveWay, turnBudgetMs } from './event-loop-turns.js';
import type { Slot } from './projection-slots.js';

/** Events per apply call: where a projector's slices start, and their bounds. */
export const sliceBounds = { initial: 20, least: 10, most: 1000 } as const;

/** The events of the next slice for this projector (how many of its events one apply call gets). */
export const sliceSize = (slot: Slot): number => slot.sliceSize ?? sliceBounds.initial;

/**
 * One apply call (events decoded and applied, applyStored), after giving way to the loop if the turn's budget is
 * spent. The slot's slice size follows the longest stretch the call held the loop (between two of its statements,
 * told by the transaction's query events): smaller when it passed the budget, twice as large when a full slice
 * stayed under half of it.
 */
export async function applySlice(
  slot: Slot,
  trx: Knex.Transaction,
  events: readonly ProjectedEvent[],
  names: PhysicalNames,
): Promise<void> {
  if (events.length === 0) return;
  await giveWay();
  const size = sliceSize(slot);
  let held = 0;
  let since = performance.now();
  const sent = () => void (held = Math.max(held, performance.now() - since));
  const answered = () => void (since = performance.now());
  trx.on('query', sent).on('query-response', answered).on('query-error', answered);
  try {
    await applyStored(slot.projector, trx, events, names);
    sent();
  } finally {
    trx.off('query', sent).off('query-response', answered).off('query-error', answered);
  }
  if (held > turnBudgetMs)
    slot.sliceSize = Math.max(sliceBounds.least, Math.floor((events.length * turnBudgetMs) / held));
  else if (held < turnBudgetMs / 2 && events.length >= size) slot.sliceSize = Math.min(sliceBounds.most, size * 2);
}

/** The events in slices, in order, each one apply call (a rebuild's pages). */
export async function applyInSlices(
  slot: Slot,
  trx: Knex.Transaction,
  events: readonly ProjectedEvent[],
  names: PhysicalNames,
): Promise<void> {
  for (let at = 0; at < events.length;) {
    const slice = events.slice(at, at + sliceSize(slot));
    await applySlice(slot, trx, slice, names);
    at += slice.length;
  }
}
