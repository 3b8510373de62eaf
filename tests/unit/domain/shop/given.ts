import { expect } from 'chai';
import { fold, type Decider } from '../../../../domain/shared/decider.js';
import { DomainError } from '../../../../domain/shared/errors.js';

/** given(history).when(command).then(events) / .thenRejects(code), for a decider. */
export function scenario<C, S, E>(decider: Decider<C, S, E>) {
  return (history: E[]) => ({
    when(command: C) {
      const state = fold(decider, history);
      return {
        then(expected: E[]) {
          expect(decider.decide(command, state)).to.deep.equal(expected);
        },
        thenRejects(code: string, details?: Record<string, unknown>): DomainError {
          let error: unknown;
          try {
            decider.decide(command, state);
          } catch (e) {
            error = e;
          }
          expect(error, 'expected a DomainError').to.be.instanceOf(DomainError);
          const domainError = error as DomainError;
          expect(domainError.code).to.equal(code);
          if (details) expect(domainError.details).to.include(details);
          return domainError;
        },
      };
    },
  });
}
