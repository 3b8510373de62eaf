/**
 * The length of text as the seeds count it: in characters, i.e. Unicode code points, so an emoji or any character
 * beyond U+FFFF is one, not the two UTF-16 units of `String.length` (docs/conventions.md, "Text lengths").
 */

/** Code points in `text`; a lone surrogate (half of a pair) counts as one, as `[...text].length` counts it. */
export function characters(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
