/**
 * A refused upload is answered, and the answer read, by a client that sends its whole body before it reads (as
 * curl and most SDKs do): the service drains what the client still sends, up to a bound, rather than resetting the
 * connection (docs/files.md, "Refusals and the unread rest of a body"). Raw sockets, 5 MiB bodies.
 */
import net from 'node:net';
import { once } from 'node:events';
import { expect } from 'chai';
import { issueTestAccessToken } from '../../support/access-tokens.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { png } from './media.js';
import { drainMaxBytes } from '../../../api/shared/unread-body.js';
import { expectNothingStored, KiB, MiB, startFilesApp, type FilesTestApp } from './support.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: { code: number; message: string };
}

/**
 * POSTs a multipart upload of `fileBytes` (a file part under "file") over a fresh socket, writing every byte before
 * it reads anything; then reads the answer. Rejects with the socket's error (EPIPE, ECONNRESET) if it was cut.
 */
async function sendThenRead(port: number, headers: Record<string, string>, fileBytes: Buffer): Promise<RawAnswer> {
  const boundary = 'drain-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fileBytes.length + tail.length;
  const request = [
    'POST /open/files/v1/files HTTP/1.1',
    'Host: 127.0.0.1',
    `Content-Type: multipart/form-data; boundary=${boundary}`,
    `Content-Length: ${length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');

  const socket = net.connect(port, '127.0.0.1');
  const failed = new Promise<never>((_, reject) => socket.once('error', reject));
  failed.catch(() => undefined);
  await Promise.race([once(socket, 'connect'), failed]);
  // Nothing is read until the whole body is written: the answer waits in the socket's buffer meanwhile.
  socket.pause();
  const write = async (bytes: Buffer) => {
    if (!socket.write(bytes)) await Promise.race([once(socket, 'drain'), failed]);
  };
  await write(Buffer.from(request));
  await write(head);
  for (let at = 0; at < fileBytes.length; at += 64 * KiB) await write(fileBytes.subarray(at, at + 64 * KiB));
  await write(tail);

  let received = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  socket.resume();
  const answer = new Promise<RawAnswer>((resolve) => {
    const check = () => {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = received.subarray(0, end).toString('latin1').split('\r\n');
      const headerMap = Object.fromEntries(
        lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const bodyLength = Number(headerMap['content-length']);
      if (received.length < end + 4 + bodyLength) return;
      resolve({
        status: Number(lines[0]!.split(' ')[1]),
        headers: headerMap,
        body: JSON.parse(received.subarray(end + 4, end + 4 + bodyLength).toString('utf8')) as RawAnswer['body'],
      });
    };
    socket.on('data', check);
    check();
  });
  try {
    return await Promise.race([answer, failed]);
  } finally {
    socket.destroy();
  }
}

describe('Files API: a refused upload of 5 MiB is drained, and its answer read by a client that sends it all first', function () {
  this.timeout(60_000);
  let files: FilesTestApp;
  let port: number;
  before(async () => {
    files = await startFilesApp({ FILES_MAX_IMAGE_BYTES: String(1 * MiB) });
    port = files.app.server.port;
  });
  after(() => files?.stop());

  const fiveMiB = (start: Buffer) => Buffer.concat([start, Buffer.alloc(5 * MiB - start.length, 0x5a)]);

  it('401 4101 without a token (refused before the body is read)', async () => {
    const res = await sendThenRead(port, gatewayHeaders(), fiveMiB(png()));
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal(4101);
    expectNothingStored(files.filesDir);
  });

  it('413 4130 for an image past its limit (refused a mebibyte in)', async () => {
    const token = await issueTestAccessToken(files.app, { userId: 'drain-user' });
    const res = await sendThenRead(port, { ...gatewayHeaders(), Authorization: `Bearer ${token}` }, fiveMiB(png()));
    expect(res.status).to.equal(413);
    expect(res.body.code).to.equal(4130);
    expectNothingStored(files.filesDir);
  });

  it('415 4150 for content that is no image, audio or video (refused after its first 64 KiB)', async () => {
    const token = await issueTestAccessToken(files.app, { userId: 'drain-user' });
    const res = await sendThenRead(
      port,
      { ...gatewayHeaders(), Authorization: `Bearer ${token}` },
      fiveMiB(Buffer.from('just text, not an image\n')),
    );
    expect(res.status).to.equal(415);
    expect(res.body.code).to.equal(4150);
    expectNothingStored(files.filesDir);
  });

  it("401 in the gateway's code without gateway credentials (refused in front of the interface)", async () => {
    const res = await sendThenRead(port, {}, fiveMiB(png()));
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal(4110);
  });

  it('cuts the connection of a refused body that goes on past the drain bound, and serves the next client', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const total = drainMaxBytes + 32 * MiB;
    socket.write(
      `POST /open/files/v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${total}\r\n\r\n`,
    );
    const cut = new Promise<string>((resolve) => {
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      socket.once('close', () => resolve('closed'));
    });
    const chunk = Buffer.alloc(256 * KiB, 0x5a);
    let written = 0;
    let ended: string | undefined;
    void cut.then((how) => (ended = how));
    while (written < total && ended === undefined) {
      written += chunk.length;
      if (!socket.write(chunk)) await Promise.race([once(socket, 'drain'), cut]);
    }
    expect(ended, 'the connection was cut').to.be.a('string');
    expect(written).to.be.below(total);
    socket.destroy();
    const health = await fetch(`${files.app.baseUrl}/health`);
    expect(health.status).to.equal(200);
  });
});
