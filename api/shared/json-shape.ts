/**
 * The shape of JSON text, measured on its raw bytes before `JSON.parse` (docs/conventions.md, "Request bodies"):
 * its nesting depth, its object members and its array elements, in one pass that allocates nothing and stops at the
 * first limit passed. `JSON.parse` (and every walk after it) pays per member and per element, and most for many
 * distinct keys (V8 builds a hidden class for each new key), so a body of the size limit with the wrong shape costs
 * tens to hundreds of milliseconds; counting first bounds that cost by the interface's budget instead.
 */

/** What a body may hold: a depth for every interface, and member and element counts chosen per interface. */
export interface JsonBudget {
  /** Object members in the whole body (each `"key": value`), at most. */
  readonly members: number;
  /** Array elements in the whole body (every array's entries together), at most. */
  readonly elements: number;
}

export type JsonShapeProblem = 'depth' | 'members' | 'elements';

const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;
const comma = 0x2c;
const openArray = 0x5b;
const closeArray = 0x5d;
const openObject = 0x7b;
const closeObject = 0x7d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The first limit JSON text passes, or undefined: arrays and objects nested deeper than `maxDepth` (at most 32, the
 * width of the bit set that says which open level is an array), more than `budget.members` object members (a `:`
 * outside strings) or more than `budget.elements` array elements (an array's first value, then each `,` in it).
 * Reads UTF-8 bytes or UTF-16 units: in UTF-8 every byte of a multi-byte character is >= 0x80, so the ASCII
 * punctuation is found as bytes. Text that is not JSON answers whatever its punctuation says: JSON.parse refuses it
 * next.
 */
export function jsonShapeProblem(
  text: Uint8Array | string,
  maxDepth: number,
  budget: JsonBudget,
): JsonShapeProblem | undefined {
  const bytes = typeof text !== 'string';
  const n = text.length;
  let depth = 0;
  let arrays = 0; // bit d - 1 set: the open level d is an array
  let members = 0;
  let elements = 0;
  let firstOfArray = false; // just after '[': the next token that is not ']' is an element
  let inString = false;
  for (let i = 0; i < n; i++) {
    const c = bytes ? (text as Uint8Array)[i]! : (text as string).charCodeAt(i);
    if (inString) {
      if (c === backslash)
        i++; // escapes the next character, a quote among them
      else if (c === quote) inString = false;
      continue;
    }
    if (firstOfArray && !isSpace(c)) {
      firstOfArray = false;
      if (c !== closeArray && ++elements > budget.elements) return 'elements';
    }
    if (c === quote) inString = true;
    else if (c === colon) {
      if (++members > budget.members) return 'members';
    } else if (c === comma) {
      if (depth > 0 && (arrays >>> (depth - 1)) & 1 && ++elements > budget.elements) return 'elements';
    } else if (c === openArray) {
      if (++depth > maxDepth) return 'depth';
      arrays |= 1 << (depth - 1);
      firstOfArray = true;
    } else if (c === openObject) {
      if (++depth > maxDepth) return 'depth';
      arrays &= ~(1 << (depth - 1));
    } else if (c === closeArray || c === closeObject) depth--;
  }
  return undefined;
}
