/**
 * The order view's envelope (docs/orders-responses.md, "Answers and codes"): `{code, message, data}` with a numeric code, 0 on
 * success, as the seed's other envelopes of document 002 (user info) have it.
 */
import type { Response } from 'express';
import { json, type HttpResult } from '../shared/route.js';

export const ordersOk = (data: unknown, status = 200): HttpResult =>
  json(status, { code: 0, message: 'Success', data });

/** A refusal; `code` is one of the table's (digits), sent as a number. */
export function sendOrdersError(res: Response, status: number, code: string, message: string, data: unknown): void {
  res.status(status).json({ code: Number(code), message, data: data ?? null });
}
