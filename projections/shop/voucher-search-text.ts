import {
  type PoolDisplay,
  distinctWords,
  fold,
  inTypoVocabulary,
  lowercaseWords,
  wordKey,
} from '../../domain/shop/index.js';

/**
 * The searched text in the forms the search projector (voucher-search.ts)
 * stores: lower case with diacritics, and folded, each padded, with the keys
 * of its words; and the words it adds to the vocabularies. How the search
 * compares them: docs/shop-search.md, "What matches".
 */

const pad = (text: string) => ` ${text} `;
const codePoints = (text: string) => [...text].length;

interface TextForms {
  /** Lower case with diacritics, padded; its length in characters. */
  words: string;
  wordsLength: number;
  /** Folded, padded; its length in characters. */
  folded: string;
  foldedLength: number;
  /** The distinct folded words, and their keys. */
  foldedWords: string[];
  foldedKeys: number[];
}

/**
 * The forms of texts seen lately: the pools of one brand, or of one bulk
 * import, share many of their texts (brand names above all), and working
 * them out is most of what a pool costs the projector. Cleared when full.
 */
const recentForms = new Map<string, TextForms>();

function forms(text: string): TextForms {
  let known = recentForms.get(text);
  if (known === undefined) {
    if (recentForms.size >= 20_000) recentForms.clear();
    const words = pad(lowercaseWords(text));
    const folded = pad(fold(text));
    const foldedWords = distinctWords(folded);
    known = {
      words,
      wordsLength: codePoints(words),
      folded,
      foldedLength: codePoints(folded),
      foldedWords,
      foldedKeys: foldedWords.map(wordKey),
    };
    recentForms.set(text, known);
  }
  return known;
}

/**
 * A pool's searched text in both forms: title, brand name and description,
 * each padded, in that order (the order of their ranking weights), where
 * the title and the brand end (in characters), and its words' keys.
 */
export function poolText(display: Pick<PoolDisplay, 'title' | 'brandName' | 'description'>) {
  const title = forms(display.title);
  const brand = forms(display.brandName);
  const description = forms(display.description);
  return {
    pool_words: title.words + brand.words + description.words,
    words_title_end: title.wordsLength,
    words_brand_end: title.wordsLength + brand.wordsLength,
    pool_folded: title.folded + brand.folded + description.folded,
    folded_title_end: title.foldedLength,
    folded_brand_end: title.foldedLength + brand.foldedLength,
    pool_word_keys: [...new Set([...title.foldedKeys, ...brand.foldedKeys, ...description.foldedKeys])],
  };
}

/** The folded words of texts, each once: all of them with their keys, and those a typo-tolerant keyword word can reach. */
export interface FoundWords {
  all: string[];
  keys: number[];
  typo: string[];
}

export function wordsOf(texts: string[]): FoundWords {
  const keyOf = new Map<string, number>();
  for (const text of texts) {
    const { foldedWords, foldedKeys } = forms(text);
    foldedWords.forEach((word, i) => keyOf.set(word, foldedKeys[i]!));
  }
  const all = [...keyOf.keys()];
  return { all, keys: [...keyOf.values()], typo: all.filter(inTypoVocabulary) };
}

export const displayTexts = (display: Pick<PoolDisplay, 'title' | 'brandName' | 'description'>) => [
  display.title,
  display.brandName,
  display.description,
];

export function campaignName(name: string) {
  const { words, folded, foldedWords } = forms(name);
  return { name_words: words, name_folded: folded, name_word_keys: foldedWords.map(wordKey) };
}
