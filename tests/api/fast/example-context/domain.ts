/**
 * The example context's domain (docs/conventions.md, "Adding a context", step 1): what domain/<context>/ holds,
 * here in one file. One event, its decoder, a typed error, one command and its decider: a note is written once.
 */
import type { Decider, DomainEvent } from '../../../../domain/shared/decider.js';
import { DomainError } from '../../../../domain/shared/errors.js';
import { eventDecoder } from '../../../../domain/shared/event-decoder.js';

/** `exampleNote-<noteId>`: one stream per note (stream names are `{category}-{id}`). */
export const noteStream = (noteId: string) => `exampleNote-${noteId}`;

export type NoteWritten = DomainEvent<'NoteWritten', { noteId: string; text: string; writtenAt: string }>;
export type NotesEvent = NoteWritten;

/** Every event type of the context with its schema version (docs/event-store.md, "Schema versions and upcasting"). */
export const notesEventDecoder = eventDecoder<NotesEvent>({ NoteWritten: { version: 1 } });

/** The context's codes; IDEMPOTENCY_KEY_REUSED is the write engine's, raised for any context. */
export type NotesErrorCode = 'NOTE_EXISTS' | 'IDEMPOTENCY_KEY_REUSED';
export const notesError = (code: NotesErrorCode, message: string, details: Record<string, unknown> = {}) =>
  new DomainError<NotesErrorCode>(code, message, details);

export interface WriteNote {
  noteId: string;
  text: string;
  /** The command's time (ISO 8601, UTC), from the engine's clock: the decider reads none. */
  now: string;
}

export type NoteState = { status: 'NONE' } | { status: 'WRITTEN'; text: string; writtenAt: string };

export const noteDecider: Decider<WriteNote, NoteState, NotesEvent> = {
  initialState: { status: 'NONE' },
  decide(command, state) {
    if (state.status !== 'NONE')
      throw notesError('NOTE_EXISTS', `note ${command.noteId} is written already`, { field: 'noteId' });
    return [{ type: 'NoteWritten', data: { noteId: command.noteId, text: command.text, writtenAt: command.now } }];
  },
  evolve(_state, event) {
    return { status: 'WRITTEN', text: event.data.text, writtenAt: event.data.writtenAt };
  },
};
