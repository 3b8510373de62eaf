/**
 * The count budget of a JSON body (docs/conventions.md, "Request bodies"): `jsonShapeProblem` counts object members
 * and array elements on the raw text, in the same pass as the depth, exactly as the parsed value holds them.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { parseJsonText, RequestBodyError } from '../../../api/shared/json-body.js';
import { jsonShapeProblem } from '../../../api/shared/json-shape.js';

/** Members and elements of a parsed value, counted without recursion. */
function countsOf(value: unknown): { members: number; elements: number } {
  let members = 0;
  let elements = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) elements += v.length;
    else members += Object.keys(v).length;
    stack.push(...Object.values(v as object));
  }
  return { members, elements };
}

const unlimited = { members: Infinity, elements: Infinity };

describe('hostile bodies: the count budget (jsonShapeProblem)', () => {
  it('refuses exactly the bodies past the member or the element budget, over generated JSON, as text and bytes', () => {
    fc.assert(
      fc.property(
        // Spaces and line breaks between tokens, as a client may send them.
        fc.jsonValue({ maxDepth: 6 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        (value, pretty, members, elements) => {
          const text = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
          const counts = countsOf(value);
          const budget = { members, elements };
          const expected = counts.members > members ? 'members' : counts.elements > elements ? 'elements' : undefined;
          const answer = jsonShapeProblem(text, 32, budget);
          // The first limit passed in reading order: when both are passed, either may come first.
          if (counts.members > members && counts.elements > elements)
            expect(answer, text).to.be.oneOf(['members', 'elements']);
          else expect(answer, text).to.equal(expected);
          expect(jsonShapeProblem(Buffer.from(text, 'utf8'), 32, budget), text).to.equal(answer);
          expect(jsonShapeProblem(text, 32, counts), text).to.equal(undefined);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('counts no colon, comma or bracket inside strings, escaped quotes and multi-byte characters included', () => {
    const text = JSON.stringify({ 'a:b,c': 'x:[1,2],{"y":3}', b: ['say \\":,"', 'ẩm: thực, 😀'] });
    expect(jsonShapeProblem(text, 32, { members: 2, elements: 2 })).to.equal(undefined);
    expect(jsonShapeProblem(Buffer.from(text), 32, { members: 1, elements: 2 })).to.equal('members');
    expect(jsonShapeProblem(Buffer.from(text), 32, { members: 2, elements: 1 })).to.equal('elements');
  });

  it('counts empty arrays and objects as nothing, an array of one as one, and the depth before the counts', () => {
    expect(jsonShapeProblem('[[], {}, [ ], { }]', 32, { members: 0, elements: 4 })).to.equal(undefined);
    expect(jsonShapeProblem('[[], {}, [ ], { }]', 32, { members: 0, elements: 3 })).to.equal('elements');
    expect(jsonShapeProblem('[ 1 ]', 32, { members: 0, elements: 0 })).to.equal('elements');
    expect(jsonShapeProblem('[[[1]]]', 2, unlimited)).to.equal('depth');
  });

  it('stops at the first member past the budget: a body of 80,000 distinct keys is refused before JSON.parse', () => {
    const wide = `{${Array.from({ length: 80_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(jsonShapeProblem(wide, 32, { members: 20_000, elements: 20_000 })).to.equal('members');
    expect(() => parseJsonText(wide, { members: 20_000, elements: 20_000 }))
      .to.throw(RequestBodyError, 'more than 20000 object members')
      .with.property('problem', 'invalid');
    const many = `[${Array.from({ length: 30_000 }, () => '{}').join(',')}]`;
    expect(() => parseJsonText(many, { members: 20_000, elements: 20_000 })).to.throw(
      RequestBodyError,
      'more than 20000 array elements',
    );
  });
});
