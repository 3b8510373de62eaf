import { expect } from 'chai';
import { expectMatch, matching, satisfying } from '../../support/match.js';

const fails = (actual: unknown, expected: unknown) => expect(() => expectMatch(actual, expected)).to.throw();

describe('expectMatch (tests/support/match.ts)', () => {
  it('is an exact deep equality without markers: an extra key, a missing key, another value or length fails', () => {
    expectMatch({ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'x' }] });
    fails({ a: 1, b: 2 }, { a: 1 });
    fails({ a: 1 }, { a: 1, b: 2 });
    fails({ a: 1 }, { a: 2 });
    fails([1, 2], [1]);
    fails([1], [1, 2]);
    fails(null, {});
  });

  it('matching() compares only the keys it lists, at its level; exact again below unless marked', () => {
    expectMatch({ a: 1, b: 2, c: { d: 1 } }, matching({ a: 1 }));
    expectMatch({ a: { x: 1, y: 2 }, b: 2 }, matching({ a: matching({ x: 1 }) }));
    fails({ a: 1, b: 2 }, matching({ a: 2 }));
    fails({ b: 2 }, matching({ a: undefined, b: 2 }));
    fails({ a: { x: 1, y: 2 } }, matching({ a: { x: 1 } }));
    fails([{ a: 1 }], matching({ a: 1 }));
  });

  it('satisfying() and a RegExp accept what passes their test, anywhere', () => {
    expectMatch({ id: 7, message: 'only 3 left' }, { id: satisfying((v) => v === 7, 'seven'), message: /left/ });
    fails({ id: 8 }, { id: satisfying((v) => v === 7, 'seven') });
    fails({ message: 'sold out' }, { message: /left/ });
    fails({ message: 5 }, { message: /5/ });
  });

  it('names what differs in its failure, the markers by their description', () => {
    expect(() => expectMatch({ id: 8, keep: 1 }, matching({ id: satisfying(() => false, 'an even id') }), 'the body'))
      .to.throw(/the body/)
      .with.property('expected')
      .that.deep.equals({ id: '‹an even id›' });
  });
});
