import { AsyncLocalStorage } from 'node:async_hooks';
import winston from 'winston';

/** Context carried by every log line written while serving one request. */
export interface LogContext {
  requestId?: string;
  correlationId?: string;
}

export const logContext = new AsyncLocalStorage<LogContext>();

const withContext = winston.format((info) => {
  const ctx = logContext.getStore();
  if (ctx?.requestId && info.requestId === undefined) info.requestId = ctx.requestId;
  if (ctx?.correlationId && info.correlationId === undefined) info.correlationId = ctx.correlationId;
  return info;
});

export type Logger = winston.Logger;

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
