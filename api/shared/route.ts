/**
 * The one way to write a route (docs/conventions.md, "Routes"): a handler takes the request and returns what to
 * answer; it never writes to `res` itself. Errors are thrown and reach the interface's error handler
 * (api/shared/interface-errors.ts), which maps them through that interface's own typed table.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';

/**
 * What a handler answers: a JSON body, JSON already serialised (hot reads build their bytes themselves), or a stream
 * of bytes with its headers (a download: never buffered whole).
 */
export type HttpResult =
  | { readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly status: number; readonly json: Buffer }
  | { readonly status: number; readonly stream: Readable; readonly headers: Readonly<Record<string, string>> };

export type RouteHandler = (req: Request, res: Response) => HttpResult | Promise<HttpResult>;

export const json = (status: number, body: unknown, headers?: Record<string, string>): HttpResult => ({
  status,
  body,
  headers,
});

/**
 * Prebuilt JSON bytes, sent as they are: none of res.send's content negotiation, which costs a hot read about a
 * tenth of its time (node leaves the body out of an answer to HEAD).
 */
export const rawJson = (bytes: Buffer, status = 200): HttpResult => ({ status, json: bytes });

/** Bytes streamed as they are read; `headers` name their type and length. */
export const streamed = (status: number, stream: Readable, headers: Record<string, string>): HttpResult => ({
  status,
  stream,
  headers,
});

function write(res: Response, result: HttpResult): void {
  if ('stream' in result) {
    res.writeHead(result.status, result.headers);
    // The headers are out: a failure now (the source's, or a caller gone) can only cut the answer short.
    pipeline(result.stream, res, () => undefined);
    return;
  }
  if ('json' in result) {
    res.writeHead(result.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': result.json.length,
    });
    res.end(result.json);
    return;
  }
  if (result.headers) res.set(result.headers);
  res.status(result.status).json(result.body);
}

/**
 * Adapts a handler to express: its result is written; whatever it throws, or writing its result throws (a body
 * JSON cannot hold), goes to the router's error handler, never becomes an unhandled rejection.
 */
export function on(handler: RouteHandler): RequestHandler {
  return (req, res, next) => {
    try {
      const result = handler(req, res);
      if (!(result instanceof Promise)) return write(res, result);
      result.then((r) => {
        try {
          write(res, r);
        } catch (error) {
          next(error);
        }
      }, next);
    } catch (error) {
      next(error);
    }
  };
}
