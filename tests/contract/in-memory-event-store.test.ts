import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../application/shared/clock.js';
import {
  DuplicateEventIdError,
  WrongExpectedVersionError,
  type EventToAppend,
} from '../../application/shared/event-store.js';
import { InMemoryEventStore } from '../../infrastructure/shared/eventstore/in-memory-event-store.js';
import { eventually } from '../support/eventually.js';
import { eventStoreContract } from './event-store.contract.js';

eventStoreContract('InMemoryEventStore', async () => ({
  store: new InMemoryEventStore(),
  atomicAppendMany: true,
  dispose: async () => undefined,
}));

function event(type = 'Happened', data: unknown = { n: 1 }): EventToAppend {
  return { id: randomUUID(), type, data, metadata: { occurredAt: '2025-01-02T03:04:05.000Z' } };
}

async function failure(attempt: Promise<unknown>): Promise<unknown> {
  return attempt.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
}

/** What PostgreSQL does beyond the shared contract (tests/contract/postgres-event-store.test.ts), in memory too. */
describe('InMemoryEventStore (as PostgreSQL, beyond the contract)', () => {
  let store: InMemoryEventStore;
  beforeEach(() => {
    store = new InMemoryEventStore({ clock: fixedClock('2026-03-01T10:00:00.000Z') });
  });
  afterEach(() => store.close());

  it('refuses an event id stored in another stream, or in the same stream at another revision', async () => {
    const taken = event();
    await store.append('order-1', [taken], 'no_stream');

    const elsewhere = await failure(store.append('order-2', [taken], 'any'));
    const later = await failure(store.append('order-1', [taken], 0));

    expect(elsewhere).to.be.instanceOf(DuplicateEventIdError);
    expect((elsewhere as DuplicateEventIdError).streamName).to.equal('order-1');
    expect(later).to.be.instanceOf(DuplicateEventIdError);
    expect(await store.readStream('order-1')).to.have.length(1);
    expect(await store.readStream('order-2')).to.deep.equal([]);
  });

  it('reports a wrong expected version rather than an event id stored elsewhere when both are wrong', async () => {
    const taken = event();
    await store.append('order-1', [taken], 'no_stream');

    const error = await failure(store.append('order-2', [taken], 'stream_exists'));

    expect(error).to.be.instanceOf(WrongExpectedVersionError);
    expect((error as WrongExpectedVersionError).actual).to.equal(-1);
  });

  it('writes nothing of a batch whose last write holds an event id stored elsewhere', async () => {
    const taken = event();
    await store.append('order-1', [taken], 'no_stream');

    const error = await failure(
      store.appendMany([
        { streamName: 'order-2', events: [event()], expectedVersion: 'no_stream' },
        { streamName: 'order-3', events: [taken], expectedVersion: 'no_stream' },
      ]),
    );

    expect(error).to.be.instanceOf(DuplicateEventIdError);
    expect(await store.readStream('order-2')).to.deep.equal([]);
    expect(await store.readAll(null, 10)).to.have.length(1);
  });

  it('applies several writes to one stream within a batch in order, each checked against the revision the earlier left', async () => {
    const results = await store.appendMany([
      { streamName: 'pool-1', events: [event(), event()], expectedVersion: 'no_stream' },
      { streamName: 'pool-1', events: [event()], expectedVersion: 1 },
      { streamName: 'order-1', events: [event()], expectedVersion: 'any' },
      { streamName: 'pool-1', events: [event()], expectedVersion: 'stream_exists' },
    ]);
    const error = await failure(
      store.appendMany([
        { streamName: 'pool-1', events: [event()], expectedVersion: 3 },
        { streamName: 'pool-1', events: [event()], expectedVersion: 3 },
      ]),
    );

    expect(results.map((r) => r.nextExpectedVersion)).to.deep.equal([1, 2, 0, 3]);
    expect([(error as WrongExpectedVersionError).expected, (error as WrongExpectedVersionError).actual]).to.deep.equal([
      3, 4,
    ]);
    expect((await store.readStream('pool-1')).map((e) => e.revision)).to.deep.equal([0, 1, 2, 3]);
  });

  it('is not changed by a caller mutating what it appended or what it read', async () => {
    const given = event('Placed', { lines: [{ sku: 'A', qty: 1 }] });
    await store.append('order-1', [given], 'no_stream');
    (given.data as { lines: { qty: number }[] }).lines[0]!.qty = 99;
    given.metadata.occurredAt = 'changed';

    const [read] = await store.readStream('order-1');
    (read!.data as { lines: { qty: number }[] }).lines.push({ qty: 5 });
    read!.metadata.actor = { operator: 'mallory' };

    const [again] = await store.readAll(null, 1);
    expect(again!.data).to.deep.equal({ lines: [{ sku: 'A', qty: 1 }] });
    expect(again!.metadata).to.deep.equal({ occurredAt: '2025-01-02T03:04:05.000Z' });
  });

  it('stores data and metadata as JSON, as a json column does; data JSON cannot hold fails the whole batch', async () => {
    await store.append(
      'order-1',
      [event('Dated', { at: new Date('2026-03-01T10:00:00.000Z'), dropped: undefined, kept: null })],
      'no_stream',
    );
    const error = await failure(
      store.appendMany([
        { streamName: 'order-2', events: [event()], expectedVersion: 'no_stream' },
        { streamName: 'order-3', events: [event('Big', { amount: 10n })], expectedVersion: 'no_stream' },
      ]),
    );

    const [read] = await store.readStream('order-1');
    expect(read!.data).to.deep.equal({ at: '2026-03-01T10:00:00.000Z', kept: null });
    expect(read!.recordedAt).to.equal('2026-03-01T10:00:00.000Z');
    expect(error).to.be.instanceOf(TypeError);
    expect(await store.readStream('order-2')).to.deep.equal([]);
  });

  it('refuses what no adapter accepts: an id that is no UUID, an empty write, a bad checkpoint or limit', async () => {
    for (const attempt of [
      store.append('order-1', [{ ...event(), id: 'not-a-uuid' }], 'any'),
      store.append('order-1', [], 'any'),
      store.append('order-1', [event()], -2),
      store.readAll('42', 10),
      store.readAll(null, 0),
      store.readStream('order-1', { fromRevision: -1 }),
    ])
      expect(await failure(attempt)).to.be.instanceOf(RangeError);
    expect(await store.readAll(null, 10)).to.deep.equal([]);
  });

  it('stores ids in lower case and answers a retry given in upper case with the original result', async () => {
    const given = event();
    const first = await store.append('order-1', [{ ...given, id: given.id.toUpperCase() }], 'no_stream');

    expect(await store.append('order-1', [given], 'no_stream')).to.deep.equal(first);
    expect((await store.readStream('order-1')).map((e) => e.id)).to.deep.equal([given.id]);
  });

  it('close() stops its subscriptions and refuses every later call', async () => {
    const delivered: string[] = [];
    store.subscribeToAll(null, async (e) => void delivered.push(e.id));
    const first = event();
    await store.append('order-1', [first], 'no_stream');
    await eventually(async () => expect(delivered).to.deep.equal([first.id]));

    await store.close();

    expect(await failure(store.append('order-1', [event()], 'any'))).to.be.instanceOf(Error);
    expect(await failure(store.readStream('order-1'))).to.be.instanceOf(Error);
    expect(() => store.subscribeToAll(null, async () => undefined)).to.throw(/closed/);
    expect(delivered).to.deep.equal([first.id]);
  });
});
