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

/**
 * What the log lines written for one request carry: passed along explicitly (api/shared/request-context.ts,
 * `logContextOf`), not through AsyncLocalStorage, whose promise hooks run for every promise of the process on
 * Node 20 (docs/operations.md, "Logs").
 */
export interface LogContext {
  requestId?: string;
  correlationId?: string;
}
