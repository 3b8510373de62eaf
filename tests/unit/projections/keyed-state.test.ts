import { expect } from 'chai';
import type { DomainEvent } from '../../../domain/shared/decider.js';
import { foldByKey, type KeyedEntry, type KeyedFold } from '../../../projections/shared/keyed-state.js';
import type { Projected } from '../../../projections/shared/projector.js';

type CounterEvent = DomainEvent & { type: 'Opened' | 'Added'; data: { key: string; n: number } };

const event = (type: CounterEvent['type'], key: string, n: number, at: number): Projected<CounterEvent> => ({
  id: `e${at}`,
  streamName: `counter-${key}`,
  type,
  schemaVersion: 1,
  data: { key, n },
  metadata: { occurredAt: '2026-01-01T00:00:00.000Z' },
  revision: 0,
  position: String(at).padStart(3, '0'),
  recordedAt: '2026-01-01T00:00:00.000Z',
});

/** A counter per key: Opened starts it (once), Added adds to an open one and emits the new total. */
const counters: KeyedFold<CounterEvent, number, string> = {
  keyOf: (e) => e.data.key,
  step(total, e) {
    if (e.type === 'Opened') return total === undefined ? { state: e.data.n } : undefined;
    if (total === undefined) return undefined;
    return { state: total + e.data.n, emit: `${e.data.key}=${total + e.data.n}` };
  },
};

describe('per-key state of a projector (projections/shared/keyed-state.ts)', () => {
  it('given no rows, when a batch opens and adds to two keys, then each key is folded in order and emits in order', () => {
    const known = new Map<string, KeyedEntry<number>>();

    const { changed, emitted } = foldByKey(
      known,
      [event('Opened', 'b', 10, 1), event('Opened', 'a', 1, 2), event('Added', 'a', 2, 3), event('Added', 'b', 5, 4)],
      counters,
    );

    expect([...changed]).to.deep.equal(['b', 'a']);
    expect(emitted).to.deep.equal(['a=3', 'b=15']);
    expect(Object.fromEntries(known)).to.deep.equal({
      a: { state: 3, position: '003' },
      b: { state: 15, position: '004' },
    });
  });

  it('given a row at a position, when events at or before it come again, then they change nothing and emit nothing', () => {
    const known = new Map([['a', { state: 3, position: '003' }]]);

    const { changed, emitted } = foldByKey(known, [event('Added', 'a', 2, 3), event('Added', 'a', 4, 5)], counters);

    expect(emitted).to.deep.equal(['a=7']);
    expect(known.get('a')).to.deep.equal({ state: 7, position: '005' });
    expect([...changed]).to.deep.equal(['a']);
  });

  it('given the same event twice in one batch, when folded, then the second is passed over', () => {
    const known = new Map<string, KeyedEntry<number>>();
    const added = event('Added', 'a', 2, 2);

    const { emitted } = foldByKey(known, [event('Opened', 'a', 1, 1), added, added], counters);

    expect(emitted).to.deep.equal(['a=3']);
    expect(known.get('a')).to.deep.equal({ state: 3, position: '002' });
  });

  it('given a step that changes nothing, when folded, then the key is not changed and keeps its position', () => {
    const known = new Map([['a', { state: 3, position: '003' }]]);

    const { changed } = foldByKey(known, [event('Opened', 'a', 9, 4), event('Added', 'z', 1, 5)], counters);

    expect([...changed]).to.deep.equal([]);
    expect(known.get('a')).to.deep.equal({ state: 3, position: '003' });
    expect(known.has('z')).to.equal(false);
  });
});
