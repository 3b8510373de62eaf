/**
 * Given/when/then for any context's decider: given(history).when(command).then(events) / .thenRejects(code).
 * How to write one: docs/testing.md.
 */
import { expect } from 'chai';
import { fold, type Decider } from '../../domain/shared/decider.js';
import { DomainError } from '../../domain/shared/errors.js';

/** Freezes `value` and everything it holds, so a decider that mutates its input throws instead of passing. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * `const given = scenario(decider)`, then `given(history).when(command).then(expected)`: the history is folded
 * into state with `evolve` from `initialState`, and `decide(command, state)` must answer exactly `expected`, or
 * throw a DomainError with `code` (and `details` including those given) for `thenRejects`. The history and the
 * state are frozen: deciders are pure, and one that mutates either fails its test.
 */
export function scenario<C, S, E>(decider: Decider<C, S, E>) {
  return (history: E[]) => ({
    when(command: C) {
      const decide = () => decider.decide(command, deepFreeze(fold(decider, deepFreeze(structuredClone(history)))));
      return {
        then(expected: E[]) {
          expect(decide()).to.deep.equal(expected);
        },
        thenRejects(code: string, details?: Record<string, unknown>): DomainError {
          let decided: E[] | undefined;
          let error: unknown;
          try {
            decided = decide();
          } catch (e) {
            error = e;
          }
          expect(error, `expected a DomainError, decided ${JSON.stringify(decided)}`).to.be.instanceOf(DomainError);
          const domainError = error as DomainError;
          expect(domainError.code).to.equal(code);
          if (details) expect(domainError.details).to.include(details);
          return domainError;
        },
      };
    },
  });
}
