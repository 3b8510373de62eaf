/**
 * A rule of the domain was broken. `code` is a domain-level reason (not an
 * HTTP or interface code); each API module maps it to its own interface's
 * status and error code.
 *
 * A refusal is an expected answer, not a fault: no stack trace is captured
 * (capturing one was a tenth of a flash-sale refusal's own work,
 * docs/batched-stream-writer.md, "Benchmark"). `stack` holds the name and
 * message; with `code`, that is all a log of an unmapped one needs.
 */
export class DomainError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}
// On the prototype: an own `name` on every instance cost as much again.
Object.defineProperty(DomainError.prototype, 'name', { value: 'DomainError', writable: true, configurable: true });

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}
