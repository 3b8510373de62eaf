/**
 * The example context's application (docs/conventions.md, "Adding a context", step 2): what application/<context>/
 * holds. Its one service runs the command through the shared command handler and answers from the events it appended,
 * never from a read model; `NotesServices` names the services (`container.services.notes`).
 */
import { handleCommand, type CommandContext } from '../../../../application/shared/command-handler.js';
import type { Clock } from '../../../../application/shared/clock.js';
import type { EventStore } from '../../../../application/shared/event-store.js';
import { noteDecider, notesEventDecoder, noteStream } from './domain.js';

export class NoteWriter {
  constructor(private readonly deps: { store: EventStore; clock: Clock }) {}

  async write(context: CommandContext, note: { noteId: string; text: string }) {
    const { state } = await handleCommand({ ...this.deps, decoder: notesEventDecoder }, context, {
      decider: noteDecider,
      decoder: notesEventDecoder,
      streamName: noteStream(note.noteId),
      command: (now) => ({ ...note, now }),
    });
    if (state.status !== 'WRITTEN') throw new Error('a written note has its state');
    return { noteId: note.noteId, text: state.text, writtenAt: state.writtenAt };
  }
}

export interface NotesServices {
  notes: NoteWriter;
}

// The domain's vocabulary the API needs reaches it through here: api/ imports application/ only.
export type { NotesErrorCode } from './domain.js';
