/**
 * The files interface over HTTP for tests: a test app with its files in a fresh directory and small limits, uploads
 * of real multipart bodies (Node's FormData and fetch, or raw bytes for malformed ones), and what the storage and
 * the event store hold afterwards.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { gatewayHeaders } from '../../support/gateway.js';

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** The limits the files test app runs with. */
export const testLimits = { image: 256 * KiB, audio: 1 * MiB, video: 160 * MiB, fields: 5, fieldBytes: 256 };

export interface FilesTestApp {
  app: TestApp;
  filesDir: string;
  stop(): Promise<void>;
}

export async function startFilesApp(env: Record<string, string> = {}): Promise<FilesTestApp> {
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'files-test-'));
  const app = await startTestApp({
    env: {
      FILES_DIR: filesDir,
      FILES_MAX_IMAGE_BYTES: String(testLimits.image),
      FILES_MAX_AUDIO_BYTES: String(testLimits.audio),
      FILES_MAX_VIDEO_BYTES: String(testLimits.video),
      FILES_MAX_FIELDS: String(testLimits.fields),
      FILES_MAX_FIELD_BYTES: String(testLimits.fieldBytes),
      ...env,
    },
  });
  return {
    app,
    filesDir,
    async stop() {
      await app.stop();
      fs.rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface Answer {
  status: number;
  headers: Headers;
  body: { code: number; message: string; data: Record<string, unknown> | null };
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: Answer['body'];
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    throw new Error(`${res.status} is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body };
}

const auth = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { Authorization: `Bearer ${token}` };

/** POSTs `body` (a FormData, or raw bytes with their headers) to the upload endpoint. */
export async function upload(
  baseUrl: string,
  token: string | undefined,
  body: FormData | Uint8Array | string | ReadableStream<Uint8Array>,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Answer> {
  const res = await fetch(`${baseUrl}/open/files/v1/files`, {
    method: 'POST',
    headers: { ...gatewayHeaders(), ...auth(token), ...init.headers },
    body,
    signal: init.signal,
    ...(body instanceof ReadableStream && { duplex: 'half' }),
  } as RequestInit);
  return answer(res);
}

/** A form with one file under `field` and the given other fields. */
export function form(
  field: string,
  bytes: Uint8Array,
  fileName: string,
  type: string,
  fields: Record<string, string> = {},
) {
  const f = new FormData();
  for (const [name, value] of Object.entries(fields)) f.append(name, value);
  f.append(field, new Blob([new Uint8Array(bytes)], { type }), fileName);
  return f;
}

export async function getFile(baseUrl: string, token: string | undefined, fileId: string): Promise<Answer> {
  return answer(
    await fetch(`${baseUrl}/open/files/v1/files/${fileId}`, { headers: { ...gatewayHeaders(), ...auth(token) } }),
  );
}

export async function download(baseUrl: string, token: string | undefined, fileId: string) {
  return fetch(`${baseUrl}/open/files/v1/files/${fileId}/content`, {
    headers: { ...gatewayHeaders(), ...auth(token) },
  });
}

/** Every file under `dir`, recursively (relative paths). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)));
}

/** The storage holds nothing: no object, no temporary file. */
export function expectNothingStored(filesDir: string): void {
  expect(filesUnder(path.join(filesDir, 'tmp')), 'temporary files').to.deep.equal([]);
  expect(filesUnder(path.join(filesDir, 'objects')), 'stored objects').to.deep.equal([]);
}

/** How many FileUploaded events the store holds. */
export async function uploadedEvents(app: TestApp): Promise<number> {
  // Counted in the table: readAll stops before a transaction still in flight (a background job's append), so a count
  // through it can come out short while another process writes.
  const [{ n }] = await app.container.knex('events').where({ type: 'FileUploaded' }).count<{ n: string }[]>('* as n');
  return Number(n);
}

/** Expects a refusal in the files envelope. */
export function expectRefusal(res: Answer, status: number, code: number, message?: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.code).to.equal(code);
  if (message) expect(res.body.message).to.match(message);
}

/**
 * A body of `total` bytes made on the fly (nothing held): `head`, then repeated chunks of 64 KiB. `pulled` says how
 * much of it the connection took so far.
 */
export function generatedBody(head: Uint8Array, total: number) {
  const chunk = new Uint8Array(64 * KiB).fill(0x5a);
  const hash = createHash('sha256');
  const state = { pulled: 0, sha256: '' };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) {
        state.sha256 = hash.digest('hex');
        return controller.close();
      }
      let next: Uint8Array = state.pulled === 0 ? head : chunk;
      next = next.subarray(0, Math.min(next.length, total - state.pulled));
      hash.update(next);
      state.pulled += next.length;
      controller.enqueue(next);
    },
  });
  return { stream, state };
}

/** A multipart body around a streamed file: its preamble, the file's bytes, its epilogue, under `boundary`. */
export function streamedForm(field: string, fileName: string, file: ReadableStream<Uint8Array>) {
  const boundary = `----files-test-${Math.random().toString(16).slice(2)}`;
  const preamble = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const epilogue = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const reader = file.getReader();
  let stage = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === 0) {
        stage = 1;
        return controller.enqueue(preamble);
      }
      if (stage === 1) {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
        stage = 2;
        controller.enqueue(epilogue);
        return controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { stream, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } };
}
