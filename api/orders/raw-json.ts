/**
 * The JSON text of chosen values of a request body, exactly as sent (docs/orders-fields.md, "Extension maps"): the seed's
 * extension maps are stored and answered byte for byte, which a parse and re-serialisation would not keep (key
 * order, number spelling, escapes). Walks text that JSON.parse accepted already, so it checks nothing itself; a key
 * given twice keeps its last value, as JSON.parse does.
 */

export type JsonPath = readonly (string | number)[];

/** The raw text of every value whose path `wanted` accepts, by JSON.stringify(path). */
export function rawValues(text: string, wanted: (path: JsonPath) => boolean): Map<string, string> {
  const found = new Map<string, string>();
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: (string | number)[]): void => {
    space();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') i++;
      else
        for (;;) {
          space();
          const key = string();
          space();
          i++; // ':'
          value([...path, key]);
          space();
          if (text[i++] === '}') break; // else ','
        }
    } else if (c === '[') {
      i++;
      space();
      if (text[i] === ']') i++;
      else
        for (let index = 0; ; index++) {
          value([...path, index]);
          space();
          if (text[i++] === ']') break;
        }
    } else if (c === '"') string();
    else while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
    if (wanted(path)) found.set(JSON.stringify(path), text.slice(start, i));
  };
  value([]);
  return found;
}
