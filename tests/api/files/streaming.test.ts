import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { issueTestAccessToken } from '../../support/access-tokens.js';
import { mp4 } from './media.js';
import { download, generatedBody, MiB, startFilesApp, streamedForm, upload, type FilesTestApp } from './support.js';

// A full collection on demand, so that what is measured is what the process still holds, not garbage awaiting GC.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** What the process holds in memory that a buffered upload would grow: the JS heap and the Buffers outside it. */
const held = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

describe('Files API over HTTP: a large upload is streamed, never held in memory', function () {
  this.timeout(180_000);
  let files: FilesTestApp;
  before(async () => {
    files = await startFilesApp();
  });
  after(() => files?.stop());

  it('stores and serves a 128 MiB video while the memory it holds grows by a small fraction of that', async () => {
    const token = await issueTestAccessToken(files.app, { userId: 'user-big' });
    const total = 128 * MiB;
    const file = generatedBody(mp4(0), total);
    const body = streamedForm('video', 'long.mp4', file.stream);

    // The client and the server share this process: whatever either held whole would show here. Each sample follows a
    // full collection, whose time grows with the heap of the whole test run; the next one waits at least 250 ms and
    // four times as long as the last took, so that sampling never takes more than a fifth of the time and cannot
    // starve the upload (on a slow machine, collections every 250 ms that took longer than that did).
    const baseline = held();
    let peak = baseline;
    let sampler: NodeJS.Timeout | undefined;
    const sample = () => {
      const started = performance.now();
      peak = Math.max(peak, held());
      sampler = setTimeout(sample, Math.max(250, 4 * (performance.now() - started)));
    };
    sampler = setTimeout(sample, 250);
    let res;
    try {
      res = await upload(files.app.baseUrl, token, body.stream, { headers: body.headers });
    } finally {
      clearTimeout(sampler);
    }
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.deep.include({ kind: 'video', type: 'video/mp4', size: total, sha256: file.state.sha256 });
    // Streaming holds a few buffers (socket, busboy, the 64 KiB sample, the file writer); buffering would hold 128 MiB.
    const growth = peak - baseline;
    expect(growth, `grew by ${(growth / MiB).toFixed(1)} MiB`).to.be.below(total / 4);

    const stored = fs.statSync(
      path.join(
        files.filesDir,
        'objects',
        (res.body.data!.fileId as string).slice(0, 2),
        res.body.data!.fileId as string,
      ),
    );
    expect(stored.size).to.equal(total);

    const got = await download(files.app.baseUrl, token, res.body.data!.fileId as string);
    expect(got.headers.get('content-length')).to.equal(String(total));
    const hash = createHash('sha256');
    for await (const chunk of got.body!) hash.update(chunk);
    expect(hash.digest('hex')).to.equal(file.state.sha256);
  });
});
