import { AsyncLocalStorage } from 'node:async_hooks';
import winston from 'winston';

import type { LogContext, LogContextRunner, Logger as LoggerPort } from '../../application/shared/logger.js';

export const logContext = new AsyncLocalStorage<LogContext>();

/** The LogContextRunner of this logger: the context reaches every line through AsyncLocalStorage. */
export const runInLogContext: LogContextRunner = (context, next) => logContext.run(context, next);

const withContext = winston.format((info) => {
  const ctx = logContext.getStore();
  if (ctx?.requestId && info.requestId === undefined) info.requestId = ctx.requestId;
  if (ctx?.correlationId && info.correlationId === undefined) info.correlationId = ctx.correlationId;
  return info;
});

export type Logger = winston.Logger;

// winston's logger is the port's implementation: this fails to compile if they drift apart.
const _implementsPort = (logger: Logger): LoggerPort => logger;
void _implementsPort;

export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return winston.createLogger({
    level,
    format: winston.format.combine(
      withContext(),
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      winston.format.json(),
    ),
    transports: [new winston.transports.Console({ silent: process.env.LOG_SILENT === 'true' })],
  });
}
