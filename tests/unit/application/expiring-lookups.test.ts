import { expect } from 'chai';
import { ExpiringLookups } from '../../../application/shared/expiring-lookups.js';

describe('ExpiringLookups (application/shared/expiring-lookups.ts)', () => {
  function lookups(keep?: (value: string | null) => boolean) {
    const store = new Map<string, string>([['a', 'one']]);
    let reads = 0;
    let gate: Promise<void> | undefined;
    const cache = new ExpiringLookups<string, string | null>(
      async (key) => {
        reads++;
        const value = store.get(key) ?? null; // read before the gate: what a slow read had seen
        await gate;
        return value;
      },
      { ttlMs: 1000, keep },
    );
    return { cache, store, reads: () => reads, hold: (p: Promise<void>) => (gate = p) };
  }

  it('given a value read, when asked again within ttl, then it answers from memory; after ttl it reads again', async () => {
    const { cache, store, reads } = lookups();
    expect(await cache.get('a', 0)).to.equal('one');
    store.set('a', 'two');
    expect(await cache.get('a', 999)).to.equal('one');
    expect(reads()).to.equal(1);
    expect(await cache.get('a', 1000)).to.equal('two');
    expect(reads()).to.equal(2);
  });

  it('given a change forgotten here, then the next ask reads it at once', async () => {
    const { cache, store } = lookups();
    await cache.get('a', 0);
    store.set('a', 'revoked');
    cache.forget('a');
    expect(await cache.get('a', 1)).to.equal('revoked');
  });

  it('given a read that began before a forget, then what it read is answered but not kept', async () => {
    const { cache, store, reads, hold } = lookups();
    let release!: () => void;
    hold(new Promise<void>((resolve) => (release = resolve)));
    const slow = cache.get('a', 0); // reads 'one', then waits
    store.set('a', 'revoked');
    cache.forget('a');
    release();
    expect(await slow).to.equal('one');
    hold(Promise.resolve());
    expect(await cache.get('a', 1)).to.equal('revoked');
    expect(reads()).to.equal(2);
  });

  it('keeps only what `keep` accepts: unknown keys are read every time', async () => {
    const { cache, reads } = lookups((value) => value !== null);
    expect(await cache.get('nobody', 0)).to.equal(null);
    expect(await cache.get('nobody', 1)).to.equal(null);
    expect(reads()).to.equal(2);
  });
});
