/**
 * The upload's body as the files context reads it (docs/files.md, "The form"): busboy parses the multipart/form-data
 * stream into parts, in order, without buffering a file (its bytes flow as the consumer reads them, busboy pausing
 * the request meanwhile). Form limits (fields, their sizes) are enforced here. A malformed or aborted body fails the
 * parts with this interface's own 4xx; `failure` keeps it, so the handler answers that root cause rather than what it
 * made a stream downstream throw.
 */
import type { Request } from 'express';
import { Transform } from 'node:stream';
import busboy from 'busboy';
import type { FormLimits, UploadPart } from '../../application/files/index.js';
import { HttpError } from '../shared/interface-errors.js';
import { filesCodes } from './errors.js';

export interface MultipartReader {
  /** The body's parts; iterate once. Leaving the loop early stops reading the body. */
  readonly parts: AsyncIterable<UploadPart>;
  /** Why the body could not be read (malformed, aborted, past a form limit), once it happened. */
  failure(): HttpError | undefined;
}

const invalid = (message: string) => new HttpError(400, filesCodes.invalidRequest, message);
const tooLarge = (message: string) => new HttpError(413, filesCodes.formTooLarge, message);

/** Starts reading `req`'s multipart body (its Content-Type was checked). Throws at once when it has no boundary. */
export function readMultipart(req: Request, limits: FormLimits): MultipartReader {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // busboy flags a value that reaches fieldSize as truncated: one byte more lets a value of exactly the limit in.
      limits: { fields: limits.maxFields, fieldSize: limits.maxFieldBytes + 1, headerPairs: 16 },
    });
  } catch (error) {
    throw invalid(`the multipart/form-data body cannot be read: ${(error as Error).message}`);
  }
  const bb = parser;

  const queue: UploadPart[] = [];
  let failure: HttpError | undefined;
  let finished = false;
  /** Set once the consumer left: later errors are of our own stopping, not the request's. */
  let abandoned = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const fail = (error: HttpError) => {
    if (abandoned || failure || finished) return;
    failure = error;
    // Fails the file being read, too: the consumer's pipeline stops.
    bb.destroy(error);
    notify();
  };
  const nameTooLong = (name: string) => Buffer.byteLength(name) > limits.maxFieldNameBytes;

  bb.on('field', (name, value, info) => {
    if (!name) return fail(invalid('a form field has no name'));
    if (nameTooLong(name)) return fail(tooLarge(`a form field name is longer than ${limits.maxFieldNameBytes} bytes`));
    if (info.valueTruncated) return fail(tooLarge(`form field ${name} is longer than ${limits.maxFieldBytes} bytes`));
    queue.push({ type: 'field', name, value });
    notify();
  });
  bb.on('file', (name, stream, info) => {
    // Its errors reach its consumer's pipeline; one nobody consumes (refused, or left in the queue) must not crash.
    stream.on('error', () => undefined);
    if (!name) {
      stream.resume();
      return fail(invalid('the file part has no form field name'));
    }
    if (nameTooLong(name)) {
      stream.resume();
      return fail(tooLarge(`a form field name is longer than ${limits.maxFieldNameBytes} bytes`));
    }
    queue.push({ type: 'file', fieldName: name, fileName: info.filename, stream });
    notify();
  });
  bb.on('fieldsLimit', () => fail(tooLarge(`the form holds more than ${limits.maxFields} fields besides the file`)));
  bb.on('error', (error: unknown) =>
    fail(
      error instanceof HttpError
        ? error
        : invalid(`the multipart/form-data body is malformed: ${(error as Error).message}`),
    ),
  );
  bb.on('finish', () => {
    finished = true;
    notify();
  });
  req.on('error', () => fail(invalid('the request failed before its body ended')));
  req.on('close', () => {
    if (!req.complete) fail(invalid('the request was aborted before its body ended'));
  });
  // Counts the body on its way to the parser (a pass-through: backpressure and pausing are the parser's).
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > limits.maxBodyBytes)
        return done(tooLarge(`the body is larger than ${limits.maxBodyBytes} bytes, the most an upload can hold`));
      done(null, chunk);
    },
  });
  counter.on('error', (error: HttpError) => fail(error));
  req.pipe(counter).pipe(bb);

  async function* parts(): AsyncGenerator<UploadPart> {
    try {
      for (;;) {
        if (failure) throw failure;
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (finished) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      abandoned = true;
      for (const part of queue.splice(0)) if (part.type === 'file') part.stream.resume();
      if (!finished) {
        req.unpipe(counter);
        counter.unpipe(bb);
        counter.destroy();
        bb.destroy();
      }
    }
  }

  return { parts: parts(), failure: () => failure };
}
