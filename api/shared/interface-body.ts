/**
 * One body reader per interface, made from its error spec (docs/conventions.md, "Request bodies"): the middleware that
 * reads the body under the interface's limits (api/shared/json-body.ts: size, encodings, UTF-8, depth, count budget;
 * or the raw bytes of a signed body) and the function that turns it into the route's typed command through its zod
 * schema. Every refusal carries the interface's own codes (`InterfaceErrors.malformed`) and goes to its envelope
 * through its error handler; what differs between interfaces (how a wrong Content-Type or a schema's refusal is
 * worded, as each seed asks) is an option, not another parser.
 */
import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import { HttpError, type InterfaceErrors } from './interface-errors.js';
import { jsonBody, parseJsonText, rawBody, type JsonBudget, type RequestWithText } from './json-body.js';
import { describeZodError, isJsonRequest, issueField, issueMessage } from './validation.js';

type Schema<T> = z.ZodType<T, z.ZodTypeDef, unknown>;

export interface InterfaceBodyOptions {
  /** Most bytes, inflated. */
  limit: number | string;
  /** Most object members and array elements (api/shared/json-shape.ts). */
  budget: JsonBudget;
  /** JSON bodies: `false` takes any JSON value at the top (the schema refuses what it does not take); default true. */
  strict?: boolean;
  /** JSON bodies: keep the text as sent, for `text(req)` (a webhook's raw extension values). */
  keepText?: boolean;
  /** The body's bytes, any Content-Type, for a signature over them (`text(req)`, then `parseText`). */
  raw?: boolean;
  /**
   * A Content-Type other than JSON: 415 with the interface's unsupported-media-type code (default), or `'invalid'`,
   * its invalid-input code (400) naming the header as the field.
   */
  notJson?: 'unsupportedMediaType' | 'invalid';
  /** Refuse a Content-Type other than JSON before the body is read, ahead of the route's own checks. */
  notJsonFirst?: boolean;
  /** Refuse a top that is not a JSON object with this message (invalid input) before the schema; default: the schema's. */
  notObject?: string;
  /**
   * How a schema's refusal is worded: `'field'` (default), its first issue starting with the field's name, the field
   * in `data.field`; `'sentence'`, one sentence naming the field by its dotted path (`describeZodError`), no data.
   */
  issues?: 'field' | 'sentence';
}

export interface InterfaceBody {
  /** The middleware that reads the body, to mount before the route's handler. */
  readonly parsers: RequestHandler[];
  /** The JSON body parsed by `schema` (fields prefixed with `within` when the body is one named part of a resource). */
  read<T>(schema: Schema<T>, req: Request, within?: string): T;
  /** The body's text as sent: a raw body's bytes, or a JSON body kept with `keepText`; '' when there is none. */
  text(req: Request): string;
  /** JSON text read from `text(req)` (after its signature was checked), within the depth and budget, by `schema`. */
  parseText<T>(schema: Schema<T>, text: string): T;
}

export function interfaceBody(
  errors: Pick<InterfaceErrors<string>, 'malformed'>,
  options: InterfaceBodyOptions,
): InterfaceBody {
  const { invalid, unsupportedMediaType } = errors.malformed;
  const notJson = () =>
    options.notJson === 'invalid'
      ? new HttpError(400, invalid, 'Content-Type must be application/json', { field: 'Content-Type' })
      : new HttpError(415, unsupportedMediaType, 'Content-Type must be application/json');

  function parse<T>(schema: Schema<T>, value: unknown, within?: string): T {
    if (options.notObject !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
      throw new HttpError(400, invalid, options.notObject);
    const parsed = schema.safeParse(value, { path: within ? [within] : [] });
    if (parsed.success) return parsed.data;
    if (options.issues === 'sentence') throw new HttpError(400, invalid, describeZodError(parsed.error, 'body'));
    const issue = parsed.error.issues[0]!;
    const field = issueField(issue);
    throw new HttpError(400, invalid, issueMessage(issue, field), { field });
  }

  const reading = options.raw
    ? rawBody({ limit: options.limit })
    : jsonBody({ limit: options.limit, budget: options.budget, strict: options.strict, keepText: options.keepText });
  const gate: RequestHandler = (req, _res, next) => next(isJsonRequest(req) ? undefined : notJson());

  return {
    parsers: options.notJsonFirst ? [gate, ...reading] : reading,
    read(schema, req, within) {
      if (!isJsonRequest(req)) throw notJson();
      return parse(schema, req.body, within);
    },
    text(req) {
      if (options.raw) return Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
      return (req as RequestWithText).rawBody ?? '';
    },
    parseText: (schema, text) => parse(schema, parseJsonText(text, options.budget)),
  };
}
