/** A stored file as the files context answers about it (docs/files.md, "Answers"): from its aggregate's state. */
import type { FileKind, FileOwner, FileState } from '../../domain/files/index.js';

export interface FileView {
  fileId: string;
  owner: FileOwner;
  kind: FileKind;
  mime: string;
  size: number;
  sha256: string;
  fieldName: string;
  originalName: string | null;
  formFields: Readonly<Record<string, string>>;
  uploadedAt: string;
}

export function fileView(state: FileState): FileView {
  if (state.status === 'NONE') throw new Error('a file view of a file that does not exist');
  const { status: _status, storageKey: _key, ...view } = state;
  return view;
}
