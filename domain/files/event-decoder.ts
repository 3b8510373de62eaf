/**
 * The files context's one event decoder: every files event type with its schema version, grouped by the stream
 * category that holds it. Everything that reads files events reads them through it; writers stamp its current
 * versions. How to change an event's shape: docs/event-store.md#schema-versions-and-upcasting.
 */
import { eventDecoder, type EventDecoder, type EventSchemas } from '../shared/event-decoder.js';
import type { FileEvent, FilesEvent, FileUploadCounted } from './events.js';

/** Stored as the type declares it: no files event has changed shape yet. */
const v1 = { version: 1 } as const;

/** Each stream category's event types (each group complete: its type checks it) and their schema versions. */
const groups = {
  file: { FileUploaded: v1 } satisfies EventSchemas<FileEvent>,
  uploadQuota: { FileUploadCounted: v1 } satisfies EventSchemas<FileUploadCounted>,
};

/** The files registry, every FilesEvent type once. */
export const filesEventSchemas: EventSchemas<FilesEvent> = { ...groups.file, ...groups.uploadQuota };

/** The files context's decoder. */
export const filesEventDecoder: EventDecoder<FilesEvent> = eventDecoder(filesEventSchemas);

/** The decoder's stream views: `filesDecoders.file.decode(recorded)`. */
export const filesDecoders = {
  file: filesEventDecoder.only(groups.file),
  uploadQuota: filesEventDecoder.only(groups.uploadQuota),
};
