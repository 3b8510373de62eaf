import { expect } from 'chai';
import { InMemoryNumericIds } from '../../../infrastructure/shared/in-memory-numeric-ids.js';

describe('InMemoryNumericIds', () => {
  it('hands out unique increasing blocks from 1 under concurrent callers, as PostgresNumericIds does', async () => {
    const ids = new InMemoryNumericIds();
    const blocks = await Promise.all(Array.from({ length: 20 }, (_, i) => ids.next('pool', 1 + (i % 3))));
    const all = blocks.flat();
    expect(new Set(all).size).to.equal(all.length);
    for (const b of blocks) for (let i = 1; i < b.length; i++) expect(b[i]).to.equal(b[i - 1]! + 1);
    expect([Math.min(...all), Math.max(...all)]).to.deep.equal([1, all.length]);
  });

  it('keeps sequences apart, and goes on from the last value it is given', async () => {
    const ids = new InMemoryNumericIds({ voucherPool: 100 });
    expect(await ids.next('voucherPool', 2)).to.deep.equal([101, 102]);
    expect(await ids.next('campaign')).to.deep.equal([1]);
    expect(await ids.next('voucherPool')).to.deep.equal([103]);
  });

  it('refuses a count that is not a positive integer, and a bad last value', async () => {
    const ids = new InMemoryNumericIds();
    for (const count of [0, -1, 1.5]) {
      const error = await ids.next('pool', count).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(RangeError);
    }
    expect(() => new InMemoryNumericIds({ pool: -1 })).to.throw(RangeError);
    expect(await ids.next('pool')).to.deep.equal([1]);
  });
});
