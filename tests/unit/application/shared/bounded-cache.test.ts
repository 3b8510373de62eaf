import { expect } from 'chai';
import { BoundedCache } from '../../../../application/shared/bounded-cache.js';

describe('BoundedCache', () => {
  const filled = (limit: number, keys: string[]) => {
    const cache = new BoundedCache<string, number>(limit);
    keys.forEach((key, i) => cache.set(key, i));
    return cache;
  };
  const kept = (cache: BoundedCache<string, number>, keys: string[]) =>
    keys.filter((key) => cache.get(key) !== undefined);

  it('given more entries than its limit, then it forgets the ones inserted first', () => {
    const cache = filled(3, ['a', 'b', 'c', 'd', 'e']);
    expect(cache.size).to.equal(3);
    expect(kept(cache, ['a', 'b', 'c', 'd', 'e'])).to.deep.equal(['c', 'd', 'e']);
  });

  it('given an entry read once it aged into the older half, then it is kept over entries inserted before the read', () => {
    const cache = filled(4, ['a', 'b', 'c', 'd']); // a has aged by three insertions: more than half of 4
    expect(cache.get('a')).to.equal(0);
    cache.set('e', 4);
    cache.set('f', 5);
    expect(kept(cache, ['a', 'b', 'c', 'd', 'e', 'f'])).to.deep.equal(['a', 'd', 'e', 'f']);
  });

  it('given an entry read while still young, then it is not moved: reads of the young cost one lookup', () => {
    const cache = filled(4, ['a', 'b', 'c', 'd']);
    expect(cache.get('d')).to.equal(3); // just inserted: stays where it is
    cache.set('e', 4);
    expect(kept(cache, ['a', 'b', 'c', 'd', 'e'])).to.deep.equal(['b', 'c', 'd', 'e']);
  });

  it('given a key set again, then its value is replaced and it counts as new; delete and clear forget', () => {
    const cache = filled(3, ['a', 'b', 'c']);
    cache.set('a', 10);
    cache.set('d', 3);
    expect(kept(cache, ['a', 'b', 'c', 'd'])).to.deep.equal(['a', 'c', 'd']);
    expect(cache.get('a')).to.equal(10);
    cache.delete('c');
    expect(cache.get('c')).to.equal(undefined);
    cache.clear();
    expect(cache.size).to.equal(0);
  });

  it('given many evictions, a delete and a clear between them, then it still forgets the ones inserted first', () => {
    const cache = filled(
      3,
      Array.from({ length: 1000 }, (_, i) => `k${i}`),
    );
    cache.delete('k998');
    cache.set('x', 0);
    cache.set('y', 1);
    expect(kept(cache, ['k997', 'k998', 'k999', 'x', 'y'])).to.deep.equal(['k999', 'x', 'y']);
    cache.clear();
    ['p', 'q', 'r', 's'].forEach((key) => cache.set(key, 0));
    expect(kept(cache, ['p', 'q', 'r', 's'])).to.deep.equal(['q', 'r', 's']);
  });
});
