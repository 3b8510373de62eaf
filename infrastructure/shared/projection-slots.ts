/**
 * What the projection runner (projection-runner.ts) and its batch handling (projection-batches.ts) share: a
 * projector's slot in a runner, its checkpoint row and the physical tables of a generation (docs/projections.md).
 */
import type { Knex } from 'knex';
import type { BusConsumer, BusMessage } from '../../application/shared/event-bus.js';
import type { PhysicalNames, Projector, ReadModelTable } from '../../projections/shared/projector.js';
import type { Lease } from './messaging/lease.js';
import type { LagTrend } from './projection-lag.js';

export interface CheckpointRow {
  projector: string;
  version: number;
  generation: number;
  position: string | null;
  last_recorded_at: Date | null;
}

export interface Progress {
  position: string | null;
  recordedAt: string | null;
}

/** What became of a bus batch: events applied, messages dead-lettered, the first message to come again (-1: none). */
export interface BatchOutcome {
  applied: number;
  dead: Set<BusMessage>;
  failedAt: number;
}

/** One projector as this runner drives it. */
export interface Slot {
  readonly projector: Projector;
  /** Named like the durable consumer it guards (consumerPrefix + projector name). */
  readonly lease: Lease;
  /** Set while this runner holds the lease; aborted when the hold ends (lease lost, or stopping). */
  term?: AbortController;
  consumer?: BusConsumer;
  /** The bus's stream sequence of the last message applied (projection-holes.ts); unknown after each takeover. */
  sequence?: number;
  /** Set while the checkpoint row is behind this runner's progress over events the projector does not handle. */
  saveTimer?: NodeJS.Timeout;
  /** Events per `apply` call, sized so that one call holds the event loop about a turn's budget (projection-slices.ts). */
  sliceSize?: number;
  /** The lag looked at last: further behind than the runner's threshold, the next batch reads the store first. */
  catchUpDue?: number;
  /** True while it reads the event store to catch up (projection-catch-up.ts). */
  catchingUp?: boolean;
  /** The bus did not answer the last lag check: the lag check reads the store meanwhile (projection-catch-up.ts). */
  busAway?: boolean;
  /** A read of the store started by the lag check waits for the slot's turn. */
  storeReadWaiting?: boolean;
  /** Its lag over the current hold, for how fast it closes (projection-lag.ts). */
  lag?: LagTrend;
  /** Settles when what the slot is doing now (a bus batch, a catch-up from the store) has ended (inTurn). */
  turn?: Promise<void>;
}

/**
 * Runs `work` once what the slot is doing has ended: a bus batch and a catch-up from the store started by the runner's
 * lag check (the bus being away) never apply at once.
 */
export function inTurn<T>(slot: Slot, work: () => Promise<T>): Promise<T> {
  const run = (slot.turn ?? Promise.resolve()).then(work);
  slot.turn = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/** Thrown inside a transaction whose fencing check found the lease gone: nothing of it commits. */
export class LeaseLostError extends Error {
  constructor(lease: Lease) {
    super(`lease ${lease.name} is no longer held by ${lease.ownerId}`);
  }
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

export function physicalNames(projector: Projector, generation: number): PhysicalNames {
  return Object.fromEntries(projector.tables.map((t) => [t.name, `${t.name}_g${generation}`]));
}

export async function comment(
  knex: Knex,
  kind: 'TABLE' | 'VIEW',
  relation: string,
  table: ReadModelTable,
): Promise<void> {
  await knex.raw(`COMMENT ON ${kind} ${quoteIdent(relation)} IS ${quoteLiteral(table.comment)}`);
  for (const [column, text] of Object.entries(table.columns)) {
    await knex.raw(`COMMENT ON COLUMN ${quoteIdent(relation)}.${quoteIdent(column)} IS ${quoteLiteral(text)}`);
  }
}

export async function readCheckpoint(knex: Knex, projector: string, lock = false): Promise<CheckpointRow | undefined> {
  const query = knex<CheckpointRow>('projection_checkpoints').where({ projector }).first();
  return lock ? query.forUpdate() : query;
}
