/**
 * The walks over a request body that no nesting can break (docs/conventions.md, "Request bodies"): the depth scan of
 * api/shared/json-body.ts, the control-character walk of api/shared/control-characters.ts and the order webhook's raw
 * values (api/orders/raw-json.ts), each over bodies far deeper than any stack (100,000 levels).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { controlCharacterField } from '../../../api/shared/control-characters.js';
import { jsonNestedDeeperThan, maxJsonDepth, parseJsonText, RequestBodyError } from '../../../api/shared/json-body.js';
import { rawValues } from '../../../api/orders/raw-json.js';
import { extensionPaths } from '../../../api/orders/webhook-schemas.js';

const deep = 100_000;
const roomy = { members: 1_000, elements: 1_000 };
/** `[[[...value...]]]`, `levels` deep, as text. */
const nestedArrays = (levels: number, value = '"x"') => '['.repeat(levels) + value + ']'.repeat(levels);
/** `{"a":{"a":...value...}}`, `levels` deep, as text. */
const nestedObjects = (levels: number, value = '"x"') => '{"a":'.repeat(levels) + value + '}'.repeat(levels);
/** The depth of a JSON value, counted without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

describe('hostile bodies: the walks over a body', () => {
  describe('jsonNestedDeeperThan (the depth scan)', () => {
    it('answers exactly whether the depth passes the limit, over generated JSON, as text and as UTF-8 bytes', () => {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, max) => {
          const text = JSON.stringify(value);
          const expected = depthOf(value) > max;
          expect(jsonNestedDeeperThan(text, max), text).to.equal(expected);
          expect(jsonNestedDeeperThan(Buffer.from(text, 'utf8'), max), text).to.equal(expected);
        }),
        { numRuns: 2000 },
      );
    });

    it('does not count brackets inside strings, escaped quotes included', () => {
      const text = JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[\\"', c: ['"]]]]"', 'ẩm [thực] 😀'] });
      expect(jsonNestedDeeperThan(text, 2)).to.equal(false);
      expect(jsonNestedDeeperThan(text, 1)).to.equal(true);
    });

    it(`finds ${deep.toLocaleString('en')} levels of arrays or objects deeper than the limit`, () => {
      expect(jsonNestedDeeperThan(nestedArrays(deep), maxJsonDepth)).to.equal(true);
      expect(jsonNestedDeeperThan(Buffer.from(nestedObjects(deep)), maxJsonDepth)).to.equal(true);
      expect(jsonNestedDeeperThan(nestedArrays(maxJsonDepth), maxJsonDepth)).to.equal(false);
      expect(jsonNestedDeeperThan(nestedArrays(maxJsonDepth + 1), maxJsonDepth)).to.equal(true);
    });
  });

  describe('parseJsonText (a body a handler reads itself)', () => {
    it('parses JSON within the depth and refuses deeper, malformed or control characters as invalid input', () => {
      expect(parseJsonText(nestedObjects(maxJsonDepth - 1, '[1]'), roomy)).to.be.an('object');
      for (const text of [nestedArrays(deep), nestedObjects(maxJsonDepth + 1), '{"a":', '\u0000']) {
        expect(() => parseJsonText(text, roomy), text.slice(0, 20))
          .to.throw(RequestBodyError)
          .with.property('problem', 'invalid');
      }
      expect(() => parseJsonText('{"a\\u0000":1}', roomy)).to.throw('a\u0000 contains a control character');
    });
  });

  describe('controlCharacterField (iterative)', () => {
    it(`walks ${deep.toLocaleString('en')} levels of arrays and of objects without overflowing the stack`, () => {
      expect(controlCharacterField(JSON.parse(nestedArrays(deep)), 'body')).to.equal(undefined);
      expect(controlCharacterField(JSON.parse(nestedObjects(deep)), '')).to.equal(undefined);
      const named = controlCharacterField(JSON.parse(nestedArrays(deep, '"\\u0000"')), 'body')!;
      expect(named).to.equal('body' + '[0]'.repeat(deep));
      const key = controlCharacterField(JSON.parse(nestedObjects(deep, '{"k\\u0001":1}')), '')!;
      expect(key).to.equal(Array(deep).fill('a').join('.') + '.k\u0001');
    });

    it('names the first refused field in document order, a key before its value, as the recursive walk did', () => {
      expect(controlCharacterField({ a: ['ok', { b: 'ok' }], c: [{ d: '\u0000' }], e: '\u0001' }, '')).to.equal(
        'c[0].d',
      );
      expect(controlCharacterField({ 'k\u0000': { x: '\u0001' } }, '')).to.equal('k\u0000');
      expect(controlCharacterField([[], [[1, '\u0007']], '\u0008'], 'body')).to.equal('body[1][0][1]');
      expect(controlCharacterField(Buffer.from('\u0000'), 'body')).to.equal(undefined);
    });

    it('agrees with a reference walk over generated values: the first refused field or none', () => {
      const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 4 }), fc.constantFrom('a', '\u0000', '\ud800'));
      const value = fc.letrec((tie) => ({
        node: fc.oneof(
          { depthSize: 'small' },
          text,
          fc.integer(),
          fc.constant(null),
          fc.array(tie('node'), { maxLength: 4 }),
          fc.dictionary(text, tie('node'), { maxKeys: 4 }),
        ),
      })).node;
      fc.assert(
        fc.property(value, (v) => {
          expect(controlCharacterField(v, 'body')).to.equal(reference(v, 'body'));
        }),
        { numRuns: 3000 },
      );
    });
  });

  describe('rawValues (the order webhook walk: linear, only along the extension paths)', () => {
    it(`passes over ${deep.toLocaleString('en')} levels of arrays and objects, inside or outside a map`, () => {
      const text =
        `{"junk":${nestedArrays(deep)},"order":{"junk":${nestedObjects(deep)},` +
        `"metadata":${nestedObjects(deep)},"items":[{"attributes":${nestedArrays(deep)}}]}}`;
      const found = rawValues(text, extensionPaths);
      expect([...found.keys()]).to.have.members(['["order","metadata"]', '["order","items",0,"attributes"]']);
      expect(found.get('["order","metadata"]')).to.equal(nestedObjects(deep));
      expect(found.get('["order","items",0,"attributes"]')).to.equal(nestedArrays(deep));
    });

    it('answers the raw text of each extension map, spacing, spelling and escapes kept; the last of a repeated key', () => {
      const text =
        '{ "order" : { "items" : [ { "attributes" : { "b" : 1.50e1 } } , {"name":"x"}, { "sub_items": [ {"attributes":{ }} ] } ],' +
        ' "meta\\u0064ata" : {"x":"a\\"}"} , "metadata":{"y":[1, 2]}, "fees": [] } }';
      expect(Object.fromEntries(rawValues(text, extensionPaths))).to.deep.equal({
        '["order","items",0,"attributes"]': '{ "b" : 1.50e1 }',
        '["order","items",2,"sub_items",0,"attributes"]': '{ }',
        '["order","metadata"]': '{"y":[1, 2]}',
      });
    });

    it('finds exactly the extension maps JSON.parse sees, over generated bodies', () => {
      const map = fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 });
      const line = fc.record(
        {
          attributes: map,
          name: fc.string(),
          sub_items: fc.array(fc.record({ attributes: map }, { requiredKeys: [] })),
        },
        { requiredKeys: [] },
      );
      const body = fc.record({
        order: fc.record(
          {
            metadata: map,
            attributes: map,
            items: fc.array(line, { maxLength: 3 }),
            fees: fc.array(fc.record({ metadata: map }, { requiredKeys: [] }), { maxLength: 2 }),
            promotion_infos: fc.array(fc.record({ extra_data: map }, { requiredKeys: [] }), { maxLength: 2 }),
            other: fc.jsonValue({ maxDepth: 3 }),
          },
          { requiredKeys: [] },
        ),
        other: fc.jsonValue({ maxDepth: 3 }),
      });
      fc.assert(
        fc.property(body, fc.boolean(), (value, pretty) => {
          const text = JSON.stringify(value, null, pretty ? 2 : undefined);
          const expected = new Map<string, unknown>();
          const parsed = JSON.parse(text) as typeof value;
          const o = parsed.order;
          if (o.metadata) expected.set('["order","metadata"]', o.metadata);
          if (o.attributes) expected.set('["order","attributes"]', o.attributes);
          o.items?.forEach((it, i) => {
            if (it.attributes) expected.set(`["order","items",${i},"attributes"]`, it.attributes);
            it.sub_items?.forEach((sub, j) => {
              if (sub.attributes) expected.set(`["order","items",${i},"sub_items",${j},"attributes"]`, sub.attributes);
            });
          });
          o.fees?.forEach((f, i) => f.metadata && expected.set(`["order","fees",${i},"metadata"]`, f.metadata));
          o.promotion_infos?.forEach(
            (p, i) => p.extra_data && expected.set(`["order","promotion_infos",${i},"extra_data"]`, p.extra_data),
          );
          const found = rawValues(text, extensionPaths);
          expect([...found.keys()].sort()).to.deep.equal([...expected.keys()].sort());
          for (const [path, raw] of found) expect(JSON.parse(raw), path).to.deep.equal(expected.get(path));
        }),
        { numRuns: 1000 },
      );
    });
  });
});

/** The recursive walk control-characters.ts had, kept here as the reference for the order of its answer. */
function reference(value: unknown, field: string): string | undefined {
  const refused =
    // eslint-disable-next-line no-control-regex -- the same characters as the walker's
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  const walk = (v: unknown): (string | number)[] | undefined => {
    if (typeof v === 'string') return refused.test(v) ? [] : undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const p = walk(v[i]);
        if (p) return [i, ...p];
      }
      return undefined;
    }
    if (v !== null && typeof v === 'object')
      for (const [k, child] of Object.entries(v)) {
        if (refused.test(k)) return [k];
        const p = walk(child);
        if (p) return [k, ...p];
      }
    return undefined;
  };
  const path = walk(value);
  return path?.reduce<string>((n, p) => (typeof p === 'number' ? `${n}[${p}]` : n ? `${n}.${p}` : p), field);
}
