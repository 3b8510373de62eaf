/**
 * Answering before the body is read (docs/operations.md, "Bodies answered early"; docs/files.md, "Refusals"): a
 * request refused before its body ended (no credentials, an upload too large or of the wrong type) is answered at
 * once, and what the client still sends is then read and discarded, up to a bound, so that a client that sends its
 * whole body before it reads (curl, most SDKs) reads the answer rather than a reset. Past the bound, in bytes or in
 * time, the connection is cut. Mounted first in every app (api/shared/http-app.ts).
 *
 * The answer keeps the connection: `Connection: close` would make Node destroy the socket as soon as the answer is
 * written, and the kernel then resets the connection on the bytes still arriving (a 5 MiB upload refused with 401
 * saw EPIPE 7 to 15 ms after the answer, before 2026-11-28). Once the body is drained the connection serves the next
 * request as any other.
 */
import type { RequestHandler } from 'express';

/** The most of a refused request's remaining body that is read and discarded: above any refused photo or clip. */
export const drainMaxBytes = 32 * 1024 * 1024;
/** How long after the answer a refused request's body may take to arrive before its connection is cut. */
export const drainMaxMs = 15_000;

/** Mount first: once an answer is out, a body still unread is drained up to the bounds, else its connection cut. */
export const boundUnreadBody: RequestHandler = (req, res, next) => {
  // Before Node's own listener: it dumps a body nobody reads, dropping its bytes uncounted (so unbounded).
  res.prependOnceListener('finish', () => {
    if (req.complete || req.destroyed) return;
    req.unpipe();
    const cut = () => req.socket?.destroy();
    const timer = setTimeout(cut, drainMaxMs);
    timer.unref();
    let drained = 0;
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > drainMaxBytes) {
        clearTimeout(timer);
        cut();
      }
    });
    req.once('end', () => clearTimeout(timer));
    req.once('close', () => clearTimeout(timer));
    req.resume();
  });
  next();
};
