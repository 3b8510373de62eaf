/**
 * Reading uploaded files (docs/files.md, "Download"): the aggregate says whose file it is and where its bytes are; a
 * file that is not the caller's is answered exactly like one that does not exist.
 */
import type { Readable } from 'node:stream';
import {
  fileDecider,
  filesDecoders,
  filesError,
  ownedBy,
  streams,
  type FileOwner,
  type FileState,
} from '../../domain/files/index.js';
import { loadAggregate } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import { fileView, type FileView } from './file-view.js';
import type { FileStorage } from './ports.js';

const fileIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class FileDownloads {
  constructor(private readonly deps: { store: EventStore; storage: FileStorage }) {}

  /** The file's description, for its owner. */
  async describe(owner: FileOwner, fileId: string): Promise<FileView> {
    return fileView(await this.owned(owner, fileId));
  }

  /** The file's description and its bytes, for its owner; the caller consumes or destroys the stream. */
  async open(owner: FileOwner, fileId: string): Promise<{ file: FileView; stream: Readable }> {
    const state = await this.owned(owner, fileId);
    if (state.status === 'NONE') throw new Error('unreachable');
    const stored = await this.deps.storage.open(state.storageKey);
    // Recorded but gone: the storage lost it, a fault of this service rather than of the request.
    if (!stored) throw new Error(`the bytes of file ${fileId} are missing from the storage (${state.storageKey})`);
    if (stored.size !== state.size) {
      stored.stream.destroy();
      throw new Error(`file ${fileId} is ${stored.size} bytes in the storage, ${state.size} recorded`);
    }
    return { file: fileView(state), stream: stored.stream };
  }

  private async owned(owner: FileOwner, fileId: string): Promise<FileState> {
    const notFound = () => filesError('FILE_NOT_FOUND', `no file ${fileId}`, { fileId });
    if (!fileIdPattern.test(fileId)) throw notFound();
    const { state } = await loadAggregate(this.deps.store, fileDecider, filesDecoders.file, streams.file(fileId));
    if (!ownedBy(state, owner)) throw notFound();
    return state;
  }
}
