/**
 * A rule of the domain was broken. `code` is a domain-level reason (not an
 * HTTP or interface code); each API module maps it to its own interface's
 * status and error code.
 */
export class DomainError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}
