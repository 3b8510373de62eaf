import { OpenApiGeneratorV3, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { expect } from 'chai';
import fc from 'fast-check';
import { z } from 'zod';
import { characters } from '../../../domain/shared/characters.js';
import { inCharacters, text } from '../../../api/shared/input-schemas.js';

/** Text lengths in characters (code points): domain/shared/characters.ts and inCharacters (docs/conventions.md). */
describe('characters (a length in code points)', () => {
  it('counts an emoji, a character beyond U+FFFF, as one; Vietnamese and ASCII as String.length does', () => {
    expect(characters('😀')).to.equal(1);
    expect(characters('ĐH-🛵-0002')).to.equal(9); // 10 UTF-16 units, 13 UTF-8 bytes
    expect(characters('Nguyễn Văn An')).to.equal('Nguyễn Văn An'.length);
    expect(characters('')).to.equal(0);
  });

  it('counts a lone surrogate as one, wherever it stands', () => {
    expect(characters('\ud83d')).to.equal(1);
    expect(characters('a\ude00b')).to.equal(3);
    expect(characters('\ude00\ud83d')).to.equal(2);
    expect(characters('\ud83d\ud83d\ude00')).to.equal(2);
  });

  it('given any string, answers what iterating its code points answers', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: fc.constantFrom('\ud83d', '\ude00', 'a') }),
        (a, b) => {
          expect(characters(a)).to.equal([...a].length);
          expect(characters(b)).to.equal([...b].length);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('inCharacters (zod string lengths in code points)', () => {
  const named = inCharacters(z.string().trim().min(2, 'too short').max(4, 'too long'));
  const plain = inCharacters(z.string().max(3));

  it('takes emoji up to the limit and refuses one more, with the check’s own message', () => {
    expect(named.safeParse('😀😀😀😀').success).to.equal(true);
    const refused = named.safeParse('😀😀😀😀😀');
    expect(refused.success).to.equal(false);
    expect(refused.error!.issues).to.deep.equal([
      { code: 'too_big', type: 'string', maximum: 4, inclusive: true, exact: false, message: 'too long', path: [] },
    ]);
  });

  it('counts the minimum in code points too: one emoji is one character, not two', () => {
    expect(named.safeParse('😀').error!.issues[0]).to.include({ code: 'too_small', minimum: 2, message: 'too short' });
    expect(named.safeParse('😀😀').success).to.equal(true);
  });

  it('counts after the trim, as zod’s checks do', () => {
    expect(named.safeParse('  😀😀😀😀  ')).to.deep.equal({ success: true, data: '😀😀😀😀' });
  });

  it('keeps zod’s default message when the check had none', () => {
    expect(plain.safeParse('😀😀😀😀').error!.issues[0]!.message).to.equal(
      'String must contain at most 3 character(s)',
    );
  });

  it('given any ASCII string, answers exactly what the plain zod schema answers (value and issues)', () => {
    const schemas = [
      z.string().trim().min(2, 'too short').max(4, 'too long'),
      z.string().min(1).max(3),
      z.string().length(3, 'three'),
      z
        .string()
        .max(5)
        .regex(/^[a-c]*$/, 'a to c'),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.string({ maxLength: 8 }), (schema, value) => {
        const expected = schema.safeParse(value);
        const actual = inCharacters(schema).safeParse(value);
        expect(actual.success).to.equal(expected.success);
        if (expected.success) expect(actual.data).to.equal(expected.data);
        else expect(actual.error!.issues).to.have.deep.members(expected.error.issues);
      }),
      { numRuns: 1000 },
    );
  });

  it('given any string, refuses it exactly when its code points are out of bounds', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'Đ', '😀', '\ud83d') }), (value) => {
        const n = [...value.trim()].length;
        expect(named.safeParse(value).success, JSON.stringify(value)).to.equal(n >= 2 && n <= 4);
        expect(text(0, 3).safeParse(value).success).to.equal(n <= 3);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps minLength and maxLength (and the description) in the OpenAPI document', () => {
    const registry = new OpenAPIRegistry();
    registry.register('Named', z.object({ name: inCharacters(z.string().min(1).max(64)).describe('a name') }));
    const doc = new OpenApiGeneratorV3(registry.definitions).generateDocument({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
    });
    expect(doc.components!.schemas!.Named).to.deep.equal({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 64, description: 'a name' } },
      required: ['name'],
    });
  });
});
