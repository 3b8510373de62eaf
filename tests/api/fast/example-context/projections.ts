/**
 * The example context's read model (docs/conventions.md, "Adding a context", step 3; "Projections"): what
 * projections/<context>/ holds. One row per note, idempotent (a redelivered event's insert is ignored).
 */
import type { Knex } from 'knex';
import {
  physical,
  type PhysicalNames,
  type Projected,
  type Projector,
} from '../../../../projections/shared/projector.js';
import { notesEventDecoder, type NotesEvent } from './domain.js';

const table = 'example_notes';

export const notesProjector: Projector<NotesEvent> = {
  name: 'example-notes',
  version: 1,
  eventTypes: new Set<NotesEvent['type']>(['NoteWritten']),
  decoder: notesEventDecoder,
  tables: [
    {
      name: table,
      comment: 'Notes of the example context (tests/api/fast/example-context), one row per note.',
      columns: {
        note_id: 'Note id, as the operator named it.',
        text: 'What the note says.',
        written_at: 'When it was written.',
        last_position: 'Global position of the last event applied to this row.',
      },
    },
  ],
  async createTables(knex: Knex, names: PhysicalNames) {
    await knex.schema.createTable(physical(names, table), (b) => {
      b.text('note_id').primary();
      b.text('text').notNullable();
      b.timestamp('written_at', { useTz: true }).notNullable();
      b.text('last_position').notNullable();
    });
  },
  async apply(trx: Knex.Transaction, events: readonly Projected<NotesEvent>[], names: PhysicalNames) {
    for (const e of events)
      await trx(physical(names, table))
        .insert({ note_id: e.data.noteId, text: e.data.text, written_at: e.data.writtenAt, last_position: e.position })
        .onConflict('note_id')
        .ignore();
  },
};

/** The context's projectors, in the order the runner starts them. */
export const notesProjectors = [notesProjector] as const;
