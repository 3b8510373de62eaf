import { expect } from 'chai';
import {
  ChangeTrackedCache,
  type ChangeListener,
  type ChangeSource,
} from '../../../infrastructure/shared/read-model-changes.js';

/** A change source the test drives: connected or not, and announcing what it is told to, to the listener the cache subscribed. */
class FakeSource implements ChangeSource {
  connected = true;
  readonly subscriptions: string[] = [];
  private listener: ChangeListener | undefined;

  subscribe(projector: string, listener: ChangeListener): void {
    this.subscriptions.push(projector);
    this.listener = listener;
  }

  announce(keys: readonly string[] | '*'): void {
    this.listener!(keys);
  }
}

describe('ChangeTrackedCache', () => {
  let source: FakeSource;
  const cache = (maxEntries = 10) => new ChangeTrackedCache<string>(source, 'shop-catalog', maxEntries);

  beforeEach(() => {
    source = new FakeSource();
  });

  it('given a connected source, when the cache is made, then it listens to the projector it was given', () => {
    cache();
    expect(source.subscriptions).to.deep.equal(['shop-catalog']);
  });

  it('given a value put with a fresh mark, when its key is read, then it is served', () => {
    const c = cache();
    c.put('p1', 'pool 1', c.mark());
    expect(c.get('p1')).to.equal('pool 1');
    expect(c.get('p2')).to.equal(undefined);
    expect(c.size).to.equal(1);
  });

  it('given kept values, when the key of one is announced, then that one is dropped and the other still served', () => {
    const c = cache();
    c.put('p1', 'pool 1', c.mark());
    c.put('c2', 'campaign 2', c.mark());
    source.announce(['p1']);
    expect(c.get('p1')).to.equal(undefined);
    expect(c.get('c2')).to.equal('campaign 2');
    expect(c.size).to.equal(1);
  });

  it('given a mark taken before a change of its key, when the value read meanwhile is put, then it is not kept', () => {
    const c = cache();
    const mark = c.mark();
    source.announce(['p1']);
    c.put('p1', 'pool 1 as read before the change', mark);
    expect(c.get('p1')).to.equal(undefined);
    expect(c.size).to.equal(0);
    // The same key read after the change is kept.
    c.put('p1', 'pool 1 as changed', c.mark());
    expect(c.get('p1')).to.equal('pool 1 as changed');
  });

  it('given a mark taken before a change of another key, when the value read meanwhile is put, then it is kept', () => {
    const c = cache();
    const mark = c.mark();
    source.announce(['p2', 'c9']);
    c.put('p1', 'pool 1', mark);
    expect(c.get('p1')).to.equal('pool 1');
  });

  it("given kept values, when '*' is announced, then all are dropped and a value read before it is refused, one read after kept", () => {
    const c = cache();
    c.put('p1', 'pool 1', c.mark());
    c.put('c2', 'campaign 2', c.mark());
    const before = c.mark();
    source.announce('*');
    expect(c.get('p1')).to.equal(undefined);
    expect(c.get('c2')).to.equal(undefined);
    expect(c.size).to.equal(0);
    c.put('p3', 'pool 3 read before the swap', before);
    expect(c.get('p3')).to.equal(undefined);
    c.put('p3', 'pool 3 read after the swap', c.mark());
    expect(c.get('p3')).to.equal('pool 3 read after the swap');
  });

  it('given a kept value, when the source disconnects, then nothing is served nor kept until it connects again', () => {
    const c = cache();
    c.put('p1', 'pool 1', c.mark());
    source.connected = false;
    expect(c.get('p1')).to.equal(undefined);
    c.put('p2', 'pool 2', c.mark());
    expect(c.get('p2')).to.equal(undefined);
    // Back (this fake announces no '*' on reconnecting): what was kept before is served, what was put while disconnected was not kept.
    source.connected = true;
    expect(c.get('p1')).to.equal('pool 1');
    expect(c.get('p2')).to.equal(undefined);
    expect(c.size).to.equal(1);
  });

  it('given maxEntries values kept, when another key is put, then the oldest is evicted; putting a kept key again evicts nothing', () => {
    const c = cache(2);
    c.put('p1', 'pool 1', c.mark());
    c.put('p2', 'pool 2', c.mark());
    c.put('p2', 'pool 2 again', c.mark());
    expect(c.size).to.equal(2); // not read in between: a read may keep an entry longer (BoundedCache)
    c.put('p3', 'pool 3', c.mark());
    expect([c.get('p1'), c.get('p2'), c.get('p3'), c.size]).to.deep.equal([undefined, 'pool 2 again', 'pool 3', 2]);
  });

  it('given maxEntries 0, when values are put, then nothing is kept', () => {
    const c = cache(0);
    c.put('p1', 'pool 1', c.mark());
    source.announce(['p2']);
    c.put('p2', 'pool 2', c.mark());
    expect([c.get('p1'), c.get('p2'), c.size]).to.deep.equal([undefined, undefined, 0]);
  });

  it('given more distinct keys changed than maxEntries since a mark, when a value of an unchanged key is put with it, then it is refused; with a fresh mark, kept', () => {
    const c = cache(2);
    const old = c.mark();
    source.announce(['p1', 'p2']);
    // Up to maxEntries changed keys are told apart: an unchanged key's value read across them is kept.
    c.put('p9', 'pool 9', old);
    expect(c.get('p9')).to.equal('pool 9');
    const beforeOverflow = c.mark();
    source.announce(['p3']);
    // The record of changes overflowed: whether p8 changed can no longer be told for marks older than the overflow.
    c.put('p8', 'pool 8', old);
    c.put('p7', 'pool 7', beforeOverflow);
    expect([c.get('p8'), c.get('p7')]).to.deep.equal([undefined, undefined]);
    c.put('p8', 'pool 8', c.mark());
    expect(c.get('p8')).to.equal('pool 8');
    // And a change after the overflow is still told apart from its key.
    const fresh = c.mark();
    source.announce(['p8']);
    c.put('p8', 'pool 8 read across its change', fresh);
    c.put('p6', 'pool 6', fresh);
    expect([c.get('p8'), c.get('p6')]).to.deep.equal([undefined, 'pool 6']);
  });
});
