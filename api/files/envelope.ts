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
  res.status(status).json({ code: Number(code), message, data: data ?? null });
}
