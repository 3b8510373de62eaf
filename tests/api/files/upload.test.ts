import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  issueExpiredTestAccessToken,
  issueTestAccessToken,
  revokeTestAccessToken,
} from '../../support/access-tokens.js';
import { eventually } from '../../support/eventually.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { elf, mp3, mp4, png, windowsExe } from './media.js';
import {
  download,
  expectNothingStored,
  expectRefusal,
  filesUnder,
  form,
  generatedBody,
  getFile,
  KiB,
  MiB,
  sha256,
  startFilesApp,
  streamedForm,
  testLimits,
  upload,
  uploadedEvents,
  type FilesTestApp,
} from './support.js';

describe('Files API over HTTP: upload and download', () => {
  let files: FilesTestApp;
  let baseUrl: string;
  let alice: string;

  before(async () => {
    files = await startFilesApp();
    baseUrl = files.app.baseUrl;
    alice = await issueTestAccessToken(files.app, { userId: 'user-alice', miniAppId: 'miniapp-1' });
  });
  after(() => files?.stop());

  /** Uploads `bytes` as alice and checks the answer and the stored event; returns the file's data. */
  async function uploadAndCheck(
    bytes: Buffer,
    expected: { type: string; kind: string },
    sent: { field: string; name: string; declared: string; fields?: Record<string, string> },
  ) {
    const res = await upload(baseUrl, alice, form(sent.field, bytes, sent.name, sent.declared, sent.fields));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.code).to.equal(0);
    expect(res.body.message).to.equal('Success');
    const data = res.body.data!;
    const fileId = data.fileId as string;
    expect(fileId).to.match(/^[0-9a-f-]{36}$/);
    expect(data).to.deep.include({
      url: `/open/files/v1/files/${fileId}/content`,
      type: expected.type,
      kind: expected.kind,
      size: bytes.length,
      sha256: sha256(bytes),
      fieldName: sent.field,
      originalName: sent.name,
      formData: sent.fields ?? {},
    });
    expect(res.headers.get('location')).to.equal(`/open/files/v1/files/${fileId}/content`);

    const [event, ...more] = await files.app.container.store.readStream(`file-${fileId}`);
    expect(more).to.have.length(0);
    expect(event!.type).to.equal('FileUploaded');
    expect(event!.data).to.deep.include({
      fileId,
      owner: { userId: 'user-alice', miniAppId: 'miniapp-1' },
      kind: expected.kind,
      mime: expected.type,
      size: bytes.length,
      sha256: sha256(bytes),
      fieldName: sent.field,
      originalName: sent.name,
      formFields: sent.fields ?? {},
    });
    expect(event!.metadata.actor).to.deep.equal({ userId: 'user-alice' });
    const storageKey = (event!.data as { storageKey: string }).storageKey;
    expect(fs.readFileSync(path.join(files.filesDir, 'objects', storageKey)).equals(bytes)).to.equal(true);
    return data;
  }

  async function expectDownloadable(fileId: string, bytes: Buffer, type: string, name: string) {
    const res = await download(baseUrl, alice, fileId);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal(type);
    expect(res.headers.get('content-length')).to.equal(String(bytes.length));
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('content-disposition')).to.match(/^attachment; /);
    expect(res.headers.get('content-disposition')).to.include(`filename="${name}"`);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).to.equal(true);
  }

  it('stores a PNG under any field name, with its other form fields, and its owner downloads the same bytes', async () => {
    const bytes = png(16, 9);
    const data = await uploadAndCheck(
      bytes,
      { type: 'image/png', kind: 'image' },
      { field: 'avatar', name: 'me.png', declared: 'image/png', fields: { caption: 'Xin chào', album: '7' } },
    );
    await expectDownloadable(data.fileId as string, bytes, 'image/png', 'me.png');
    const described = await getFile(baseUrl, alice, data.fileId as string);
    expect(described.status).to.equal(200);
    expect(described.body).to.deep.equal({ code: 0, message: 'Success', data });
  });

  it('tells an MP3 from its content, whatever its name and declared type say', async () => {
    const bytes = mp3(12);
    const data = await uploadAndCheck(
      bytes,
      { type: 'audio/mpeg', kind: 'audio' },
      { field: 'voice', name: 'recording.bin', declared: 'application/octet-stream' },
    );
    await expectDownloadable(data.fileId as string, bytes, 'audio/mpeg', 'recording.bin');
  });

  it('stores an MP4 as video', async () => {
    const bytes = mp4(64 * KiB);
    const data = await uploadAndCheck(
      bytes,
      { type: 'video/mp4', kind: 'video' },
      { field: 'file', name: 'clip.mp4', declared: 'video/mp4' },
    );
    await expectDownloadable(data.fileId as string, bytes, 'video/mp4', 'clip.mp4');
  });

  it('lists every upload in the files_uploaded read model', async () => {
    const res = await upload(baseUrl, alice, form('file', png(), 'row.png', 'image/png', { note: 'n' }));
    const fileId = res.body.data!.fileId as string;
    const row = await eventually(async () => {
      const found = await files.app.db.knex('files_uploaded').where({ file_id: fileId }).first();
      if (!found) throw new Error('no row yet');
      return found as Record<string, unknown>;
    });
    expect(row).to.deep.include({
      user_id: 'user-alice',
      mini_app_id: 'miniapp-1',
      kind: 'image',
      mime: 'image/png',
      field_name: 'file',
      original_name: 'row.png',
      form_fields: { note: 'n' },
    });
  });

  it('keeps the file name only as a sanitised label, sent back as an attachment name', async () => {
    // RFC 5987 lets a name carry a quote, a control character and a right-to-left override: none is kept.
    const body = Buffer.concat([
      Buffer.from(
        `--XyZ\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''..%2Fa%22b%07%E2%80%AEc.png\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png(),
      Buffer.from('\r\n--XyZ--\r\n'),
    ]);
    const res = await upload(baseUrl, alice, new Uint8Array(body), {
      headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data!.originalName).to.equal('abc.png');

    const named = await upload(baseUrl, alice, form('file', png(), 'ảnh đẹp.png', 'image/png'));
    expect(named.body.data!.originalName).to.equal('ảnh đẹp.png');
    const got = await download(baseUrl, alice, named.body.data!.fileId as string);
    // An ASCII fallback for old clients, the exact name in UTF-8 for the others (RFC 6266, RFC 8187).
    expect(got.headers.get('content-disposition')).to.equal(
      `attachment; filename="_nh __p.png"; filename*=UTF-8''${encodeURIComponent('ảnh đẹp.png')}`,
    );
    await got.arrayBuffer();
  });

  describe('refusals leave nothing behind', () => {
    let eventsBefore: number;
    beforeEach(async () => {
      // Earlier tests stored files: start each from an empty storage, and count the events it holds.
      fs.rmSync(path.join(files.filesDir, 'objects'), { recursive: true, force: true });
      fs.mkdirSync(path.join(files.filesDir, 'objects'));
      eventsBefore = await uploadedEvents(files.app);
    });
    afterEach(async () => {
      expectNothingStored(files.filesDir);
      expect(await uploadedEvents(files.app), 'FileUploaded events appended').to.equal(eventsBefore);
    });

    it('refuses a renamed Linux executable declared as image/png: 415 4150', async () => {
      const res = await upload(baseUrl, alice, form('file', elf(), 'photo.png', 'image/png'));
      expectRefusal(res, 415, 4150, /application\/x-elf/);
      expect(res.body.data).to.deep.equal({ detected: 'application/x-elf' });
    });

    it('refuses a Windows executable and plain text: 415 4150', async () => {
      expectRefusal(await upload(baseUrl, alice, form('file', windowsExe(), 'photo.jpg', 'image/jpeg')), 415, 4150);
      const text = await upload(baseUrl, alice, form('file', Buffer.from('just words\n'), 'a.mp3', 'audio/mpeg'));
      expectRefusal(text, 415, 4150, /not a known image, audio or video/);
      expect(text.body.data).to.deep.equal({ detected: null });
    });

    it('refuses an image larger than the image limit: 413 4130 naming the limit', async () => {
      const bytes = Buffer.concat([png(), Buffer.alloc(testLimits.image)]);
      const res = await upload(baseUrl, alice, form('file', bytes, 'big.png', 'image/png'));
      expectRefusal(res, 413, 4130, /262144 bytes/);
      expect(res.body.data).to.deep.equal({ limit: testLimits.image, kind: 'image' });
    });

    it('answers 413 as soon as the limit is passed, without reading the rest of the body', async () => {
      const total = 96 * MiB;
      const file = generatedBody(png(), total);
      const body = streamedForm('file', 'huge.png', file.stream);
      const res = await upload(baseUrl, alice, body.stream, { headers: body.headers });
      expectRefusal(res, 413, 4130);
      // What sat in socket buffers when the server stopped, not the 96 MiB.
      expect(file.state.pulled).to.be.below(24 * MiB);
    });

    it('refuses two files in one call, after storing the first: 400 4003', async () => {
      const f = form('first', png(), 'one.png', 'image/png');
      f.append('second', new Blob([new Uint8Array(mp3())], { type: 'audio/mpeg' }), 'two.mp3');
      expectRefusal(await upload(baseUrl, alice, f), 400, 4003, /one file per call/);
    });

    it('refuses a form without a file: 400 4002', async () => {
      const f = new FormData();
      f.append('caption', 'no file');
      expectRefusal(await upload(baseUrl, alice, f), 400, 4002);
    });

    it('refuses a body that is not multipart/form-data: 415 4151', async () => {
      expectRefusal(
        await upload(baseUrl, alice, '{"file":"x"}', { headers: { 'Content-Type': 'application/json' } }),
        415,
        4151,
      );
      expectRefusal(await upload(baseUrl, alice, new Uint8Array(png())), 415, 4151);
    });

    it('refuses multipart without a boundary, truncated or malformed: 400 4001', async () => {
      expectRefusal(
        await upload(baseUrl, alice, 'abc', { headers: { 'Content-Type': 'multipart/form-data' } }),
        400,
        4001,
        /boundary/i,
      );
      const head = `--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
      const truncated = Buffer.concat([Buffer.from(head), png(64, 64)]);
      expectRefusal(
        await upload(baseUrl, alice, new Uint8Array(truncated), {
          headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
        }),
        400,
        4001,
        /malformed|end/i,
      );
      const noName = `--XyZ\r\nContent-Disposition: form-data; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNG\r\n--XyZ--\r\n`;
      expectRefusal(
        await upload(baseUrl, alice, noName, { headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' } }),
        400,
        4001,
        /no form field name/,
      );
    });

    it('refuses form fields past their limits (413 4131) and a field given twice (400 4004)', async () => {
      const long = form('file', png(), 'a.png', 'image/png', { note: 'x'.repeat(testLimits.fieldBytes + 1) });
      expectRefusal(await upload(baseUrl, alice, long), 413, 4131, /note is longer than 256 bytes/);
      const many = Object.fromEntries(Array.from({ length: testLimits.fields + 1 }, (_, i) => [`f${i}`, 'v']));
      expectRefusal(await upload(baseUrl, alice, form('file', png(), 'a.png', 'image/png', many)), 413, 4131);
      const twice = form('file', png(), 'a.png', 'image/png', { tag: 'a' });
      twice.append('tag', 'b');
      expectRefusal(await upload(baseUrl, alice, twice), 400, 4004, /tag/);
    });

    it('removes the temporary file of an upload the client aborts half-way', async () => {
      const file = generatedBody(mp4Header(), 64 * MiB);
      const body = streamedForm('file', 'clip.mp4', file.stream);
      const abort = new AbortController();
      const sending = upload(baseUrl, alice, body.stream, { headers: body.headers, signal: abort.signal });
      await eventually(() => {
        if (filesUnder(path.join(files.filesDir, 'tmp')).length === 0 || file.state.pulled < 4 * MiB)
          throw new Error('not writing yet');
      });
      abort.abort();
      await sending.then(
        () => expect.fail('the aborted request got an answer'),
        (error: Error) => expect(error.name).to.equal('AbortError'),
      );
      await eventually(() => expectNothingStored(files.filesDir));
    });

    it('never reaches the files interface without gateway credentials: 401 4110/4111 from the gateway, nothing stored', async () => {
      const before = await uploadedEvents(files.app);
      const without = await upload(baseUrl, alice, form('file', png(), 'a.png', 'image/png'), {
        headers: { client_id: '', client_secret: '' },
      });
      expectRefusal(without, 401, 4110);
      const wrong = await upload(baseUrl, alice, form('file', png(), 'a.png', 'image/png'), {
        headers: { client_secret: 'not-the-secret-0123456789' },
      });
      expectRefusal(wrong, 401, 4111);
      expectNothingStored(files.filesDir);
      expect(await uploadedEvents(files.app)).to.equal(before);
    });

    it('refuses a call without a valid bearer token before reading its body: 401', async () => {
      const missing = await upload(baseUrl, undefined, form('file', png(), 'a.png', 'image/png'));
      expectRefusal(missing, 401, 4101, /Bearer/);
      expect(missing.headers.get('www-authenticate')).to.equal('Bearer realm="files"');
      expectRefusal(await upload(baseUrl, 'not-a-token', form('file', png(), 'a.png', 'image/png')), 401, 4100);
      const expired = await issueExpiredTestAccessToken(files.app, 'user-alice');
      expectRefusal(await upload(baseUrl, expired, form('file', png(), 'a.png', 'image/png')), 401, 4102);
      const revoked = await issueTestAccessToken(files.app, { userId: 'user-alice' });
      await revokeTestAccessToken(files.app, revoked);
      expectRefusal(await upload(baseUrl, revoked, form('file', png(), 'a.png', 'image/png')), 401, 4103);
      const basic = await upload(baseUrl, undefined, form('file', png(), 'a.png', 'image/png'), {
        headers: { Authorization: 'Basic dXNlcjpwYXNz' },
      });
      expectRefusal(basic, 401, 4101);

      const big = generatedBody(mp4Header(), 64 * MiB);
      const body = streamedForm('file', 'clip.mp4', big.stream);
      expectRefusal(await upload(baseUrl, undefined, body.stream, { headers: body.headers }), 401, 4101);
      expect(big.state.pulled).to.be.below(24 * MiB);
    });
  });

  describe('downloads are for their owner only', () => {
    let fileId: string;
    before(async () => {
      const res = await upload(baseUrl, alice, form('file', png(), 'mine.png', 'image/png'));
      fileId = res.body.data!.fileId as string;
    });

    it('answers another user, or the same user in another mini-app, as if the file did not exist: 404 4301', async () => {
      const bob = await issueTestAccessToken(files.app, { userId: 'user-bob', miniAppId: 'miniapp-1' });
      const aliceElsewhere = await issueTestAccessToken(files.app, { userId: 'user-alice', miniAppId: 'miniapp-2' });
      for (const token of [bob, aliceElsewhere]) {
        expectRefusal(await getFile(baseUrl, token, fileId), 404, 4301);
        const res = await download(baseUrl, token, fileId);
        expect(res.status).to.equal(404);
        expect(await res.json()).to.deep.include({ code: 4301 });
      }
      expectRefusal(await getFile(baseUrl, alice, randomUUID()), 404, 4301);
    });

    it('answers a malformed file id 404 4301 and an unknown path 404 4300', async () => {
      expectRefusal(await getFile(baseUrl, alice, 'not-a-uuid'), 404, 4301);
      expectRefusal(await getFile(baseUrl, alice, '..%2F..%2Fetc%2Fpasswd'), 404, 4301);
      const res = await fetch(`${baseUrl}/open/files/v1/nothing-here`, {
        headers: { ...gatewayHeaders(), Authorization: `Bearer ${alice}` },
      });
      expect(res.status).to.equal(404);
      expect(await res.json()).to.deep.include({ code: 4300 });
    });

    it('answers HEAD on the content with its headers and no body', async () => {
      const res = await fetch(`${baseUrl}/open/files/v1/files/${fileId}/content`, {
        method: 'HEAD',
        headers: { ...gatewayHeaders(), Authorization: `Bearer ${alice}` },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/png');
      expect(res.headers.get('content-length')).to.equal(String(png().length));
      expect((await res.arrayBuffer()).byteLength).to.equal(0);
    });

    it('refuses a download without a token: 401 4101', async () => {
      const res = await download(baseUrl, undefined, fileId);
      expect(res.status).to.equal(401);
      expect(await res.json()).to.deep.include({ code: 4101 });
    });
  });
});

function mp4Header(): Buffer {
  return mp4(0);
}
