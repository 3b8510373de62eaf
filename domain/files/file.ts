/**
 * An uploaded file (stream file-<fileId>): recorded once its bytes are stored, read by its owner (docs/files.md).
 * The upload service checked the bytes (type from the content, size within its kind's limit) and stored them before
 * this decider runs; here the recorded description must hold together.
 */
import type { Decider } from '../shared/decider.js';
import type { FileEvent } from './events.js';
import { filesError } from './errors.js';
import { kindOf, type FileKind } from './file-kind.js';

/** Whose file it is: the user of an access token, within the mini-app the token was issued to. */
export interface FileOwner {
  readonly userId: string;
  readonly miniAppId: string;
}

/** What is recorded about a stored file. */
export interface StoredFile {
  readonly fileId: string;
  readonly owner: FileOwner;
  readonly kind: FileKind;
  /** The media type detected from the content. */
  readonly mime: string;
  readonly size: number;
  /** Lowercase hex SHA-256 of the bytes. */
  readonly sha256: string;
  /** Where the storage keeps the bytes (its own key; not a path a caller sees). */
  readonly storageKey: string;
  /** The form field the file came under (the client's `fileName`). */
  readonly fieldName: string;
  /** The client's file name, sanitised (file-name.ts); a label only. */
  readonly originalName: string | null;
  /** The other form fields, as sent. */
  readonly formFields: Readonly<Record<string, string>>;
}

export type FileState = { readonly status: 'NONE' } | (StoredFile & { readonly status: 'STORED'; uploadedAt: string });

export type FileCommand = { type: 'RecordUpload'; file: StoredFile; now: string };

function decide(command: FileCommand, state: FileState): FileEvent[] {
  switch (command.type) {
    case 'RecordUpload': {
      const { file } = command;
      if (state.status !== 'NONE') throw filesError('FILE_EXISTS', `file ${file.fileId} already exists`);
      // The upload service derives these; a disagreement is a bug, refused before it is recorded.
      if (kindOf(file.mime) !== file.kind) throw new Error(`file ${file.fileId}: kind ${file.kind} for ${file.mime}`);
      if (!Number.isSafeInteger(file.size) || file.size < 0) throw new Error(`file ${file.fileId}: size ${file.size}`);
      if (!/^[0-9a-f]{64}$/.test(file.sha256)) throw new Error(`file ${file.fileId}: sha256 ${file.sha256}`);
      return [{ type: 'FileUploaded', data: { ...file, uploadedAt: command.now } }];
    }
  }
}

function evolve(_state: FileState, event: FileEvent): FileState {
  switch (event.type) {
    case 'FileUploaded':
      return { ...event.data, status: 'STORED' };
  }
}

export const fileDecider: Decider<FileCommand, FileState, FileEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};

/** Whether `owner` may read the file: the same user in the same mini-app. */
export const ownedBy = (state: FileState, owner: FileOwner): boolean =>
  state.status === 'STORED' && state.owner.userId === owner.userId && state.owner.miniAppId === owner.miniAppId;
