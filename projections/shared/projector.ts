import type { Knex } from 'knex';
import type { DomainEvent } from '../../domain/shared/decider.js';
import type { EventDecoder } from '../../domain/shared/event-decoder.js';

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

/** A projected event decoded: its type and data those of a current domain event of `E`. */
export type Projected<E extends DomainEvent = DomainEvent> = ProjectedEvent & E;

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

export interface Projector<E extends DomainEvent = DomainEvent> {
  /** Unique, stable; also names the projector's durable consumer. */
  readonly name: string;
  /** Bump when rows would come out differently: the runner rebuilds on start. */
  readonly version: number;
  readonly tables: readonly ReadModelTable[];
  /** The event types it applies; the runner passes it no others (they only move its checkpoint). */
  readonly eventTypes: ReadonlySet<string>;
  /**
   * Its context's event decoder (it must know every type of `eventTypes`): the runner decodes each event with it,
   * upcasting older schema versions, before `apply` (applyStored). A test may swap it for one with an upcaster.
   */
  readonly decoder: EventDecoder<E>;
  /** Creates the physical tables named in `names` (one per logical table), empty. */
  createTables(knex: Knex, names: PhysicalNames): Promise<void>;
  /**
   * Writes what the events change, in order: the rows must come out exactly as
   * if they were applied one call each. An event the rows already have (a
   * redelivery, or the same event twice in `events`) changes nothing.
   */
  apply(trx: Knex.Transaction, events: readonly Projected<E>[], names: PhysicalNames): Promise<void>;
}

/** Applies events as stored: each decoded by the projector's decoder (a failure is the apply's), then applied. */
export async function applyStored(
  projector: Projector,
  trx: Knex.Transaction,
  events: readonly ProjectedEvent[],
  names: PhysicalNames,
): Promise<void> {
  await projector.apply(
    trx,
    events.map((e) => projector.decoder.decode(e)),
    names,
  );
}

/**
 * Splits events into runs to apply in turn: consecutive events whose types
 * are in one of the `bulk` groups form one run (a projector writes it in one
 * go); any other event is a run of its own.
 */
export function runs<T extends ProjectedEvent>(events: readonly T[], bulk: readonly ReadonlySet<string>[]): T[][] {
  const out: T[][] = [];
  let open: ReadonlySet<string> | undefined;
  for (const event of events) {
    const group = bulk.find((types) => types.has(event.type));
    if (group !== undefined && group === open) out[out.length - 1]!.push(event);
    else out.push([event]);
    open = group;
  }
  return out;
}

/** The first event of each key, in order: what applying them one by one would keep when a later one of the same key is ignored. */
export function firstOfEach<T>(items: readonly T[], key: (item: T) => unknown): T[] {
  const seen = new Set<unknown>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The physical name of a logical table, or an error naming the projector's mistake. */
export function physical(names: PhysicalNames, logical: string): string {
  const name = names[logical];
  if (name === undefined) throw new Error(`no physical table for ${logical}`);
  return name;
}

/** The PostgreSQL NOTIFY channel on which a projector's changes are announced (read-model-changes.ts listens). */
export const changeChannel = (projector: string) => `read_model_${projector.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;

/** A payload of at most this many bytes (NOTIFY takes up to 8000); more keys are announced as '*', everything. */
const maxPayload = 7_000;

/**
 * Announces, on the projector's channel, the keys of the rows `trx` changed
 * (what a key names is the projector's own business) as a JSON array, or '*'
 * (everything) when they are too many to list (over 7000 bytes). PostgreSQL delivers it when the transaction commits, and
 * not at all if it rolls back: caches in front of the read model drop those
 * entries when the new rows are there to be read.
 */
export async function announceChanges(
  trx: Knex.Transaction,
  projector: string,
  keys: ReadonlySet<string>,
): Promise<void> {
  if (keys.size === 0) return;
  const listed = keys.has('*') ? '*' : JSON.stringify([...keys]);
  await trx.raw('SELECT pg_notify(?, ?)', [
    changeChannel(projector),
    Buffer.byteLength(listed) > maxPayload ? '*' : listed,
  ]);
}
