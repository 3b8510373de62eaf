/**
 * The JSON text of chosen values of a request body, exactly as sent (docs/orders-fields.md, "Extension maps"): the seed's
 * extension maps are stored and answered byte for byte, which a parse and re-serialisation would not keep (key
 * order, number spelling, escapes). Walks text that JSON.parse accepted already, so it checks nothing itself; a key
 * given twice keeps its last value, as JSON.parse does.
 */

export type JsonPath = readonly (string | number)[];

/** A path written `order.items.#.attributes`: keys by name, `#` for any index of an array. */
export type JsonPathPattern = string;

/**
 * The raw text of every value at a path `patterns` names, by JSON.stringify(path). One pass over the text: only the
 * values along a pattern are looked into (their keys compared, with nothing allocated for a key no pattern names);
 * every other value, and a value found, is passed over by counting brackets, without a path or a call per value. So
 * the cost is linear in the text whatever its shape, and the descent is only as deep as the longest pattern.
 */
export function rawValues(text: string, patterns: readonly JsonPathPattern[]): Map<string, string> {
  const found = new Map<string, string>();
  let i = 0;
  const space = () => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++i));
  };
  /** Past the string at i (its opening quote). */
  const skipString = () => {
    for (i++; i < text.length;) {
      const c = text.charCodeAt(i);
      i += c === 0x5c ? 2 : 1;
      if (c === 0x22) return;
    }
  };
  /** Past the value at i, whatever it holds: brackets counted outside strings, nothing kept. */
  const skipValue = () => {
    let depth = 0;
    do {
      space();
      const c = text.charCodeAt(i);
      if (c === 0x22) skipString();
      else if (c === 0x5b || c === 0x7b) {
        depth++;
        i++;
      } else if (c === 0x5d || c === 0x7d) {
        depth--;
        i++;
      } else if (c === 0x2c || c === 0x3a) i++;
      else while (i < text.length && !',:]} \t\n\r'.includes(text[i]!)) i++;
    } while (depth > 0 && i < text.length);
  };
  /** Whether the key whose text (quotes included) is text[start, end) is `name`: compared in place unless escaped. */
  const keyIs = (start: number, end: number, name: string): boolean => {
    for (let j = start + 1; j < end - 1; j++)
      if (text.charCodeAt(j) === 0x5c) return JSON.parse(text.slice(start, end)) === name;
    return end - start - 2 === name.length && text.startsWith(name, start + 1);
  };
  const split = patterns.map((p) => p.split('.'));
  const none: string[][] = [];
  /**
   * The value at i, at `path`, with the patterns that run through it (each longer than the path or ending there).
   * Recursion as deep as the longest pattern at most: past it every value is skipped.
   */
  const value = (path: (string | number)[], live: string[][]): void => {
    space();
    const start = i;
    if (live.some((p) => p.length === path.length)) {
      skipValue();
      found.set(JSON.stringify(path), text.slice(start, i));
      return;
    }
    const c = text.charCodeAt(i);
    if (live.length === 0 || (c !== 0x7b && c !== 0x5b)) return skipValue();
    const depth = path.length;
    i++;
    space();
    if (text.charCodeAt(i) === (c === 0x7b ? 0x7d : 0x5d)) {
      i++;
      return;
    }
    for (let index = 0; ; index++) {
      space();
      let step: string | number = index;
      let next: string[][];
      if (c === 0x7b) {
        const keyStart = i;
        skipString();
        const keyEnd = i;
        space();
        i++; // ':'
        const named = (p: string[]) => p[depth] !== '#' && keyIs(keyStart, keyEnd, p[depth]!);
        next = live.some(named) ? live.filter(named) : none;
        if (next.length) step = next[0]![depth]!;
      } else next = live.filter((p) => p[depth] === '#');
      if (next.length) value([...path, step], next);
      else skipValue();
      space();
      if (text.charCodeAt(i++) !== 0x2c) return; // else ','
    }
  };
  value([], split);
  return found;
}
