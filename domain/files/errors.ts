/**
 * Why a file command was refused: the files context's typed codes (docs/files.md, "Codes"). The files interface maps
 * them through its own table (api/files/errors.ts): a code added here does not compile until that table maps it.
 */
import { DomainError } from '../shared/errors.js';

/** An upload refused (POST /open/files/v1/files). */
export const uploadErrorCodes = [
  /** The form holds no file part. */
  'FILE_MISSING',
  /** The form holds a second file part: one file per call. */
  'TOO_MANY_FILES',
  /** The same form field twice. */
  'FORM_FIELD_REPEATED',
  /** The file's content is not an image, audio or video (decided from its bytes, never its name or declared type). */
  'FILE_TYPE_NOT_ALLOWED',
  /** The file passed its kind's size limit (or, before its kind was known, the largest limit). */
  'FILE_TOO_LARGE',
  /** A file id handed out twice (a bug, answered as a conflict). */
  'FILE_EXISTS',
  /** The user's upload quota of the day (files or bytes) is spent (upload-quota.ts). */
  'UPLOAD_QUOTA_EXCEEDED',
] as const;

/** A download or metadata read refused. */
export const downloadErrorCodes = [
  /** No such file, or not the caller's (the two are not told apart). */
  'FILE_NOT_FOUND',
] as const;

export type UploadErrorCode = (typeof uploadErrorCodes)[number];
export type DownloadErrorCode = (typeof downloadErrorCodes)[number];
export type FilesErrorCode = UploadErrorCode | DownloadErrorCode;

export type FilesError = DomainError<FilesErrorCode>;

export function filesError(code: FilesErrorCode, message: string, details: Record<string, unknown> = {}): FilesError {
  return new DomainError(code, message, details);
}
