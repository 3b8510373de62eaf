/**
 * A projector's rebuild into a new generation of its tables (docs/projections.md, "Generations, views and rebuilds"),
 * for the runner that holds its lease (projection-runner.ts): every transaction is fenced by that lease.
 */
import type { Knex } from 'knex';
import type { Clock } from '../../application/shared/clock.js';
import type { EventStore } from '../../application/shared/event-store.js';
import { announceChanges, type PhysicalNames, type ProjectedEvent } from '../../projections/shared/projector.js';
import { giveWay } from './event-loop-turns.js';
import { applyInSlices } from './projection-slices.js';
import {
  comment,
  LeaseLostError,
  physicalNames,
  quoteIdent,
  readCheckpoint,
  type Progress,
  type Slot,
} from './projection-slots.js';

export interface RebuildDependencies {
  knex: Knex;
  /** Read from the beginning (the bus is not the archive). */
  store: EventStore;
  clock: Clock;
  /** Events per read of the store, each applied in one transaction. */
  batchSize: number;
}

/**
 * Replays the whole event store into a fresh generation of the projector's tables, then, in one transaction that
 * holds the checkpoint row (pausing the live consumer), applies what arrived meanwhile, points the views at the new
 * tables, drops the old ones and moves the checkpoint. Gives up between batches once `term` ends; a transaction
 * whose lease is no longer ours commits nothing. Resolves to the new generation and the checkpoint's position.
 */
export async function rebuildGeneration(
  deps: RebuildDependencies,
  slot: Slot,
  term: AbortSignal,
): Promise<{ generation: number; progress: Progress }> {
  const { knex, store, clock, batchSize } = deps;
  const { projector, lease } = slot;
  const { name } = projector;
  const fenced = <T>(work: (trx: Knex.Transaction) => Promise<T>) =>
    knex.transaction(async (trx) => {
      if (term.aborted) throw new LeaseLostError(lease);
      const result = await work(trx);
      if (!(await lease.heldIn(trx))) throw new LeaseLostError(lease);
      return result;
    });
  const from = (await readCheckpoint(knex, name))?.generation ?? 0;
  const names = physicalNames(projector, from + 1);
  await fenced(async (trx) => {
    for (const table of Object.values(names)) await trx.raw(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
    await projector.createTables(trx, names);
    for (const table of projector.tables) await comment(trx, 'TABLE', names[table.name]!, table);
  });
  let progress: Progress = { position: null, recordedAt: null };
  for (;;) {
    const events = await store.readAll(progress.position, batchSize);
    if (events.length === 0) break;
    progress = await fenced((trx) => replay(trx, slot, names, events));
  }
  progress = await fenced(async (trx) => {
    await trx.raw(
      `INSERT INTO projection_checkpoints (projector, version, generation) VALUES (?, ?, 0) ON CONFLICT (projector) DO NOTHING`,
      [name, projector.version],
    );
    const row = (await readCheckpoint(trx, name, true))!;
    if (row.generation !== from) throw new Error(`projector ${name} was rebuilt by someone else meanwhile`);
    for (;;) {
      const events = await store.readAll(progress.position, batchSize);
      if (events.length === 0) break;
      progress = await replay(trx, slot, names, events);
    }
    for (const table of projector.tables) {
      await trx.raw(`DROP VIEW IF EXISTS ${quoteIdent(table.name)}`);
      await trx.raw(`CREATE VIEW ${quoteIdent(table.name)} AS SELECT * FROM ${quoteIdent(names[table.name]!)}`);
      await comment(trx, 'VIEW', table.name, table);
      if (from > 0) await trx.raw(`DROP TABLE IF EXISTS ${quoteIdent(physicalNames(projector, from)[table.name]!)}`);
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
        updated_at: clock.now(),
      });
    return progress;
  });
  return { generation: from + 1, progress };
}

/** One read of the store applied, in slices (projection-slices.ts): the projector's events among them, and the position they reach. */
async function replay(
  trx: Knex.Transaction,
  slot: Slot,
  names: PhysicalNames,
  events: ProjectedEvent[],
): Promise<Progress> {
  await giveWay();
  const handled = events.filter((e) => slot.projector.eventTypes.has(e.type));
  await applyInSlices(slot, trx, handled, names);
  const last = events[events.length - 1]!;
  return { position: last.position, recordedAt: last.recordedAt };
}

/**
 * A runner's rebuilds, one at a time (docs/projections.md, "The event loop"): rebuilds side by side did not finish
 * sooner (one thread parses every page), each reads the whole store, and their pages arriving in the same turn held
 * the loop for up to half a second. A projector is rebuilt once at a time, too.
 */
export class OneRebuildAtATime {
  private readonly rebuilding = new Set<string>();
  /** Settles when the rebuilds begun before have ended: the next one waits for it. */
  private before: Promise<void> = Promise.resolve();

  async run(
    deps: RebuildDependencies,
    slot: Slot,
    term: AbortSignal,
  ): Promise<{ generation: number; progress: Progress }> {
    const { name } = slot.projector;
    if (this.rebuilding.has(name)) throw new Error(`projector ${name} is already being rebuilt`);
    this.rebuilding.add(name);
    const before = this.before;
    let done!: () => void;
    this.before = new Promise<void>((resolve) => (done = resolve));
    try {
      await before;
      return await rebuildGeneration(deps, slot, term);
    } finally {
      done();
      this.rebuilding.delete(name);
    }
  }
}
