import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { LogContext } from '../../application/shared/logger.js';

/** A header value fit to name things and to log: printable ASCII without spaces, 1 to 128 characters. */
export const saneToken = /^[\x21-\x7e]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane
 * token, a fresh UUID otherwise), echoes it back and keeps it in res.locals
 * with the correlation id (the caller's X-Correlation-Id when it is a sane
 * token, else the request id), for the log lines written for the request
 * (`logContextOf`) and the command context.
 */
export const requestContext: RequestHandler = (req, res, next) => {
  const given = req.header('x-request-id');
  const requestId = given && saneToken.test(given) ? given : randomUUID();
  const correlation = req.header('x-correlation-id');
  const correlationId = correlation && saneToken.test(correlation) ? correlation : requestId;
  res.locals.requestId = requestId;
  res.locals.correlationId = correlationId;
  res.setHeader('X-Request-Id', requestId);
  next();
};

/** What a log line written for this request carries (application/shared/logger.ts, LogContext). */
export function logContextOf(res: Response): LogContext {
  const { requestId, correlationId } = res.locals as LogContext;
  return { requestId, correlationId };
}
