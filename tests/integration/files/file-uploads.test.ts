import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { FileUploads, type UploadPart } from '../../../application/files/index.js';
import { systemClock } from '../../../application/shared/clock.js';
import { newCommandContext } from '../../../application/shared/command-context.js';
import type { EventStore } from '../../../application/shared/event-store.js';
import { DomainError } from '../../../application/shared/errors.js';
import { LocalFileStorage } from '../../../infrastructure/files/index.js';
import { fileTypeDetector } from '../../../infrastructure/files/file-type-detector.js';
import { InMemoryEventStore } from '../../../infrastructure/shared/eventstore/in-memory-event-store.js';
import { createLogger } from '../../../infrastructure/shared/logger.js';
import { mp3, png } from '../../api/files/media.js';
import { filesUnder } from '../../api/files/support.js';

/** The upload service on the real storage and detector, with a store that can be made to fail. */
function uploadsOn(store: EventStore) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'files-service-'));
  const storage = new LocalFileStorage(dir);
  const uploads = new FileUploads({
    store,
    clock: systemClock,
    storage,
    detector: fileTypeDetector,
    limits: { image: 1024 * 1024, audio: 1024 * 1024, video: 1024 * 1024 },
    quota: { files: 1000, bytes: 1024 * 1024 * 1024 },
    logger: createLogger('error'),
  });
  return { dir, storage, uploads };
}

const owner = { userId: 'u-1', miniAppId: 'app-1' };
const context = () => newCommandContext({ actor: { userId: owner.userId } });

async function* parts(...list: UploadPart[]): AsyncGenerator<UploadPart> {
  for (const part of list) yield part;
}
const filePart = (bytes: Buffer, fieldName = 'file'): UploadPart => ({
  type: 'file',
  fieldName,
  fileName: 'x.bin',
  stream: Readable.from([bytes]),
});

describe('file uploads: storage and event together', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('removes the committed bytes when the event cannot be appended', async () => {
    const store = new InMemoryEventStore();
    store.appendMany = async () => {
      throw new Error('the event store is down');
    };
    const { dir, storage, uploads } = uploadsOn(store);
    dirs.push(dir);
    await storage.init();
    const error = await uploads.upload(context(), owner, parts(filePart(png()))).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error).with.property('message', 'the event store is down');
    expect(filesUnder(dir)).to.deep.equal([]);
  });

  it('records the bytes it stored, and fields before or after the file', async () => {
    const store = new InMemoryEventStore();
    const { dir, storage, uploads } = uploadsOn(store);
    dirs.push(dir);
    await storage.init();
    const bytes = mp3();
    const view = await uploads.upload(
      context(),
      owner,
      parts({ type: 'field', name: 'a', value: '1' }, filePart(bytes, 'voice'), {
        type: 'field',
        name: 'b',
        value: '2',
      }),
    );
    expect(view).to.deep.include({ kind: 'audio', mime: 'audio/mpeg', size: bytes.length, fieldName: 'voice' });
    expect(view.formFields).to.deep.equal({ a: '1', b: '2' });
    expect(filesUnder(path.join(dir, 'objects'))).to.deep.equal([`${view.fileId.slice(0, 2)}/${view.fileId}`]);
    expect(filesUnder(path.join(dir, 'tmp'))).to.deep.equal([]);
  });

  it('discards the file when the parts fail after it (a body broken after the file part)', async () => {
    const { dir, storage, uploads } = uploadsOn(new InMemoryEventStore());
    dirs.push(dir);
    await storage.init();
    async function* broken(): AsyncGenerator<UploadPart> {
      yield filePart(png());
      throw new Error('the body ended early');
    }
    const error = await uploads.upload(context(), owner, broken()).catch((e: unknown) => e);
    expect(error).to.have.property('message', 'the body ended early');
    expect(filesUnder(dir)).to.deep.equal([]);
  });

  it('refuses a file no detector knows, and an empty one, as FILE_TYPE_NOT_ALLOWED', async () => {
    const { dir, storage, uploads } = uploadsOn(new InMemoryEventStore());
    dirs.push(dir);
    await storage.init();
    for (const bytes of [Buffer.alloc(0), Buffer.from('%PDF-1.7\n')]) {
      const error = await uploads.upload(context(), owner, parts(filePart(bytes))).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(DomainError).with.property('code', 'FILE_TYPE_NOT_ALLOWED');
    }
    expect(filesUnder(dir)).to.deep.equal([]);
  });

  it('sweeps temporary files older than the given age only', async () => {
    const { dir, storage } = uploadsOn(new InMemoryEventStore());
    dirs.push(dir);
    await storage.init();
    const old = path.join(storage.tmpDir, 'old.part');
    fs.writeFileSync(old, 'x');
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(old, hourAgo, hourAgo);
    fs.writeFileSync(path.join(storage.tmpDir, 'fresh.part'), 'y');
    expect(await storage.sweepTemporary(30 * 60_000)).to.equal(1);
    expect(fs.readdirSync(storage.tmpDir)).to.deep.equal(['fresh.part']);
  });
});
