/**
 * The logging port: what every layer above the infrastructure may log through (infrastructure/shared/logger.ts
 * implements it with winston). Never pass secrets in `meta`.
 */
export interface Logger {
  error(message: string, meta?: Record<string, unknown>): unknown;
  warn(message: string, meta?: Record<string, unknown>): unknown;
  info(message: string, meta?: Record<string, unknown>): unknown;
  http(message: string, meta?: Record<string, unknown>): unknown;
  debug(message: string, meta?: Record<string, unknown>): unknown;
  isLevelEnabled(level: string): boolean;
}

/** What every log line written while serving one request (or handling one message) carries. */
export interface LogContext {
  requestId?: string;
  correlationId?: string;
}

/** Runs `next` with `context` on every log line written on its behalf. */
export type LogContextRunner = (context: LogContext, next: () => void) => void;
