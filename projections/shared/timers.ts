/**
 * Timer projectors (docs/process-managers.md, "Timers"): a context's stored schedule, derived from its events. For
 * each event, `timersFor` says which timers it schedules and which it cancels; the projector keeps one row per
 * pending timer in its table, which the context's timer job (infrastructure/shared/timer-job.ts) reads and marks.
 * Rows are the log's consequence, so a restart or a rebuild loses no timer (a rebuild forgets which already fired,
 * so those fire once more: handlers are idempotent).
 */
import type { Knex } from 'knex';
import type { DomainEvent } from '../../domain/shared/decider.js';
import type { EventDecoder } from '../../domain/shared/event-decoder.js';
import { physical, type PhysicalNames, type Projected, type Projector } from './projector.js';

export interface ScheduledTimer {
  /** Unique in this table, deterministic: the same event schedules the same id (e.g. `<aggregate id>:expiry`). */
  id: string;
  kind: string;
  /** ISO 8601. */
  dueAt: string;
  payload: Record<string, unknown>;
}

export interface TimerChanges {
  schedule?: readonly ScheduledTimer[];
  /** Ids of timers that no longer apply (fired or not). */
  cancel?: readonly string[];
}

/** Columns of every timer table, for the analysts' comments. */
const timerColumns = {
  timer_id: 'Timer id, deterministic from the aggregate and the event that scheduled it.',
  kind: 'What the timer does (its handler), e.g. issued-promotion-expiry.',
  due_at: 'When it is due.',
  payload: 'What its handler needs (JSON), e.g. the aggregate id.',
  scheduled_position: 'Global position of the event that scheduled it.',
  fired_at: 'When its handler completed; null while pending. Written by the timer job.',
  attempts: 'Failed firings so far. Written by the timer job.',
  next_attempt_at: 'Earliest time of the next try after a failure; null before any. Written by the timer job.',
  last_error: 'Message of the last failed firing; null if none. Written by the timer job.',
} as const;

export function timerProjector<E extends DomainEvent>(options: {
  name: string;
  /** Logical table name (`<context>_timers`); the timer job reads it. */
  table: string;
  version: number;
  eventTypes: ReadonlySet<string>;
  decoder: EventDecoder<E>;
  /** The context's description of what its timers are, for the table's comment. */
  comment: string;
  timersFor(event: Projected<E>): TimerChanges;
}): Projector<E> {
  const { table } = options;
  return {
    name: options.name,
    version: options.version,
    eventTypes: options.eventTypes,
    decoder: options.decoder,
    tables: [{ name: table, comment: options.comment, columns: timerColumns }],
    async createTables(knex: Knex, names: PhysicalNames) {
      const t = physical(names, table);
      await knex.schema.createTable(t, (b) => {
        b.text('timer_id').primary();
        b.text('kind').notNullable();
        b.timestamp('due_at', { useTz: true }).notNullable();
        b.jsonb('payload').notNullable();
        b.text('scheduled_position').notNullable();
        b.timestamp('fired_at', { useTz: true });
        b.integer('attempts').notNullable().defaultTo(0);
        b.timestamp('next_attempt_at', { useTz: true });
        b.text('last_error');
      });
      // The job's one query: pending timers by due time.
      await knex.raw(`CREATE INDEX ?? ON ?? (due_at) WHERE fired_at IS NULL`, [`${t}_pending`, t]);
    },
    async apply(trx: Knex.Transaction, events: readonly Projected<E>[], names: PhysicalNames) {
      const t = physical(names, table);
      for (const event of events) {
        const { schedule = [], cancel = [] } = options.timersFor(event);
        if (cancel.length > 0)
          await trx(t)
            .whereIn('timer_id', [...cancel])
            .delete();
        for (const timer of schedule) {
          // A redelivered event schedules nothing new; a timer that fired stays fired.
          await trx(t)
            .insert({
              timer_id: timer.id,
              kind: timer.kind,
              due_at: timer.dueAt,
              payload: JSON.stringify(timer.payload),
              scheduled_position: event.position,
            })
            .onConflict('timer_id')
            .ignore();
        }
      }
    },
  };
}
