/**
 * Text as the voucher search compares it. Vietnamese is written with
 * diacritics that users often leave out when they type ("khuyen mai" for
 * "khuyến mãi"), and the same letter can arrive composed (NFC) or decomposed
 * (NFD). Two forms of every searched text are kept:
 *   - words:  lower case, NFC, diacritics kept   ("điện thoại")
 *   - folded: lower case, diacritics removed, đ → d   ("dien thoai")
 * Both are words separated by single spaces: anything that is not a letter
 * or digit separates words.
 */
import { characters } from '../shared/characters.js';

const separators = /[^\p{L}\p{M}\p{N}]+/gu;
const combiningMarks = /\p{M}/gu;
// Đ/đ carry a stroke, not a combining mark, so NFD leaves them alone.
const strokedD = /[đĐ]/gu;

function words(text: string): string {
  return text.replace(separators, ' ').trim();
}

/** lowercaseWords by the Unicode rules: any text. */
function lowercaseWordsOfAnyText(text: string): string {
  return words(text.normalize('NFC').toLowerCase().normalize('NFC'));
}

/** fold by the Unicode rules: any text. */
function foldAnyText(text: string): string {
  return words(text.toLowerCase().normalize('NFD').replace(combiningMarks, '').replace(strokedD, 'd'));
}

/**
 * What the rules above make of each character of the Latin blocks
 * Vietnamese is written in (U+0000–U+036F, U+1E00–U+1EFF) and of general
 * punctuation and currency signs (U+2000–U+20FF), worked out once
 * by those rules. Within them the rules act on each character alone, except
 * that NFC joins a letter with a combining mark after it, and that the few
 * characters lower case turns into more than one are not one character: text
 * with such a character goes the slow way. Texts of these blocks are
 * converted a character at a time, several times faster, which is most of
 * what indexing a pool costs. Each entry is the character it becomes, or
 * one of these:
 */
const slowWay = -1;
const separator = -2;
const dropped = -3;
const tableEnd = 0x2100;

function characterTable(convert: (char: string) => string | undefined): Int32Array {
  const table = new Int32Array(tableEnd).fill(slowWay);
  for (let code = 0; code < tableEnd; code++) {
    if (code >= 0x370 && code < 0x1e00) continue; // Greek, Cyrillic and the rest up to U+1DFF: the slow way
    const char = String.fromCharCode(code);
    if (!/[\p{L}\p{M}\p{N}]/u.test(char)) table[code] = separator;
    else {
      const to = convert(char);
      if (to === '') table[code] = dropped;
      else if (to !== undefined && to.length === 1) table[code] = to.charCodeAt(0);
    }
  }
  return table;
}

const lowerOf = characterTable((char) => {
  const lower = char.toLowerCase();
  // A mark may compose with the letter before it under NFC.
  return /\p{M}/u.test(char) || char.normalize('NFC') !== char || lower.normalize('NFC') !== lower ? undefined : lower;
});
const foldedOf = characterTable(foldAnyText);

let scratch = new Uint16Array(256);

/** `text` with each character replaced as `table` says, separators as single spaces, trimmed; undefined if one goes the slow way. */
function byCharacter(text: string, table: Int32Array): string | undefined {
  if (scratch.length < text.length) scratch = new Uint16Array(text.length * 2);
  let length = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const to = code < tableEnd ? table[code]! : slowWay;
    if (to >= 0) {
      if (space) scratch[length++] = 0x20;
      scratch[length++] = to;
      space = false;
    } else if (to === separator) space = length > 0;
    else if (to === slowWay) return undefined;
  }
  let out = '';
  // In slices: a call takes only so many arguments.
  for (let from = 0; from < length; from += 8192)
    out += String.fromCharCode.apply(
      null,
      scratch.subarray(from, Math.min(length, from + 8192)) as unknown as number[],
    );
  return out;
}

/** Lower case, NFC, diacritics kept, words separated by single spaces. */
export function lowercaseWords(text: string): string {
  return byCharacter(text, lowerOf) ?? lowercaseWordsOfAnyText(text);
}

/** Lower case without diacritics (đ → d), words separated by single spaces. */
export function fold(text: string): string {
  return byCharacter(text, foldedOf) ?? foldAnyText(text);
}

/** Length of a search keyword as the shop counts it: Unicode code points of the trimmed NFC text. */
export function keywordLength(q: string): number {
  return characters(q.trim().normalize('NFC'));
}

/** Typo tolerance applies to words of at least this many letters. */
export const typoTolerantLength = 5;

/** One word of a search keyword. */
export interface SearchTerm {
  /** As typed, lower case with its diacritics (NFC): finds the very spelling. */
  typed: string;
  /** Folded: finds every spelling with or without diacritics. */
  folded: string;
  /** A word of only letters, at least typoTolerantLength of them: may match a word one edit away. */
  typoTolerant: boolean;
}

/** The words of a search keyword, in order, each once. */
export function searchTerms(q: string): SearchTerm[] {
  const terms = new Map<string, SearchTerm>();
  for (const typed of lowercaseWords(q).split(' ')) {
    const folded = fold(typed);
    if (folded === '' || terms.has(typed)) continue; // '' : a stray combining mark
    terms.set(typed, { typed, folded, typoTolerant: isTypoTolerant(folded) });
  }
  return [...terms.values()];
}

/** A folded word of letters only, long enough to forgive a typo in. */
export function isTypoTolerant(folded: string): boolean {
  return [...folded].length >= typoTolerantLength && /^\p{L}+$/u.test(folded);
}

/**
 * The word with one letter left out, each way. Two words within one typo of
 * each other share one of these keys or one is the other's key, which lets
 * an index find typo candidates without comparing against every word.
 */
export function deletionKeys(word: string): string[] {
  const letters = [...word];
  return [...new Set(letters.map((_, i) => [...letters.slice(0, i), ...letters.slice(i + 1)].join('')))];
}

/**
 * True when `a` and `b` differ by at most one typo: one letter inserted,
 * deleted or replaced, or two adjacent letters swapped.
 */
export function withinOneTypo(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  if (i === x.length && i === y.length) return true;
  const rest = (p: number, q: number) => x.slice(p).join('') === y.slice(q).join('');
  if (x.length === y.length)
    return rest(i + 1, i + 1) || (x[i] === y[i + 1] && x[i + 1] === y[i] && rest(i + 2, i + 2));
  return x.length > y.length ? rest(i + 1, i) : rest(i, i + 1);
}

/**
 * A folded word that a typo-tolerant keyword word can match (letters only,
 * at least one letter fewer than typoTolerantLength): the search looks typo
 * candidates up among such words.
 */
export function inTypoVocabulary(word: string): boolean {
  return [...word].length >= typoTolerantLength - 1 && /^\p{L}+$/u.test(word);
}

/** The distinct words of folded text (words separated by spaces, as fold makes them), in order of first appearance. */
export function distinctWords(folded: string): string[] {
  return [...new Set(folded.split(' '))].filter((w) => w !== '');
}

/**
 * A word's key in the search index: a 32-bit FNV-1a hash of its UTF-16 code
 * units, as a signed integer (PostgreSQL's integer). Words of searched text
 * are indexed by these keys (a GIN over integer arrays costs a fraction of a
 * trigram index to keep up); two words may share a key, so the search checks
 * its candidates against the text itself.
 */
export function wordKey(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return hash | 0;
}
