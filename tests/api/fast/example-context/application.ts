/**
 * The example context's application (docs/conventions.md, "Adding a context", step 2): what application/<context>/
 * holds. Its aggregate is named once for the write engine (application/<context>/aggregates.ts in a real context); its
 * one service runs the command through it and answers from the events it appended, never from a read model;
 * `NotesServices` names the services (`container.services.notes`).
 */
import { aggregate, type AggregateDeps } from '../../../../application/shared/aggregate.js';
import type { CommandContext } from '../../../../application/shared/command-context.js';
import { noteDecider, notesEventDecoder, noteStream } from './domain.js';

export const notesAggregates = (deps: AggregateDeps) => ({
  note: aggregate(
    { decider: noteDecider, stream: noteStream, decoder: notesEventDecoder, eventDecoder: notesEventDecoder },
    deps,
  ),
});

export class NoteWriter {
  private readonly notes;

  constructor(deps: AggregateDeps) {
    this.notes = notesAggregates(deps).note;
  }

  async write(context: CommandContext, note: { noteId: string; text: string }) {
    const { state } = await this.notes.handle(context, note.noteId, (now) => ({ ...note, now }));
    if (state.status !== 'WRITTEN') throw new Error('a written note has its state');
    return { noteId: note.noteId, text: state.text, writtenAt: state.writtenAt };
  }
}

export interface NotesServices {
  notes: NoteWriter;
}

// The domain's vocabulary the API needs reaches it through here: api/ imports application/ only.
export type { NotesErrorCode } from './domain.js';
