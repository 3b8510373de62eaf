import type { Response } from 'express';

/** The shop interface's envelope: {code, message, data}; code SUCCESS on success. */
export function sendShopSuccess(res: Response, data: unknown, status = 200): void {
  res.status(status).json({ code: 'SUCCESS', message: 'Success', data });
}

/**
 * A success envelope already written as JSON (voucher-json.ts), sent as it is: none of res.send's content
 * negotiation, which costs a hot read about a tenth of its time (node leaves the body out of an answer to HEAD).
 */
export function sendShopJson(res: Response, body: Buffer): void {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
}

export function sendShopError(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ code, message, data: null });
}

/** An error already expressed in the shop's terms. */
export class ShopHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ShopHttpError';
  }
}
