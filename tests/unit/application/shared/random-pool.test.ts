import { expect } from 'chai';
import { newPromotionCode } from '../../../../application/shared/promotion-codes.js';
import { pooledRandomBytes } from '../../../../application/shared/random-pool.js';

describe('pooledRandomBytes', () => {
  it('given many draws across several refills of the pool, then each has its size and none repeats', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const bytes = pooledRandomBytes(12);
      expect(bytes.length).to.equal(12);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).to.equal(5000);
  });

  it('given a draw kept while the pool is refilled, then the kept bytes do not change', () => {
    const kept = pooledRandomBytes(16);
    const copy = Buffer.from(kept);
    for (let i = 0; i < 1000; i++) pooledRandomBytes(16);
    expect(kept.equals(copy)).to.equal(true);
  });

  it('given a size larger than the pool serves, then it answers that many bytes all the same', () => {
    expect(pooledRandomBytes(5000).length).to.equal(5000);
  });

  it('given draws of every byte value, then the bytes look uniform (each value between 0.5 and 1.5 times its share)', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2000; i++) for (const byte of pooledRandomBytes(64)) counts[byte]!++;
    const share = (2000 * 64) / 256;
    expect(Math.min(...counts)).to.be.greaterThan(share * 0.5);
    expect(Math.max(...counts)).to.be.lessThan(share * 1.5);
  });
});

describe('newPromotionCode', () => {
  it('given an issued promotion id, then the code is that id in base 32 and 12 random characters, in groups of four', () => {
    const code = newPromotionCode(32 * 32 + 5);
    expect(code).to.match(/^0000-0105-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(newPromotionCode(32 * 32 + 5)).to.not.equal(code);
  });
});
