/**
 * An upload as the files context reads it: the parts of a multipart/form-data body, in order, produced by the
 * interface from the HTTP request (api/files/multipart.ts) without buffering a file. docs/files.md, "The form".
 */
import type { Readable } from 'node:stream';

export type UploadPart =
  | { readonly type: 'field'; readonly name: string; readonly value: string }
  | {
      readonly type: 'file';
      /** The form field the file is under (the client's `fileName`). */
      readonly fieldName: string;
      /** As the client named it (a label: never trusted for the type). */
      readonly fileName: string | undefined;
      /** The file's bytes; whoever takes the part consumes or abandons them. */
      readonly stream: Readable;
    };
