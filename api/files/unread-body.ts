/**
 * Answering before the body is read (docs/files.md, "Refusals"): a refused upload (no token, too large, wrong type)
 * is answered at once, without reading the rest of its body. The answer says `Connection: close`; what the client
 * still sends is discarded for a short grace (so that it reads the answer rather than a reset), then the connection
 * is cut.
 */
import type { RequestHandler, Response } from 'express';

/** How long a refused request's remaining body is discarded before its connection is cut. */
const graceMs = 2000;

/** Marks an answer given before the request's body ended: the connection closes after it. Call before writing. */
export function closeIfUnread(res: Response): void {
  if (!res.req.complete && !res.headersSent) res.setHeader('Connection', 'close');
}

/** Mount first: once an answer is out, a body still unread is discarded briefly, then its connection cut. */
export const boundUnreadBody: RequestHandler = (req, res, next) => {
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    req.unpipe();
    req.resume();
    const timer = setTimeout(() => req.socket?.destroy(), graceMs);
    timer.unref();
    req.once('end', () => clearTimeout(timer));
  });
  next();
};
