import { expect } from 'chai';
import {
  deletionKeys,
  distinctWords,
  fold,
  inTypoVocabulary,
  isTypoTolerant,
  keywordLength,
  lowercaseWords,
  searchTerms,
  withinOneTypo,
  wordKey,
} from '../../../../domain/shop/vietnamese-text.js';

const nfd = (s: string) => s.normalize('NFD');

describe('Vietnamese search text', () => {
  describe('fold', () => {
    const cases: [string, string][] = [
      ['khuyến mãi', 'khuyen mai'],
      ['Điện thoại', 'dien thoai'],
      ['ĐỒNG HỒ THÔNG MINH', 'dong ho thong minh'],
      ['Cà phê sữa đá', 'ca phe sua da'],
      ['Phở bò tái', 'pho bo tai'],
      ['Bánh mì Huỳnh Hoa', 'banh mi huynh hoa'],
      ['Thế Giới Di Động', 'the gioi di dong'],
      ['Trà sữa trân châu', 'tra sua tran chau'],
      ['Ưu đãi độc quyền', 'uu dai doc quyen'],
      ['Nước ép ổi', 'nuoc ep oi'],
      ['Gỏi cuốn, chả giò & nem rán', 'goi cuon cha gio nem ran'],
      ['Kem chống nắng SPF50+', 'kem chong nang spf50'],
      ['Voucher 100.000đ', 'voucher 100 000d'],
      ['  ờ   ừ  ', 'o u'],
      ["McDonald's", 'mcdonald s'],
      ['Tết Nguyên Đán 2026!!!', 'tet nguyen dan 2026'],
      ['Hà Nội – Thành phố Hồ Chí Minh', 'ha noi thanh pho ho chi minh'],
      ['Ỷ Ỵ Ỹ ỷ ỵ ỹ', 'y y y y y y'],
      ['Ấp Ắp Ặp Ẫp Ẵp', 'ap ap ap ap ap'],
      ['', ''],
      ['!!!', ''],
    ];
    for (const [text, folded] of cases) {
      it(`given "${text}", when folded, then it is "${folded}"`, () => {
        expect(fold(text)).to.equal(folded);
      });
    }

    it('given the same words composed (NFC) and decomposed (NFD), when folded, then both give the same text', () => {
      for (const [text, folded] of cases) expect(fold(nfd(text)), text).to.equal(folded);
    });

    it('given đ and Đ, when folded, then both become d (they carry a stroke, not a combining mark)', () => {
      expect(fold('đ Đ đường ĐƯỜNG')).to.equal('d d duong duong');
    });

    it('given letters of other scripts, when folded, then they are kept as words', () => {
      expect(fold('Crème brûlée 東京 café')).to.equal('creme brulee 東京 cafe');
    });
  });

  describe('lowercaseWords', () => {
    it('given mixed case with diacritics, when normalised, then the diacritics stay and the case goes', () => {
      expect(lowercaseWords('KHUYẾN MÃI Điện Thoại')).to.equal('khuyến mãi điện thoại');
    });

    it('given decomposed input, when normalised, then it comes out composed (NFC)', () => {
      const out = lowercaseWords(nfd('Khuyến Mãi'));
      expect(out).to.equal('khuyến mãi');
      expect(out).to.equal(out.normalize('NFC'));
    });

    it('given punctuation and runs of spaces, when normalised, then words are separated by single spaces', () => {
      expect(lowercaseWords('  Giảm 50%  —  toàn quốc!  ')).to.equal('giảm 50 toàn quốc');
    });
  });

  describe('fold and lowercaseWords against the Unicode rules they follow', () => {
    // The rules as written out in the module's doc; the module converts most text a character at a time instead.
    const wordsOf = (s: string) => s.replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ').trim();
    const foldRule = (s: string) =>
      wordsOf(s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/[đĐ]/gu, 'd'));
    const lowercaseRule = (s: string) => wordsOf(s.normalize('NFC').toLowerCase().normalize('NFC'));
    const codes = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => from + i).filter((c) => c < 0xd800 || c >= 0xe000);
    const tabled = [...codes(0, 0x370), ...codes(0x1e00, 0x2100)].map((c) => String.fromCharCode(c));

    it('given each character of the Latin, punctuation and currency blocks alone, and after a letter, and before a combining mark, then both give what the rules give', () => {
      for (const char of tabled) {
        for (const text of [char, `a${char}`, `${char}\u0301`, `${char} x`]) {
          expect(fold(text), `fold ${JSON.stringify(text)}`).to.equal(foldRule(text));
          expect(lowercaseWords(text), `lowercaseWords ${JSON.stringify(text)}`).to.equal(lowercaseRule(text));
        }
      }
    });

    it('given a text of 50,000 characters, then both give what the rules give', () => {
      const text = 'Khuyến mãi – Điện thoại 100.000đ! '.repeat(1500);
      expect(fold(text)).to.equal(foldRule(text));
      expect(lowercaseWords(text)).to.equal(lowercaseRule(text));
    });

    it('given random texts of those characters mixed with Vietnamese, decomposed letters, Greek, CJK and emoji, then both give what the rules give', () => {
      let seed = 20_261_123;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      const others = [
        ...'ΣσςΑΩάİıßẞǅ東京😀',
        ...nfd('Khuyến Mãi Điện ỷ'),
        ' ',
        '  ',
        '\u0301',
        '\u0323',
        '\u200d',
        '\u00a0',
        'ﬁ',
        '½',
        '²',
      ];
      const alphabet = [...tabled, ...others, ...others, ...others, ...'ăâđêôơưáàảãạấầẩẫậ'];
      for (let n = 0; n < 3000; n++) {
        const text = Array.from(
          { length: Math.floor(random() * 24) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join('');
        expect(fold(text), `fold ${JSON.stringify(text)}`).to.equal(foldRule(text));
        expect(lowercaseWords(text), `lowercaseWords ${JSON.stringify(text)}`).to.equal(lowercaseRule(text));
      }
    });
  });

  describe('keywordLength', () => {
    it('given a composed letter, when counted, then it is one character', () => {
      expect(keywordLength('ế')).to.equal(1);
    });

    it('given a decomposed letter (base + marks), when counted, then it is one character after NFC', () => {
      expect(nfd('ế').length).to.equal(3);
      expect(keywordLength(nfd('ế'))).to.equal(1);
    });

    it('given surrounding spaces, when counted, then they do not count', () => {
      expect(keywordLength('  a  ')).to.equal(1);
      expect(keywordLength(' ab ')).to.equal(2);
    });

    it('given an astral character, when counted, then it is one code point', () => {
      expect(keywordLength('😀')).to.equal(1);
    });
  });

  describe('searchTerms', () => {
    it('given a keyword with diacritics, when split, then each word keeps its typed form and gets its folded form', () => {
      expect(searchTerms('Khuyến MÃI')).to.deep.equal([
        { typed: 'khuyến', folded: 'khuyen', typoTolerant: true },
        { typed: 'mãi', folded: 'mai', typoTolerant: false },
      ]);
    });

    it('given a decomposed keyword, when split, then the typed form is composed', () => {
      expect(searchTerms(nfd('điện thoại')).map((t) => t.typed)).to.deep.equal(['điện', 'thoại']);
    });

    it('given a repeated word, when split, then it is kept once', () => {
      expect(searchTerms('ca ca CA').map((t) => t.typed)).to.deep.equal(['ca']);
    });

    it('given only punctuation, when split, then there is no term', () => {
      expect(searchTerms('!?')).to.deep.equal([]);
    });

    it('given a stray combining mark, when split, then it is no term', () => {
      expect(searchTerms('\u0301 pho').map((t) => t.folded)).to.deep.equal(['pho']);
    });

    it('given words with digits or under five letters, when split, then they are not typo tolerant', () => {
      expect(searchTerms('50000 voucher pho iphone15').map((t) => [t.folded, t.typoTolerant])).to.deep.equal([
        ['50000', false],
        ['voucher', true],
        ['pho', false],
        ['iphone15', false],
      ]);
    });
  });

  describe('isTypoTolerant', () => {
    it('counts folded letters: five or more letters only', () => {
      expect(isTypoTolerant('phone')).to.equal(true);
      expect(isTypoTolerant('pho')).to.equal(false);
      expect(isTypoTolerant('ipho')).to.equal(false);
      expect(isTypoTolerant('12345')).to.equal(false);
    });
  });

  describe('distinctWords and inTypoVocabulary', () => {
    it('given folded text, when listed, then each word comes once, in order of first appearance', () => {
      expect(distinctWords('dien thoai samsung 100000d dien thoai pho')).to.deep.equal([
        'dien',
        'thoai',
        'samsung',
        '100000d',
        'pho',
      ]);
      expect(distinctWords('')).to.deep.equal([]);
    });

    it('given folded words, then the typo vocabulary keeps the letter-only ones a typo-tolerant keyword can reach (four letters or more)', () => {
      expect(['dien', 'thoai', 'samsung', '100000d', 'pho', 'ưu'].filter(inTypoVocabulary)).to.deep.equal([
        'dien',
        'thoai',
        'samsung',
      ]);
    });
  });

  describe('wordKey', () => {
    it('given a word, then its key is its 32-bit FNV-1a hash over UTF-16 code units, as a signed integer', () => {
      expect(wordKey('')).to.equal(0x811c9dc5 | 0);
      expect(wordKey('a')).to.equal(0xe40c292c | 0); // the published FNV-1a test vector for "a"
      expect(wordKey('foobar')).to.equal(0xbf9cf968 | 0);
    });

    it('given different words, then their keys mostly differ, and two may share one', () => {
      const words = ['dien', 'thoai', 'khuyen', 'mai', 'điện'];
      expect(new Set(words.map(wordKey)).size).to.equal(words.length);
      expect(wordKey('glbpp')).to.equal(wordKey('yaczf'));
    });
  });

  describe('withinOneTypo', () => {
    const yes: [string, string, string][] = [
      ['samsung', 'samsung', 'the same word'],
      ['samsong', 'samsung', 'one letter replaced'],
      ['samsung', 'samsungg', 'one letter inserted'],
      ['samsung', 'samung', 'one letter deleted'],
      ['smasung', 'samsung', 'two adjacent letters swapped'],
      ['xamsung', 'samsung', 'the first letter replaced'],
      ['samsunx', 'samsung', 'the last letter replaced'],
      ['amsung', 'samsung', 'the first letter missing'],
      ['samsnug', 'samsung', 'the last two letters but one swapped'],
    ];
    for (const [a, b, why] of yes) {
      it(`given ${a} and ${b} (${why}), then they are within one typo`, () => {
        expect(withinOneTypo(a, b)).to.equal(true);
        expect(withinOneTypo(b, a)).to.equal(true);
      });
    }

    const no: [string, string, string][] = [
      ['sasmnug', 'samsung', 'two swaps'],
      ['samsu', 'samsung', 'two letters missing'],
      ['abxcd', 'abcyd', 'one deleted and another inserted'],
      ['samgusn', 'samsung', 'letters moved two apart'],
    ];
    for (const [a, b, why] of no) {
      it(`given ${a} and ${b} (${why}), then they are not within one typo`, () => {
        expect(withinOneTypo(a, b)).to.equal(false);
        expect(withinOneTypo(b, a)).to.equal(false);
      });
    }
  });

  describe('deletionKeys', () => {
    it('given a word, when keyed, then each key leaves out one letter, each key once', () => {
      expect(deletionKeys('phoo')).to.deep.equal(['hoo', 'poo', 'pho']);
    });

    it('given two words one typo apart, then they share a key or one is a key of the other', () => {
      const reach = (a: string, b: string) =>
        a === b ||
        deletionKeys(a).includes(b) ||
        deletionKeys(b).includes(a) ||
        deletionKeys(a).some((k) => deletionKeys(b).includes(k));
      for (const [a, b] of [
        ['samsong', 'samsung'],
        ['samsungg', 'samsung'],
        ['samung', 'samsung'],
        ['smasung', 'samsung'],
      ] as const)
        expect(reach(a, b), `${a} ${b}`).to.equal(true);
    });
  });
});
