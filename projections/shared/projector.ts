import type { Knex } from 'knex';

/**
 * A projector turns events into read-model rows, nothing else: the
 * projection runner (infrastructure/shared/projection-runner.ts) feeds it,
 * keeps its checkpoint in the same transaction, and rebuilds it into fresh
 * tables when its version changes.
 */

/** An event as projectors receive it; structurally the event store's RecordedEvent. */
export interface ProjectedEvent {
  id: string;
  streamName: string;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: { occurredAt: string; [key: string]: unknown };
  revision: number;
  /** Global position; positions of one store compare correctly as plain strings. */
  position: string;
  recordedAt: string;
}

/** A read-model table under its logical name, with the comments analysts read. */
export interface ReadModelTable {
  /** Logical name: the view the API and analysts query. */
  name: string;
  comment: string;
  /** Every column of the table and what it means. */
  columns: Readonly<Record<string, string>>;
}

/** Logical table name → physical table of the generation being written. */
export type PhysicalNames = Readonly<Record<string, string>>;

export interface Projector {
  /** Unique, stable; also names the projector's durable consumer. */
  readonly name: string;
  /** Bump when rows would come out differently: the runner rebuilds on start. */
  readonly version: number;
  readonly tables: readonly ReadModelTable[];
  /** Creates the physical tables named in `names` (one per logical table), empty. */
  createTables(knex: Knex, names: PhysicalNames): Promise<void>;
  /** Writes what one event changes; events it does not care about are ignored. */
  apply(trx: Knex.Transaction, event: ProjectedEvent, names: PhysicalNames): Promise<void>;
}

/** The physical name of a logical table, or an error naming the projector's mistake. */
export function physical(names: PhysicalNames, logical: string): string {
  const name = names[logical];
  if (name === undefined) throw new Error(`no physical table for ${logical}`);
  return name;
}
