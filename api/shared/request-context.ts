import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { logContext } from '../../infrastructure/shared/logger.js';

const printable = /^[\x21-\x7e]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane
 * token, a fresh UUID otherwise), echoes it back and puts it in the log
 * context of everything done while serving the request.
 */
export const requestContext: RequestHandler = (req, res, next) => {
  const given = req.header('x-request-id');
  const requestId = given && printable.test(given) ? given : randomUUID();
  res.locals.requestId = requestId;
  res.setHeader('X-Request-Id', requestId);
  logContext.run({ requestId, correlationId: requestId }, next);
};
