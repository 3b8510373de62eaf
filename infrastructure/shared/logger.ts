import winston from 'winston';

import type { Logger as LoggerPort } from '../../application/shared/logger.js';

/** An error as a log line shows it: its own enumerable fields can be anything, so only these are kept. */
export function errorForLog(error: Error, depth = 0): Record<string, unknown> {
  const shown: Record<string, unknown> = { name: error.name, message: error.message, stack: error.stack };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') shown.code = code;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && depth < 3) shown.cause = errorForLog(cause, depth + 1);
  return shown;
}

/**
 * Errors passed as metadata (`{ err }`, `{ error }`) keep their message and stack: JSON.stringify shows an Error as
 * `{}` (its fields are not enumerable), which left failures in the logs without a word of what failed.
 */
const withErrors = winston.format((info) => {
  for (const [key, value] of Object.entries(info)) if (value instanceof Error) info[key] = errorForLog(value);
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
      withErrors(),
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      winston.format.json(),
    ),
    transports: [new winston.transports.Console({ silent: process.env.LOG_SILENT === 'true' })],
  });
}
