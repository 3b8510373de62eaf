/**
 * Expected values that are exact unless marked: `matching({...})` checks only the keys it lists, `satisfying(test)`
 * any value passing `test`, a RegExp any string it matches. Failures show chai's diff of the parts compared.
 */
import { expect } from 'chai';

class Matching {
  constructor(readonly shape: Record<string, unknown>) {}
}

class Satisfying {
  constructor(
    readonly test: (value: unknown) => boolean,
    readonly description: string,
  ) {}
}

/** What `matching` and `satisfying` answer: an expected value that is not compared by equality. */
export type Marker = Matching | Satisfying;

/** An object with at least these keys, each matched as given (exact unless marked itself); others are ignored. */
export function matching(shape: Record<string, unknown>): Marker {
  return new Matching(shape);
}

/** Any value `test` accepts; `description` stands for it in a failure's diff. */
export function satisfying(test: (value: unknown) => boolean, description: string): Marker {
  return new Satisfying(test, description);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  !(v instanceof Matching) &&
  !(v instanceof Satisfying) &&
  !(v instanceof RegExp);

/** `expected` as a plain value: markers replaced by what they stand for. */
function plain(expected: unknown): unknown {
  if (expected instanceof Matching) return plain(expected.shape);
  if (expected instanceof Satisfying) return `‹${expected.description}›`;
  if (expected instanceof RegExp) return String(expected);
  if (Array.isArray(expected)) return expected.map(plain);
  if (isRecord(expected)) return Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, plain(v)]));
  return expected;
}

/**
 * The actual value cut to what `expected` compares, and `expected` as a plain value, so that a deep equality of the
 * two is the match and its diff shows only what differs.
 */
function align(actual: unknown, expected: unknown): [unknown, unknown] {
  if (expected instanceof RegExp)
    return typeof actual === 'string' && expected.test(actual) ? [actual, actual] : [actual, String(expected)];
  if (expected instanceof Satisfying) return expected.test(actual) ? [actual, actual] : [actual, plain(expected)];
  const partial = expected instanceof Matching;
  const shape = expected instanceof Matching ? expected.shape : expected;
  if (Array.isArray(shape)) {
    if (!Array.isArray(actual)) return [actual, plain(shape)];
    const pairs = actual.map((a, i) => (i < shape.length ? align(a, shape[i]) : [a, undefined]));
    return [
      pairs.map((p) => p[0]),
      [...pairs.slice(0, shape.length).map((p) => p[1]), ...shape.slice(actual.length).map(plain)],
    ];
  }
  if (isRecord(shape)) {
    if (!isRecord(actual)) return [actual, plain(shape)];
    const cut: Record<string, unknown> = partial ? {} : { ...actual };
    const wanted: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(shape)) {
      if (key in actual) [cut[key], wanted[key]] = align(actual[key], value);
      else wanted[key] = plain(value);
    }
    return [cut, wanted];
  }
  return [actual, shape];
}

/** Asserts that `actual` matches `expected` (see the file's header). */
export function expectMatch(actual: unknown, expected: unknown, message?: string): void {
  const [cut, wanted] = align(actual, expected);
  expect(cut, message).to.deep.equal(wanted);
}
