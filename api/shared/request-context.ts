import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { LogContextRunner } from '../../application/shared/logger.js';

/** A header value fit to name things and to log: printable ASCII without spaces, 1 to 128 characters. */
export const saneToken = /^[\x21-\x7e]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane
 * token, a fresh UUID otherwise), echoes it back and puts it in the log
 * context of everything done while serving the request, with the correlation
 * id: the caller's X-Correlation-Id when it is a sane token, else the request id.
 */
export const requestContext =
  (runInLogContext: LogContextRunner): RequestHandler =>
  (req, res, next) => {
    const given = req.header('x-request-id');
    const requestId = given && saneToken.test(given) ? given : randomUUID();
    const correlation = req.header('x-correlation-id');
    const correlationId = correlation && saneToken.test(correlation) ? correlation : requestId;
    res.locals.requestId = requestId;
    res.locals.correlationId = correlationId;
    res.setHeader('X-Request-Id', requestId);
    runInLogContext({ requestId, correlationId }, next);
  };
