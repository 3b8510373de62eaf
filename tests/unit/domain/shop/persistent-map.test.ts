import { expect } from 'chai';
import { PersistentMap } from '../../../../domain/shop/persistent-map.js';

describe('persistent map', () => {
  it('sets, replaces and deletes without changing earlier versions', () => {
    const empty = PersistentMap.empty<number>();
    const one = empty.set('a', 1);
    const two = one.set('b', 2);
    const replaced = two.set('a', 10);
    const removed = replaced.delete('b');
    expect([empty.size, one.size, two.size, replaced.size, removed.size]).to.deep.equal([0, 1, 2, 2, 1]);
    expect([one.get('a'), two.get('a'), replaced.get('a'), removed.get('a')]).to.deep.equal([1, 1, 10, 10]);
    expect([two.get('b'), removed.get('b'), removed.has('b')]).to.deep.equal([2, undefined, false]);
    expect(removed.delete('missing')).to.equal(removed);
  });

  it('holds many keys, colliding ones included, and lists them all', () => {
    let map = PersistentMap.empty<number>();
    for (let i = 0; i < 100_000; i++) map = map.set(`user-${i}`, i);
    expect(map.size).to.equal(100_000);
    for (let i = 0; i < 100_000; i += 997) expect(map.get(`user-${i}`)).to.equal(i);
    for (let i = 0; i < 100_000; i += 2) map = map.delete(`user-${i}`);
    const entries = [...map.entries()];
    expect(entries).to.have.length(50_000);
    expect(entries.every(([k, v]) => k === `user-${v}` && v % 2 === 1)).to.equal(true);
  });
});
