/**
 * Errors of one interface (docs/conventions.md, "Errors"): each interface maps the typed domain error codes of the
 * contexts it serves through its own table, typed so that a code left unmapped does not compile; there is no global
 * error table. Requests malformed before a handler runs (JSON, size, charset, path encoding) get the interface's own
 * request codes; storage that is away answers 503 with the internal code; anything else is logged and answered with
 * the interface's internal error, never a stack trace.
 */
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { isDomainError, type DomainError } from '../../application/shared/errors.js';
import { ControlCharacterError } from './control-characters.js';
import { bodyParserProblem, bodyProblemStatus } from './json-body.js';
import { logContextOf } from './request-context.js';

/** An answer already in the interface's terms, thrown by auth, parsing and handlers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * The message text a seed's error table gives for each of an interface's codes (spec 000 part B, 001 "Errors"):
 * clients show it to people, so it is the same for every occurrence of the code. Codes the seed gives no text for
 * are not listed; their messages are the service's own.
 */
export type SeedMessages = Readonly<Record<string, string>>;

/**
 * The message and data an interface's envelope writes for a failure: for a code its seed gives a text for, that
 * text, and what was said of this occurrence (`message`) moves to `data.detail` beside the refusal's other
 * specifics (field, reason, amounts); for any other code, both as given. docs/conventions.md, "Errors".
 */
export function seedWording(
  messages: SeedMessages,
  code: string,
  message: string,
  data: unknown,
): { message: string; data: Record<string, unknown> | null } {
  const specifics = data !== null && typeof data === 'object' && !Array.isArray(data) ? { ...data } : null;
  const text = Object.hasOwn(messages, code) ? messages[code]! : undefined;
  // "transaction not found" says no more than the seed's "Transaction not found": nothing to add.
  if (text === undefined || message.toLowerCase() === text.toLowerCase())
    return { message: text ?? message, data: specifics };
  return { message: text, data: { ...specifics, detail: message } };
}

/** For every domain code: the HTTP status and the interface's code. */
export type ErrorTable<Code extends string> = { readonly [K in Code]: readonly [status: number, code: string] };

export interface InterfaceErrors<Code extends string> {
  /** Names the interface in logs. */
  name: string;
  table: ErrorTable<Code>;
  /** The interface's codes for a request refused before any handler ran. */
  malformed: { invalid: string; tooLarge: string; unsupportedMediaType: string };
  /** The interface's code for a path it has no endpoint for (status 404). */
  unknownEndpoint: string;
  /** The interface's answer to an unexpected failure (status 500). */
  internal: { code: string; message: string };
  /** Its answer while storage is away (default: 503 with the internal code), always with Retry-After. */
  unavailable?: { status: number; code: string };
  /** Writes the interface's envelope. */
  send(res: Response, status: number, code: string, message: string, data: unknown): void;
  /** What of a domain error's details the caller is shown (default: nothing). */
  detailsOf?(error: DomainError<Code>): unknown;
}

const unavailableMessage =
  'the service cannot reach its data right now (starting, or its database is away); retry shortly';

/**
 * Failures that say the storage is away or not ready yet, not that the request or the code is wrong: PostgreSQL
 * refusing connections or shutting down, a pool that timed out, a read model whose table a projector has not created
 * yet (an api process started before the first projector). Answered 503 with Retry-After, so that clients retry.
 */
function storageUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, name } = err as { code?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true;
  return typeof code === 'string' && transientCodes.has(code);
}

const transientCodes = new Set([
  '42P01', // undefined_table: a read model not created yet
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '08000', // connection_exception
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '53300', // too_many_connections
  'ECONNREFUSED',
  'ECONNRESET',
]);

/** The interface's answer to what express and body-parser raise for a malformed request; undefined for anything else. */
function malformed(err: unknown, codes: InterfaceErrors<string>['malformed']): [number, string, string] | undefined {
  if (err instanceof URIError) return [400, codes.invalid, 'request path is not valid percent-encoding'];
  if (err instanceof ControlCharacterError) return [400, codes.invalid, err.message];
  // Every body parser: too deep, corrupt encoding, too large, not UTF-8 (api/shared/json-body.ts reads them all).
  const body = bodyParserProblem(err);
  if (body) return [bodyProblemStatus[body.problem], codes[body.problem], body.message];
  return undefined;
}

/** The interface's 404 for a path under it that no route took; mount it after the routes. */
export function unknownEndpoint(spec: Pick<InterfaceErrors<string>, 'send' | 'unknownEndpoint'>): RequestHandler {
  return (req, res) =>
    spec.send(res, 404, spec.unknownEndpoint, `no endpoint ${req.method} ${req.baseUrl}${req.path}`, null);
}

export function interfaceErrorHandler<Code extends string>(
  spec: InterfaceErrors<Code>,
  logger: { error(message: string, meta?: Record<string, unknown>): unknown },
): ErrorRequestHandler {
  // A Map, so that a code named like an Object.prototype key ("constructor") is not found by accident.
  const table = new Map<string, readonly [number, string]>(Object.entries(spec.table));
  return (err, req, res, next) => {
    // Failed while writing its answer: express's own handler ends the response (nothing more can be sent).
    if (res.headersSent) return next(err);
    if (err instanceof HttpError) return spec.send(res, err.status, err.code, err.message, err.data);
    if (isDomainError(err)) {
      const mapped = table.get(err.code);
      if (mapped) {
        const data = spec.detailsOf ? spec.detailsOf(err as DomainError<Code>) : null;
        return spec.send(res, mapped[0], mapped[1], err.message, data);
      }
    }
    const refused = malformed(err, spec.malformed);
    if (refused) return spec.send(res, refused[0], refused[1], refused[2], null);
    if (storageUnavailable(err)) {
      logger.error(`${spec.name} request failed: storage unavailable`, {
        method: req.method,
        path: req.path,
        ...logContextOf(res),
        err,
      });
      res.setHeader('Retry-After', '1');
      const { status, code } = spec.unavailable ?? { status: 503, code: spec.internal.code };
      return spec.send(res, status, code, unavailableMessage, null);
    }
    logger.error(`${spec.name} request failed`, { method: req.method, path: req.path, ...logContextOf(res), err });
    spec.send(res, 500, spec.internal.code, spec.internal.message, null);
  };
}
