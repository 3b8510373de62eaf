/**
 * The files interface's envelope (docs/files.md, "Answers and codes"): `{code, message, data}` with a numeric code,
 * 0 on success, in the payment hub's style.
 */
import type { Response } from 'express';
import { json, type HttpResult } from '../shared/route.js';

export const filesOk = (data: unknown, status = 200, headers?: Record<string, string>): HttpResult =>
  json(status, { code: 0, message: 'Success', data }, headers);

/** A refusal; `code` is one of the table's (digits), sent as a number. */
export function sendFilesError(res: Response, status: number, code: string, message: string, data: unknown): void {
  // A quota's refusal says when to come back (an HTTP date: RFC 9110 §10.2.3), as the gateway's 429 does in seconds.
  const resetsAt = (data as { resetsAt?: unknown } | null)?.resetsAt;
  if (status === 429 && typeof resetsAt === 'string' && !res.headersSent)
    res.setHeader('Retry-After', new Date(resetsAt).toUTCString());
  res.status(status).json({ code: Number(code), message, data: data ?? null });
}
