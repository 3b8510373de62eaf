/**
 * Events of the files context: the contract between its decider, its projector and auditors who replay them. Change
 * them only by adding optional fields or new events (anything else: a new schema version and an upcaster in
 * event-decoder.ts, docs/event-store.md#schema-versions-and-upcasting).
 *
 * Streams:
 *   file-<fileId>    one uploaded file (file.ts); fileId is a UUID
 *   fileUploadQuota-<day>~<miniAppId>~<userId>   one user's uploads counted in a UTC day (upload-quota.ts)
 * Times are ISO 8601 strings in UTC; sizes in bytes.
 */
import type { DomainEvent } from '../shared/decider.js';
import type { FileOwner, StoredFile } from './file.js';

// ---- file-<fileId> ----

/** The file's bytes are stored (under storageKey) and it belongs to its owner. */
export type FileUploaded = DomainEvent<'FileUploaded', StoredFile & { uploadedAt: string }>;

export type FileEvent = FileUploaded;

// ---- fileUploadQuota-<day>~<miniAppId>~<userId> ----

/** An upload of `size` bytes counted against its user's quota of the day. */
export type FileUploadCounted = DomainEvent<
  'FileUploadCounted',
  { fileId: string; size: number; day: string; countedAt: string }
>;

export type FilesEvent = FileEvent | FileUploadCounted;

export const streams = {
  file: (fileId: string) => `file-${fileId}`,
  /** `day` is YYYY-MM-DD (UTC); the ids never hold `~` (identityIdPattern), so the name is unambiguous. */
  uploadQuota: (owner: FileOwner, day: string) => `fileUploadQuota-${day}~${owner.miniAppId}~${owner.userId}`,
};
