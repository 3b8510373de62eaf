/**
 * The operator API (/operator/v1): one interface that every context adds its operator endpoints to
 * (docs/conventions.md, "Modules"). Here: its authentication, body parsing, envelope {code, message, data}, the
 * command context of a request, and its 404. Each context's operator router maps its own typed domain codes through
 * its own table (operatorErrors); codes: docs/shop-api.md, "Operator API".
 */
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import type { CommandContext } from '../../application/shared/command-context.js';
import type { Logger } from '../../application/shared/logger.js';
import { commandContextOf, isIdempotencyKey } from './command-context.js';
import {
  HttpError,
  interfaceErrorHandler,
  unknownEndpoint,
  type ErrorTable,
  type InterfaceErrors,
} from './interface-errors.js';
import { interfaceBody } from './interface-body.js';
import { operatorAuth } from './operator-auth.js';
import { json, type HttpResult } from './route.js';

export const operatorBasePath = '/operator/v1';

function send(res: Response, status: number, code: string, message: string, data: unknown): void {
  res.status(status).json({ code, message, data });
}

/** The operator API's statuses and codes, for the tables of the contexts' operator routers. */
export const operatorStatus = {
  invalid: [400, 'OPS-REQ-001'],
  notFound: [404, 'OPS-NOT-FOUND'],
  conflict: [409, 'OPS-CONFLICT'],
} as const;

/** The operator API's errors with `table` mapping one context's typed codes (a code left out does not compile). */
export function operatorErrors<Code extends string>(name: string, table: ErrorTable<Code>): InterfaceErrors<Code> {
  return {
    name,
    table,
    malformed: { invalid: 'OPS-REQ-001', tooLarge: 'OPS-REQ-413', unsupportedMediaType: 'OPS-REQ-415' },
    unknownEndpoint: 'OPS-NOT-FOUND',
    internal: { code: 'OPS-SYS-500', message: 'internal error' },
    send,
    detailsOf: (error) => (typeof error.details.field === 'string' ? { field: error.details.field } : null),
  };
}

/** What reaches the API's own handler: refusals before any context's router, and no domain error at all. */
const shellErrors = operatorErrors<never>('operator', {});

export const refuseOperator = (res: Response, message: string) => send(res, 401, 'OPS-AUTH-001', message, null);

export const ok = (data: unknown, status = 200): HttpResult =>
  json(status, { code: 'SUCCESS', message: 'Success', data });

/**
 * The largest operator body is an issue of 1,000 recipients of 2 fields (api/checkout/operator-wallet-schemas.ts):
 * 2,000 members and 1,000 elements; docs/conventions.md, "Request bodies".
 */
const operatorBodyBudget = { members: 5_000, elements: 5_000 };

/** The operator API's bodies: a JSON object of up to 256 KiB; a refusal names its field. */
const operatorBody = interfaceBody(shellErrors, {
  limit: '256kb',
  budget: operatorBodyBudget,
  notObject: 'body must be a JSON object',
});

/**
 * The JSON object body, parsed by `schema` into the typed command. `within` prefixes field names where the body is
 * one named part of the resource (the pool pricing endpoint's body is the pool's `pricing`).
 */
export function body<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, req: Request, within?: string): T {
  return operatorBody.read(schema, req, within);
}

/** A positive integer path parameter. */
export function numericParam(req: Request, name: string): number {
  const raw = req.params[name] ?? '';
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) throw new HttpError(400, 'OPS-REQ-001', `${name} must be a positive integer`);
  return Number(raw);
}

/**
 * The context of the command the request runs, for the authenticated operator. `keyed`: the command takes an
 * X-Idempotency-Key (unique per operator); commands a hot-spot writer runs take none, and refuse one rather than
 * ignore it.
 */
export function commandOf(req: Request, res: Response, keyed = true): CommandContext {
  const operator = res.locals.operator as string;
  const key = req.header('x-idempotency-key');
  if (key !== undefined) {
    if (!keyed)
      throw new HttpError(
        400,
        'OPS-REQ-001',
        'X-Idempotency-Key is not taken here: a pool change is not replayed by key; resend it with its X-Request-Id',
      );
    if (!isIdempotencyKey(key))
      throw new HttpError(
        400,
        'OPS-REQ-001',
        'X-Idempotency-Key must be 1 to 128 printable ASCII characters, no spaces',
      );
  }
  return commandContextOf(req, res, {
    actor: { operator },
    idempotency: key === undefined ? undefined : { scope: `operator:${operator}`, key },
  });
}

/** The operator API: authentication and JSON bodies, then each context's operator router, then 404. */
export function operatorApi(deps: {
  logger: Logger;
  operatorTokens: { name: string; token: string }[];
  routers: readonly Router[];
}): Router {
  const router = Router();
  router.use(operatorAuth(deps.operatorTokens, refuseOperator));
  router.use(operatorBody.parsers);
  for (const r of deps.routers) router.use(r);
  router.use(unknownEndpoint(shellErrors));
  router.use(interfaceErrorHandler(shellErrors, deps.logger));
  return router;
}
