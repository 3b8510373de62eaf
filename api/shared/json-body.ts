/**
 * Request bodies, read the same way by every interface (docs/conventions.md, "Request bodies"): JSON, forms and raw
 * bytes under a size limit, `Content-Encoding` identity, gzip or deflate (the limit counts the inflated bytes), UTF-8
 * only, and JSON nested at most `maxJsonDepth` deep. Whatever a body does wrong becomes a `RequestBodyError`, which
 * each interface answers with its own invalid (400), too-large (413) or unsupported-media-type (415) code
 * (api/shared/interface-errors.ts). The depth is checked on the raw bytes before JSON.parse, in one pass that stops at
 * the first bracket too deep, so no walk after it (control characters, a schema, a webhook's raw values) meets more
 * than `maxJsonDepth` levels; the same pass counts object members and array elements against the interface's
 * `JsonBudget` (api/shared/json-shape.ts), so that what JSON.parse and the walks after it pay is bounded by the
 * budget rather than by the shape a body of the size limit can take.
 */
import express, { type Request, type RequestHandler } from 'express';
import { ControlCharacterError, controlCharacterField } from './control-characters.js';
import { type JsonBudget, jsonShapeProblem } from './json-shape.js';

export type { JsonBudget } from './json-shape.js';

/**
 * The deepest nesting of arrays and objects a JSON body may have: the deepest the specs need is an order webhook's
 * item attributes (`order.items[].sub_items[].attributes`, five levels) with a partner's map inside; 32 leaves that
 * map room while keeping every walk over a body shallow.
 */
export const maxJsonDepth = 32;

export type RequestBodyProblem = 'invalid' | 'tooLarge' | 'unsupportedMediaType';

/** A body refused before any handler ran; each interface answers it with its own code for `problem`. */
export class RequestBodyError extends Error {
  /** Also read by body-parser (http-errors), which keeps an error's own status when it wraps one. */
  readonly status: number;
  constructor(
    readonly problem: RequestBodyProblem,
    message: string,
  ) {
    super(message);
    this.name = 'RequestBodyError';
    this.status = bodyProblemStatus[problem];
  }
}

export const bodyProblemStatus: Record<RequestBodyProblem, number> = {
  invalid: 400,
  tooLarge: 413,
  unsupportedMediaType: 415,
};

/**
 * Whether JSON text nests arrays and objects deeper than `max` (the depth alone, no count budget): the same pass as
 * `jsonShapeProblem`.
 */
export function jsonNestedDeeperThan(text: Uint8Array | string, max: number): boolean {
  return jsonShapeProblem(text, max, unbounded) === 'depth';
}
const unbounded: JsonBudget = { members: Infinity, elements: Infinity };

/** Refuses JSON text deeper than `maxJsonDepth` or past `budget`, before anything parses it. */
function checkShape(text: Uint8Array | string, budget: JsonBudget): void {
  switch (jsonShapeProblem(text, maxJsonDepth, budget)) {
    case 'depth':
      throw new RequestBodyError('invalid', `request body is nested deeper than ${maxJsonDepth} arrays or objects`);
    case 'members':
      throw new RequestBodyError('invalid', `request body has more than ${budget.members} object members`);
    case 'elements':
      throw new RequestBodyError('invalid', `request body has more than ${budget.elements} array elements`);
  }
}

/**
 * JSON text a handler reads itself (a body whose signature covers its raw bytes): parsed only within the depth and
 * `budget`, and refused for a control character as `mount` refuses one in any parsed body.
 */
export function parseJsonText(text: string, budget: JsonBudget): unknown {
  checkShape(text, budget);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RequestBodyError('invalid', 'request body is not valid JSON');
  }
  const field = controlCharacterField(value, '');
  if (field !== undefined) throw new ControlCharacterError(field || 'body');
  return value;
}

/**
 * What body-parser (and raw-body, zlib under it) raised, in the interface-neutral terms of `RequestBodyError`;
 * undefined for an error that is not about the body. Also the error handler's reading of a body parser's error
 * (api/shared/interface-errors.ts).
 */
export function bodyParserProblem(err: unknown): RequestBodyError | undefined {
  if (err instanceof RequestBodyError) return err;
  const e = (err && typeof err === 'object' ? err : {}) as { type?: unknown; code?: unknown };
  switch (e.type) {
    case 'entity.parse.failed':
      return new RequestBodyError('invalid', 'request body is not valid JSON');
    case 'entity.too.large':
      return new RequestBodyError('tooLarge', 'request body is too large');
    case 'encoding.unsupported':
      return new RequestBodyError('unsupportedMediaType', 'Content-Encoding must be identity, gzip or deflate');
    case 'charset.unsupported':
      return new RequestBodyError('unsupportedMediaType', 'request body must be UTF-8');
    case 'parameters.too.many':
      return new RequestBodyError('tooLarge', 'request body has too many parameters');
    case 'request.aborted':
    case 'request.size.invalid':
      return new RequestBodyError('invalid', 'request body ended before its Content-Length');
  }
  // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR, ...): a body that says gzip or deflate and is not.
  if (typeof e.code === 'string' && e.code.startsWith('Z_'))
    return new RequestBodyError('invalid', 'request body is not valid for its Content-Encoding');
  return undefined;
}

/** What a body parser of this file raised, as a `RequestBodyError` (a control character as it is). */
function bodyError(err: unknown): unknown {
  if (err instanceof ControlCharacterError) return err;
  const problem = bodyParserProblem(err);
  if (problem) return problem;
  // Anything else body-parser calls the client's fault is still the client's: never a 500 for a body.
  const status = err && typeof err === 'object' ? (err as { status?: unknown }).status : undefined;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new RequestBodyError('invalid', 'request body cannot be read');
  return err;
}

/** `parser` with its failures turned into `RequestBodyError`s. */
function refusing(parser: RequestHandler): RequestHandler {
  return (req, res, next) => parser(req, res, (err?: unknown) => next(err === undefined ? undefined : bodyError(err)));
}

/**
 * A body of `type` (any type when undefined) in a charset other than UTF-8 is refused before reading: the depth scan
 * reads UTF-8 bytes.
 */
function utf8Only(type: string | undefined): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers['content-type'];
    // The header is parsed only when it names a charset (rarely): this runs on every hot write.
    const charset = header?.includes('charset') ? charsetPattern.exec(header)?.[1]?.toLowerCase() : undefined;
    const refused =
      charset !== undefined &&
      charset !== 'utf-8' &&
      charset !== 'utf8' &&
      (type === undefined || Boolean(req.is(type)));
    next(refused ? new RequestBodyError('unsupportedMediaType', 'request body must be UTF-8') : undefined);
  };
}
const charsetPattern = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** Where `jsonBody({ keepText: true })` leaves the body's text, exactly as sent (after inflating). */
export type RequestWithText = Request & { rawBody?: string };

/**
 * A JSON body (Content-Type application/json; others are left unread, as express.json does) of at most `limit`
 * bytes, nested at most `maxJsonDepth` deep, holding at most `budget`'s members and elements. `strict: false` accepts any JSON value at the top (the handler's schema
 * refuses what it does not take); `keepText` keeps the text as `req.rawBody`.
 */
export function jsonBody(options: {
  limit: number | string;
  budget: JsonBudget;
  strict?: boolean;
  keepText?: boolean;
}): RequestHandler[] {
  const parser = express.json({
    limit: options.limit,
    strict: options.strict ?? true,
    verify: (req, _res, buf) => {
      checkShape(buf, options.budget);
      if (options.keepText) (req as RequestWithText).rawBody = buf.toString('utf8');
    },
  });
  return [utf8Only('application/json'), refusing(parser)];
}

/** A form (application/x-www-form-urlencoded, flat: no nesting to limit) of at most `limit` bytes. */
export function formBody(options: { limit: number | string; parameterLimit?: number }): RequestHandler[] {
  return [
    utf8Only('application/x-www-form-urlencoded'),
    refusing(express.urlencoded({ extended: false, limit: options.limit, parameterLimit: options.parameterLimit })),
  ];
}

/**
 * The body's bytes (any Content-Type, UTF-8 if it names a charset) of at most `limit`, inflated, for a handler that
 * checks a signature over them first and then reads them with `parseJsonText`.
 */
export function rawBody(options: { limit: number | string }): RequestHandler[] {
  return [utf8Only(undefined), refusing(express.raw({ type: () => true, limit: options.limit }))];
}
