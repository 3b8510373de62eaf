/**
 * The file storage (application/files/ports.ts) in a directory (docs/files.md, "Storage"): an upload is written to
 * `tmp/` under a random name, flushed to disk, then renamed to `objects/<key>`, so an object is either whole or
 * absent. Both live under one directory, so the rename never crosses file systems. Temporary files a crash left are
 * removed by sweepTemporary.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs, { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { FileStorage, PendingObject, StoredObject } from '../../application/files/index.js';

const keyPattern = /^[0-9a-f]{2}\/[0-9a-f-]{36}$/;

export class LocalFileStorage implements FileStorage {
  readonly objectsDir: string;
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.objectsDir = path.join(root, 'objects');
    this.tmpDir = path.join(root, 'tmp');
  }

  /** Creates the directories (at build, so that a bad FILES_DIR stops the service at start). */
  async init(): Promise<void> {
    await fsp.mkdir(this.objectsDir, { recursive: true });
    await fsp.mkdir(this.tmpDir, { recursive: true });
  }

  keyFor(fileId: string): string {
    return `${fileId.slice(0, 2)}/${fileId}`;
  }

  async begin(): Promise<PendingObject> {
    const tmp = path.join(this.tmpDir, `${randomUUID()}.part`);
    // flush: the bytes reach the disk before close, hence before the rename that publishes them.
    const writable = fs.createWriteStream(tmp, { flags: 'wx', flush: true });
    await once(writable, 'ready');
    const closed = once(writable, 'close').then(
      () => undefined,
      () => undefined,
    );
    let state: 'open' | 'committed' | 'discarded' = 'open';
    return {
      writable,
      commit: async (key) => {
        if (state !== 'open') throw new Error(`a ${state} object cannot be committed`);
        if (!writable.writableFinished) throw new Error('the object is committed before its bytes were all written');
        await closed;
        const target = this.pathOf(key);
        await fsp.mkdir(path.dirname(target), { recursive: true });
        await fsp.rename(tmp, target);
        state = 'committed';
        await syncDirectory(path.dirname(target));
      },
      discard: async () => {
        if (state !== 'open') return;
        state = 'discarded';
        if (!writable.closed) writable.destroy();
        await closed;
        await fsp.rm(tmp, { force: true });
      },
    };
  }

  async open(key: string): Promise<StoredObject | undefined> {
    const file = this.pathOf(key);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      return { size, stream: handle.createReadStream({ autoClose: true }) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  /** Removes temporary files older than `olderThanMs` (an upload that ran longer is still being written). */
  async sweepTemporary(olderThanMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await fsp.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      const stat = await fsp.stat(file).catch(() => undefined);
      if (!stat || now - stat.mtimeMs < olderThanMs) continue;
      await fsp.rm(file, { force: true });
      removed++;
    }
    return removed;
  }

  private pathOf(key: string): string {
    // Keys are this storage's own (keyFor); anything else is a bug, never a path to follow.
    if (!keyPattern.test(key)) throw new Error(`not a storage key: ${key}`);
    return path.join(this.objectsDir, key);
  }
}

/** Makes a rename in `dir` durable (best effort where directories cannot be opened for sync). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename stands either way.
  } finally {
    await handle.close();
  }
}
