/** The shop interface's envelope (docs/shop-api.md, "Envelope"): {code, message, data}; code SUCCESS on success. */
import type { Response } from 'express';
import { json, type HttpResult } from '../shared/route.js';

export const shopOk = (data: unknown, status = 200): HttpResult =>
  json(status, { code: 'SUCCESS', message: 'Success', data });

/** A refusal: data is always null (api/shop/error-mapping.ts writes every one). */
export function sendShopError(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ code, message, data: null });
}
