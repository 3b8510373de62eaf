/**
 * A user's upload quota (docs/files.md, "Quota"): what one user of one mini-app may upload in a UTC day, in files and
 * in bytes. Stream fileUploadQuota-<day>~<miniAppId>~<userId>: one event per upload counted, so two uploads of the
 * same user racing for the last unit are decided one after the other (expected version), never both let in.
 */
import type { Decider } from '../shared/decider.js';
import { filesError } from './errors.js';
import type { FileUploadCounted } from './events.js';

/** At most `files` uploads and `bytes` bytes per user and UTC day. */
export interface UploadQuota {
  readonly files: number;
  readonly bytes: number;
}

export type UploadQuotaState =
  { readonly status: 'NONE' } | { readonly status: 'COUNTING'; files: number; bytes: number };

export type UploadQuotaCommand = {
  type: 'CountUpload';
  fileId: string;
  size: number;
  quota: UploadQuota;
  now: string;
};

/** The UTC day `now` falls in (YYYY-MM-DD): the quota's period. */
export const quotaDayOf = (now: string): string => now.slice(0, 10);

/** When the period of `now` ends: the next UTC midnight. */
export const quotaResetsAt = (now: string): string =>
  new Date(Date.parse(`${quotaDayOf(now)}T00:00:00.000Z`) + 86_400_000).toISOString();

/** What the user has used in the period (nothing yet: zero). */
export const quotaUsed = (state: UploadQuotaState) =>
  state.status === 'NONE' ? { files: 0, bytes: 0 } : { files: state.files, bytes: state.bytes };

const refusal = (state: UploadQuotaState, quota: UploadQuota, now: string, why: string) =>
  filesError('UPLOAD_QUOTA_EXCEEDED', `upload quota reached: ${why}; it resets at ${quotaResetsAt(now)}`, {
    limit: { files: quota.files, bytes: quota.bytes, period: 'day (UTC)' },
    used: quotaUsed(state),
    resetsAt: quotaResetsAt(now),
  });

/** Refuses an upload of `size` bytes that the quota has no room for (a file, or the bytes). */
function assertRoom(state: UploadQuotaState, quota: UploadQuota, size: number, now: string): void {
  const used = quotaUsed(state);
  if (used.files + 1 > quota.files)
    throw refusal(state, quota, now, `${quota.files} files a day, ${used.files} uploaded today`);
  if (used.bytes + size > quota.bytes)
    throw refusal(state, quota, now, `${quota.bytes} bytes a day, ${used.bytes} uploaded today, this file ${size}`);
}

/**
 * Refuses before any byte of a new upload is read when no upload could fit: no file left, or no byte. The count
 * itself, with the file's size, is the decider's; this only spares reading a body that cannot be taken.
 */
export const assertQuotaLeft = (state: UploadQuotaState, quota: UploadQuota, now: string): void =>
  assertRoom(state, quota, 1, now);

function decide(command: UploadQuotaCommand, state: UploadQuotaState): FileUploadCounted[] {
  const { quota, size, now } = command;
  assertRoom(state, quota, size, now);
  return [{ type: 'FileUploadCounted', data: { fileId: command.fileId, size, day: quotaDayOf(now), countedAt: now } }];
}

function evolve(state: UploadQuotaState, event: FileUploadCounted): UploadQuotaState {
  const used = quotaUsed(state);
  return { status: 'COUNTING', files: used.files + 1, bytes: used.bytes + event.data.size };
}

export const uploadQuotaDecider: Decider<UploadQuotaCommand, UploadQuotaState, FileUploadCounted> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
