/**
 * Projectors that keep a state per key (docs/projections.md, "What a projector implements"): one row per key holding what the
 * key's earlier events said, as JSON, and the position of the last event applied to it. A batch loads the rows of its
 * keys once, folds its events over them in order (an event at or before a row's position was applied before and is
 * passed over), keeps what each event emits, and writes the changed rows back in one statement. The IPN outboxes
 * (projections/payments/ipn-outbox.ts, session-ipn-outbox.ts) build each notification's payload from it.
 */
import type { Knex } from 'knex';
import type { DomainEvent } from '../../domain/shared/decider.js';
import { physical, type PhysicalNames, type Projected, type ReadModelTable } from './projector.js';

/** How one event moves its key's state: the next state, and what it emits (a notification row, ...). */
export interface KeyedStep<S, O> {
  state: S;
  emit?: O;
}

export interface KeyedFold<E extends DomainEvent, S, O> {
  /** The key an event belongs to. */
  keyOf(event: Projected<E>): string;
  /**
   * The key's state after `event` (`state`: undefined while the key has none), and what it emits; undefined when the
   * event changes nothing (the row is not written and keeps its position).
   */
  step(state: S | undefined, event: Projected<E>): KeyedStep<S, O> | undefined;
}

/** A key's state as kept, with the position of the last event applied to it. */
export interface KeyedEntry<S> {
  state: S;
  position: string;
}

/**
 * Folds `events` in order over `known` (changed in place): an event at or before its key's position is passed over.
 * Returns the keys whose state changed, in the order first changed, and what the events emitted, in order.
 */
export function foldByKey<E extends DomainEvent, S, O>(
  known: Map<string, KeyedEntry<S>>,
  events: readonly Projected<E>[],
  fold: KeyedFold<E, S, O>,
): { changed: Set<string>; emitted: O[] } {
  const changed = new Set<string>();
  const emitted: O[] = [];
  for (const event of events) {
    const key = fold.keyOf(event);
    const current = known.get(key);
    if (current && event.position <= current.position) continue; // applied before
    const step = fold.step(current?.state, event);
    if (!step) continue;
    if (step.emit !== undefined) emitted.push(step.emit);
    known.set(key, { state: step.state, position: event.position });
    changed.add(key);
  }
  return { changed, emitted };
}

/** The table of a per-key state: its key column (primary), its JSON state column and `last_position`. */
export interface KeyedStateSpec {
  /** Logical table name. */
  name: string;
  comment: string;
  key: { column: string; type: 'uuid' | 'text'; comment: string };
  state: { column: string; comment: string };
}

export interface KeyedState<S> {
  /** The table for the projector's `tables`, with its analysts' comments. */
  readonly table: ReadModelTable;
  createTable(knex: Knex, names: PhysicalNames): Promise<void>;
  /** Loads the rows of the events' keys, folds the events over them, writes the changed rows; returns what they emitted. */
  apply<E extends DomainEvent, O>(
    trx: Knex.Transaction,
    events: readonly Projected<E>[],
    names: PhysicalNames,
    fold: KeyedFold<E, S, O>,
  ): Promise<O[]>;
}

/** The per-key state kept in the table `spec` describes, states of type `S`. */
export function keyedState<S>(spec: KeyedStateSpec): KeyedState<S> {
  const { key, state } = spec;
  return {
    table: {
      name: spec.name,
      comment: spec.comment,
      columns: {
        [key.column]: key.comment,
        [state.column]: state.comment,
        last_position: 'Global position of the last event applied to this row.',
      },
    },

    async createTable(knex, names) {
      await knex.schema.createTable(physical(names, spec.name), (b) => {
        (key.type === 'uuid' ? b.uuid(key.column) : b.text(key.column)).primary();
        b.jsonb(state.column).notNullable();
        b.text('last_position').notNullable();
      });
    },

    async apply<E extends DomainEvent, O>(
      trx: Knex.Transaction,
      events: readonly Projected<E>[],
      names: PhysicalNames,
      fold: KeyedFold<E, S, O>,
    ) {
      const table = physical(names, spec.name);
      const keys = [...new Set(events.map((e) => fold.keyOf(e)))];
      const rows = (await trx(table).whereIn(key.column, keys).select()) as Record<string, unknown>[];
      const known = new Map(
        rows.map((r) => [
          r[key.column] as string,
          { state: r[state.column] as S, position: r.last_position as string },
        ]),
      );
      const { changed, emitted } = foldByKey(known, events, fold);
      if (changed.size > 0)
        await trx(table)
          .insert(
            [...changed].map((k) => {
              const entry = known.get(k)!;
              return { [key.column]: k, [state.column]: JSON.stringify(entry.state), last_position: entry.position };
            }),
          )
          .onConflict(key.column)
          .merge();
      return emitted;
    },
  };
}
