/**
 * The operator API's envelope, error table, input parsing and command context (docs/shop-api.md, "Operator API");
 * its routes are in operator-router.ts.
 */
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { CommandContext } from '../../application/shared/command-context.js';
import type { AdminErrorCode } from '../../domain/shop/errors.js';
import { merchantIdPattern } from '../../domain/shop/merchant.js';
import { commandContextOf, isIdempotencyKey } from '../shared/command-context.js';
import { HttpError, type InterfaceErrors } from '../shared/interface-errors.js';
import { json, type HttpResult } from '../shared/route.js';
import { issueField, issueMessage } from '../shared/validation.js';

function send(res: Response, status: number, code: string, message: string, data: unknown): void {
  res.status(status).json({ code, message, data });
}

const notFound = [404, 'OPS-NOT-FOUND'] as const;
const conflict = [409, 'OPS-CONFLICT'] as const;
const invalid = [400, 'OPS-REQ-001'] as const;

/** Every code an operator command can be refused with, and what the operator API answers for it. */
export const operatorErrors: InterfaceErrors<AdminErrorCode> = {
  name: 'operator',
  table: {
    INVALID_INPUT: invalid,
    INVALID_POOL: invalid,
    POOL_NOT_FOUND: notFound,
    MERCHANT_NOT_FOUND: notFound,
    MERCHANT_EXISTS: conflict,
    API_KEY_NOT_FOUND: notFound,
    API_KEY_SHOWN_ONCE: conflict,
    CATEGORY_NOT_FOUND: notFound,
    CATEGORY_EXISTS: conflict,
    CAMPAIGN_NOT_FOUND: notFound,
    CAMPAIGN_EXISTS: conflict,
    CAMPAIGN_CODE_EXISTS: conflict,
    CAMPAIGN_ENDED: conflict,
    INVALID_STATUS_TRANSITION: conflict,
    BANNER_NOT_FOUND: notFound,
    IDEMPOTENCY_KEY_REUSED: conflict,
  },
  malformed: { invalid: 'OPS-REQ-001', tooLarge: 'OPS-REQ-413', unsupportedMediaType: 'OPS-REQ-415' },
  unknownEndpoint: 'OPS-NOT-FOUND',
  internal: { code: 'OPS-SYS-500', message: 'internal error' },
  send,
  detailsOf: (error) => (typeof error.details.field === 'string' ? { field: error.details.field } : null),
};

export const refuseOperator = (res: Response, message: string) => send(res, 401, 'OPS-AUTH-001', message, null);

export const ok = (data: unknown, status = 200): HttpResult =>
  json(status, { code: 'SUCCESS', message: 'Success', data });

/**
 * The JSON object body, parsed by `schema` into the typed command. `within` prefixes field names where the body is
 * one named part of the resource (the pricing endpoint's body is the pool's `pricing`).
 */
export function body<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, req: Request, within?: string): T {
  if (!req.is('application/json')) throw new HttpError(415, 'OPS-REQ-415', 'Content-Type must be application/json');
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))
    throw new HttpError(400, 'OPS-REQ-001', 'body must be a JSON object');
  const parsed = schema.safeParse(req.body, { path: within ? [within] : [] });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issueField(issue);
  throw new HttpError(400, 'OPS-REQ-001', issueMessage(issue, field), { field });
}

/** A positive integer path parameter. */
export function numericParam(req: Request, name: string): number {
  const raw = req.params[name] ?? '';
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) throw new HttpError(400, 'OPS-REQ-001', `${name} must be a positive integer`);
  return Number(raw);
}

export function merchantIdParam(req: Request): string {
  const merchantId = req.params.merchantId ?? '';
  if (!merchantIdPattern.test(merchantId))
    throw new HttpError(400, 'OPS-REQ-001', 'merchantId: must be 1 to 64 letters, digits, "_" or "-"', {
      field: 'merchantId',
    });
  return merchantId;
}

/**
 * The context of the command the request runs, for the authenticated operator. `keyed`: the command takes an
 * X-Idempotency-Key (unique per operator); the pool changes the flash-sale executor runs take none, and refuse one
 * rather than ignore it.
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
