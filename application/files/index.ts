/**
 * The files context's application layer, as the API and the composition root see it: its services, their views and
 * the ports its adapters implement. Import this file from outside application/files (docs/conventions.md, "Modules").
 */
export * from './content-inspector.js';
export * from './file-downloads.js';
export * from './file-uploads.js';
export * from './file-view.js';
export * from './ports.js';
export * from './upload-part.js';

import type { AccessTokenVerifier } from '../shared/access-tokens.js';
import type { FileDownloads } from './file-downloads.js';
import type { FileUploads } from './file-uploads.js';

/** Limits on the form around the file (docs/files.md, "The form"); the interface's multipart reader enforces them. */
export interface FormLimits {
  /** Form fields besides the file. */
  maxFields: number;
  /** Bytes of one field's value. */
  maxFieldBytes: number;
  /** Bytes of a field's name (the file's field too). */
  maxFieldNameBytes: number;
  /**
   * Bytes of the whole body: the largest file, every field at its limit and room for the parts' headers. A body that
   * goes on past it (parts nobody reads, say) is refused rather than read to its end.
   */
  maxBodyBytes: number;
}

/** The files context's services, as its module builds them (infrastructure/files) and its API uses them (api/files). */
export interface FilesServices {
  uploads: FileUploads;
  downloads: FileDownloads;
  formLimits: FormLimits;
  /** The users' access tokens (the identity context's verifier): every files call is a user's. */
  accessTokens: AccessTokenVerifier;
  /** Prefix of the `url` answered for a file (e.g. the gateway's external address); empty: a path on this service. */
  publicBaseUrl: string;
}

// The domain's vocabulary the interface needs (kinds, owners, typed error codes) reaches it through this file: api/
// imports application/ only.
export * from '../../domain/files/index.js';
