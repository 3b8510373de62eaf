import { expect } from 'chai';
import { issueTestAccessToken } from '../../support/access-tokens.js';
import { png } from './media.js';
import {
  expectNothingStored,
  expectRefusal,
  KiB,
  startFilesApp,
  testLimits,
  upload,
  type FilesTestApp,
} from './support.js';

describe('Files API over HTTP: the whole body is bounded too', () => {
  let files: FilesTestApp;
  before(async () => {
    files = await startFilesApp({
      FILES_MAX_IMAGE_BYTES: String(64 * KiB),
      FILES_MAX_AUDIO_BYTES: String(64 * KiB),
      FILES_MAX_VIDEO_BYTES: String(64 * KiB),
      FILES_MAX_FIELDS: '2',
    });
  });
  after(() => files?.stop());

  it('refuses a body that goes on past the most an upload can hold, in parts nobody reads: 413 4131', async () => {
    const token = await issueTestAccessToken(files.app, { userId: 'user-1' });
    // Parts without Content-Disposition are skipped by the parser: only the body's own size stops them.
    const skipped = `--XyZ\r\nX-Filler: 1\r\n\r\n${'z'.repeat(8 * KiB)}\r\n`;
    const file = `--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const body = Buffer.concat([
      Buffer.from(file),
      png(),
      Buffer.from('\r\n'),
      Buffer.from(skipped.repeat(128)),
      Buffer.from('--XyZ--\r\n'),
    ]);
    const res = await upload(files.app.baseUrl, token, new Uint8Array(body), {
      headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
    });
    expectRefusal(res, 413, 4131, /the most an upload can hold/);
    expectNothingStored(files.filesDir);
  });

  it('takes a file at its limit with fields at theirs', async () => {
    const token = await issueTestAccessToken(files.app, { userId: 'user-1' });
    const f = new FormData();
    f.append('a', 'x'.repeat(testLimits.fieldBytes));
    f.append('b', 'y'.repeat(testLimits.fieldBytes));
    const bytes = Buffer.concat([png(), Buffer.alloc(64 * KiB - png().length)]);
    f.append('file', new Blob([new Uint8Array(bytes)]), 'full.png');
    const res = await upload(files.app.baseUrl, token, f);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data!.size).to.equal(64 * KiB);
  });
});
