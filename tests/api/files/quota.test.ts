/**
 * Each user's upload quota per UTC day (docs/files.md, "Quota"), over HTTP on PostgreSQL: past its files or its bytes
 * an upload is refused 429 4291 with Retry-After, keeps nothing, and leaves other users alone; parallel uploads racing
 * for the last unit are never all let in.
 */
import path from 'node:path';
import { expect } from 'chai';
import { issueTestAccessToken } from '../../support/access-tokens.js';
import { png } from './media.js';
import {
  expectRefusal,
  filesUnder,
  form,
  KiB,
  startFilesApp,
  upload,
  uploadedEvents,
  type Answer,
  type FilesTestApp,
} from './support.js';

const image = (bytes: number) => Buffer.concat([png(), Buffer.alloc(bytes - png().length, 0x11)]);
const objects = (files: FilesTestApp) => filesUnder(path.join(files.filesDir, 'objects')).length;

function expectQuotaRefusal(res: Answer, used: { files: number; bytes: number }) {
  expectRefusal(res, 429, 4291, /upload quota reached/);
  const tomorrow = new Date();
  tomorrow.setUTCHours(24, 0, 0, 0);
  expect(res.body.data).to.deep.equal({
    limit: { files: 2, bytes: 200 * KiB, period: 'day (UTC)' },
    used,
    resetsAt: tomorrow.toISOString(),
  });
  expect(res.headers.get('retry-after')).to.equal(tomorrow.toUTCString());
}

describe('Files API: the upload quota of a user per day', () => {
  let files: FilesTestApp;
  before(async () => {
    files = await startFilesApp({ FILES_QUOTA_FILES_PER_DAY: '2', FILES_QUOTA_BYTES_PER_DAY: String(200 * KiB) });
  });
  after(() => files?.stop());

  it('takes a user’s files up to the quota, then refuses the next with 429 4291, keeping nothing; another user goes on', async () => {
    const token = await issueTestAccessToken(files.app, { userId: 'quota-files' });
    for (const n of [1, 2]) {
      const res = await upload(files.app.baseUrl, token, form('file', image(10 * KiB), `${n}.png`, 'image/png'));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    const before = { objects: objects(files), events: await uploadedEvents(files.app) };
    const third = await upload(files.app.baseUrl, token, form('file', image(10 * KiB), '3.png', 'image/png'));
    expectQuotaRefusal(third, { files: 2, bytes: 20 * KiB });
    expect({ objects: objects(files), events: await uploadedEvents(files.app) }).to.deep.equal(before);

    const other = await issueTestAccessToken(files.app, { userId: 'quota-other' });
    const res = await upload(files.app.baseUrl, other, form('file', image(10 * KiB), 'o.png', 'image/png'));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  });

  it('refuses a file the day’s bytes have no room for, and keeps nothing of it', async () => {
    const token = await issueTestAccessToken(files.app, { userId: 'quota-bytes' });
    const first = await upload(files.app.baseUrl, token, form('file', image(150 * KiB), 'big.png', 'image/png'));
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const before = objects(files);
    const second = await upload(files.app.baseUrl, token, form('file', image(60 * KiB), 'more.png', 'image/png'));
    expectQuotaRefusal(second, { files: 1, bytes: 150 * KiB });
    expect(objects(files)).to.equal(before);
    expect(filesUnder(path.join(files.filesDir, 'tmp'))).to.deep.equal([]);
  });

  it('lets exactly the quota through when a user’s uploads race for it', async () => {
    const token = await issueTestAccessToken(files.app, { userId: 'quota-race' });
    const raced = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        upload(files.app.baseUrl, token, form('file', image(10 * KiB), `r${n}.png`, 'image/png')),
      ),
    );
    const statuses = raced.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([201, 201, 429, 429, 429, 429]);
  });
});
