/**
 * Events of the files context: the contract between its decider, its projector and auditors who replay them. Change
 * them only by adding optional fields or new events (anything else: a new schema version and an upcaster in
 * event-decoder.ts, docs/event-store.md#schema-versions-and-upcasting).
 *
 * Streams:
 *   file-<fileId>    one uploaded file (file.ts); fileId is a UUID
 * Times are ISO 8601 strings in UTC; sizes in bytes.
 */
import type { DomainEvent } from '../shared/decider.js';
import type { StoredFile } from './file.js';

// ---- file-<fileId> ----

/** The file's bytes are stored (under storageKey) and it belongs to its owner. */
export type FileUploaded = DomainEvent<'FileUploaded', StoredFile & { uploadedAt: string }>;

export type FileEvent = FileUploaded;

export type FilesEvent = FileEvent;

export const streams = {
  file: (fileId: string) => `file-${fileId}`,
};
