import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  WrongExpectedVersionError,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedVersion,
  type RecordedEvent,
} from '../../application/shared/event-store.js';
import { eventually } from '../support/eventually.js';

export interface EventStoreFixture {
  store: EventStore;
  /** Whether appendMany is all or nothing (PostgreSQL) or stops at the first failure (EventStoreDB). */
  atomicAppendMany: boolean;
  dispose(): Promise<void>;
}

const run = randomUUID().slice(0, 8);
let streamCount = 0;

/** A stream name no other test (or earlier run against a shared server) uses. */
function newStream(category: string): string {
  return `${category}-${run}x${++streamCount}`;
}

function metadata(extra: Partial<EventMetadata> = {}): EventMetadata {
  return { occurredAt: '2025-01-02T03:04:05.000Z', correlationId: randomUUID(), ...extra };
}

function event(type: string, data: unknown = { n: 1 }): EventToAppend {
  return { id: randomUUID(), type, data, metadata: metadata() };
}

function events(count: number, type = 'Counted'): EventToAppend[] {
  return Array.from({ length: count }, (_, i) => event(type, { i }));
}

async function conflict(attempt: Promise<unknown>): Promise<WrongExpectedVersionError> {
  try {
    await attempt;
  } catch (error) {
    expect(error).to.be.instanceOf(WrongExpectedVersionError);
    return error as WrongExpectedVersionError;
  }
  expect.fail('expected a WrongExpectedVersionError');
}

/** Everything in the global log after `checkpoint` that belongs to `streams`, read in pages of `limit`. */
async function readAllOf(
  store: EventStore,
  checkpoint: string,
  streams: string[],
  limit = 100,
): Promise<RecordedEvent[]> {
  const wanted = new Set(streams);
  const found: RecordedEvent[] = [];
  let position = checkpoint;
  for (;;) {
    const page = await store.readAll(position, limit);
    expect(page.length).to.be.at.most(limit);
    if (page.length === 0) return found;
    found.push(...page.filter((e) => wanted.has(e.streamName)));
    position = page[page.length - 1]!.position;
  }
}

/** The same cases for every adapter of the EventStore port. */
export function eventStoreContract(name: string, factory: () => Promise<EventStoreFixture>): void {
  describe(`${name} (event store contract)`, function () {
    let fixture: EventStoreFixture;
    let store: EventStore;

    before(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    after(async () => {
      await store.close();
      await fixture.dispose();
    });

    /** Position of an event appended now: what follows it in the log is this test's. */
    async function marker(): Promise<string> {
      return (await store.append(newStream('marker'), [event('Marker')], 'no_stream')).position;
    }

    describe('append and readStream', () => {
      it('records events with 0-based revisions, their metadata as given and the position of the last one', async () => {
        const stream = newStream('order');
        const given: EventToAppend[] = [
          {
            id: randomUUID(),
            type: 'OrderPlaced',
            data: { amount: 150000, lines: [{ sku: 'A', qty: 2 }] },
            metadata: metadata({
              causationId: randomUUID(),
              requestId: 'req-1',
              actor: { merchantId: 'M0001', terminalId: 'T1', userId: 'u-9' },
              tenant: 'vn',
            }),
          },
          { id: randomUUID(), type: 'OrderPaid', schemaVersion: 2, data: { paid: true }, metadata: metadata() },
        ];

        const result = await store.append(stream, given, 'no_stream');

        const recorded = await store.readStream(stream);
        expect(result.nextExpectedVersion).to.equal(1);
        expect(recorded.map((e) => [e.id, e.streamName, e.revision, e.type, e.schemaVersion])).to.deep.equal([
          [given[0]!.id, stream, 0, 'OrderPlaced', 1],
          [given[1]!.id, stream, 1, 'OrderPaid', 2],
        ]);
        expect(recorded.map((e) => e.data)).to.deep.equal(given.map((e) => e.data));
        expect(recorded.map((e) => e.metadata)).to.deep.equal(given.map((e) => e.metadata));
        expect(recorded[1]!.position).to.equal(result.position);
        expect(recorded[0]!.position < recorded[1]!.position).to.equal(true);
        expect(new Date(recorded[0]!.recordedAt).toISOString()).to.equal(recorded[0]!.recordedAt);
      });

      it('reads a stream from a revision, and nothing for a missing stream or past the end', async () => {
        const stream = newStream('counter');
        const given = events(5);
        await store.append(stream, given, 'no_stream');

        expect((await store.readStream(stream, { fromRevision: 2 })).map((e) => [e.revision, e.id])).to.deep.equal(
          [2, 3, 4].map((r) => [r, given[r]!.id]),
        );
        expect(await store.readStream(stream, { fromRevision: 5 })).to.deep.equal([]);
        expect(await store.readStream(newStream('missing'))).to.deep.equal([]);
      });

      it('reads at most a limit of events from a revision, and the last event of a stream in one read', async () => {
        const stream = newStream('counter');
        const given = events(5);
        await store.append(stream, given, 'no_stream');

        expect((await store.readStream(stream, { limit: 1 })).map((e) => [e.revision, e.id])).to.deep.equal([
          [0, given[0]!.id],
        ]);
        expect((await store.readStream(stream, { fromRevision: 3, limit: 5 })).map((e) => e.revision)).to.deep.equal([
          3, 4,
        ]);
        const refused = await store.readStream(stream, { limit: 0 }).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(refused).to.be.instanceOf(RangeError);
        const last = await store.readLastEvent(stream);
        expect([last?.revision, last?.id, last?.streamName]).to.deep.equal([4, given[4]!.id, stream]);
        expect(await store.readLastEvent(newStream('missing'))).to.equal(undefined);
      });
    });

    describe('expected version', () => {
      it("'no_stream' creates a stream and refuses an existing one, reporting its revision", async () => {
        const stream = newStream('guard');
        await store.append(stream, events(2), 'no_stream');

        const error = await conflict(store.append(stream, events(1), 'no_stream'));

        expect([error.streamName, error.expected, error.actual]).to.deep.equal([stream, 'no_stream', 1]);
        expect(await store.readStream(stream)).to.have.length(2);
      });

      it("'stream_exists' refuses a missing stream (actual -1) and appends to an existing one", async () => {
        const stream = newStream('pool');

        const error = await conflict(store.append(stream, events(1), 'stream_exists'));
        expect(error.actual).to.equal(-1);

        await store.append(stream, events(1), 'no_stream');
        const result = await store.append(stream, events(2), 'stream_exists');
        expect(result.nextExpectedVersion).to.equal(2);
      });

      it("'any' appends whatever the stream's state", async () => {
        const stream = newStream('log');
        expect((await store.append(stream, events(1), 'any')).nextExpectedVersion).to.equal(0);
        expect((await store.append(stream, events(3), 'any')).nextExpectedVersion).to.equal(3);
      });

      it('an exact revision must be the revision of the last event; -1 means no stream', async () => {
        const stream = newStream('pool');
        await store.append(stream, events(1), -1);
        await store.append(stream, events(1), 0);

        const stale = await conflict(store.append(stream, events(1), 0));
        const ahead = await conflict(store.append(newStream('pool'), events(1), 3));

        expect([stale.expected, stale.actual]).to.deep.equal([0, 1]);
        expect([ahead.expected, ahead.actual]).to.deep.equal([3, -1]);
        expect((await store.append(stream, events(1), 1)).nextExpectedVersion).to.equal(2);
      });

      it('of 20 concurrent appends at the same expected version exactly one wins', async () => {
        const stream = newStream('pool');
        await store.append(stream, events(1), 'no_stream');

        const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => store.append(stream, events(1), 0)));

        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).to.have.length(1);
        expect(lost.every((o) => o.reason instanceof WrongExpectedVersionError && o.reason.actual === 1)).to.equal(
          true,
        );
        expect(await store.readStream(stream)).to.have.length(2);
      });

      it("of 20 concurrent 'no_stream' appends to a new stream exactly one wins", async () => {
        const stream = newStream('guard');

        const outcomes = await Promise.allSettled(
          Array.from({ length: 20 }, () => store.append(stream, events(1), 'no_stream')),
        );

        expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
        expect(
          outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof WrongExpectedVersionError),
        ).to.have.length(19);
        expect(await store.readStream(stream)).to.have.length(1);
      });
    });

    describe('idempotent retry', () => {
      const modes: { mode: ExpectedVersion; setUp: (stream: string) => Promise<void> }[] = [
        { mode: 'no_stream', setUp: async () => undefined },
        { mode: 'any', setUp: async () => undefined },
        { mode: 'stream_exists', setUp: async (s) => void (await store.append(s, events(1), 'no_stream')) },
        { mode: 0, setUp: async (s) => void (await store.append(s, events(1), 'no_stream')) },
      ];
      for (const { mode, setUp } of modes) {
        it(`appending the same events again with ${JSON.stringify(mode)} writes nothing and returns the original result`, async () => {
          const stream = newStream('retry');
          await setUp(stream);
          const given = events(2);
          const first = await store.append(stream, given, mode);

          const again = await store.append(stream, given, mode);

          expect(again).to.deep.equal(first);
          expect((await store.readStream(stream)).filter((e) => given.some((g) => g.id === e.id))).to.have.length(2);
        });
      }

      it('a retry at an exact revision gets the original result even after the stream moved on', async () => {
        const stream = newStream('retry');
        await store.append(stream, events(1), 'no_stream');
        const given = events(2);
        const first = await store.append(stream, given, 0);
        await store.append(stream, events(1), 2);

        expect(await store.append(stream, given, 0)).to.deep.equal(first);
        expect(await store.readStream(stream)).to.have.length(4);
      });

      it('retrying a whole appendMany writes nothing and returns the original results', async () => {
        const from = await marker();
        const writes = [
          { streamName: newStream('pool'), events: events(3), expectedVersion: 'no_stream' as const },
          { streamName: newStream('reservation'), events: events(1), expectedVersion: 'no_stream' as const },
          { streamName: newStream('guard'), events: events(1), expectedVersion: 'no_stream' as const },
        ];
        const first = await store.appendMany(writes);

        const again = await store.appendMany(writes);

        expect(again).to.deep.equal(first);
        const names = writes.map((w) => w.streamName);
        const logged = await eventually(async () => {
          const found = await readAllOf(store, from, names);
          expect(found).to.have.length(5);
          return found;
        });
        expect(logged.map((e) => e.id)).to.deep.equal(writes.flatMap((w) => w.events.map((e) => e.id)));
      });
    });

    describe('appendMany', () => {
      it('appends to several streams in the order given and answers per write', async () => {
        const pool = newStream('pool');
        await store.append(pool, events(1), 'no_stream');
        const reservation = newStream('reservation');

        const results = await store.appendMany([
          { streamName: pool, events: events(2), expectedVersion: 0 },
          { streamName: reservation, events: events(1), expectedVersion: 'no_stream' },
        ]);

        expect(results.map((r) => r.nextExpectedVersion)).to.deep.equal([2, 0]);
        expect(results[0]!.position < results[1]!.position).to.equal(true);
        expect((await store.readStream(pool)).at(-1)!.position).to.equal(results[0]!.position);
      });

      it('keeps stream names and event types as given, whatever characters they hold', async () => {
        // What a text array literal would have to quote or escape: quotes, backslashes, commas, braces, spaces, NULL.
        const awkward = ['"q"', 'back\\slash\\', 'a,b', '{c}', ' spaced ', 'NULL', 'Việt Nam'];
        const names = awkward.map((part) => newStream(`odd${part}`));
        const results = await store.appendMany(
          names.map((streamName, i) => ({ streamName, events: [event(awkward[i]!)], expectedVersion: 'no_stream' })),
        );

        expect(results.map((r) => r.nextExpectedVersion)).to.deep.equal(names.map(() => 0));
        for (const [i, name] of names.entries()) {
          const [read] = await store.readStream(name);
          expect([read!.streamName, read!.type]).to.deep.equal([name, awkward[i]]);
        }
      });

      it('a conflicting write fails the call and nothing after it is written (before it too where atomic)', async () => {
        const taken = newStream('guard');
        await store.append(taken, events(1), 'no_stream');
        const before = newStream('reservation');
        const after = newStream('reservation');

        const error = await conflict(
          store.appendMany([
            { streamName: before, events: events(1), expectedVersion: 'no_stream' },
            { streamName: taken, events: events(1), expectedVersion: 'no_stream' },
            { streamName: after, events: events(1), expectedVersion: 'no_stream' },
          ]),
        );

        expect([error.streamName, error.expected, error.actual]).to.deep.equal([taken, 'no_stream', 0]);
        expect(await store.readStream(after)).to.deep.equal([]);
        expect(await store.readStream(taken)).to.have.length(1);
        expect(await store.readStream(before)).to.have.length(fixture.atomicAppendMany ? 0 : 1);
        if (fixture.atomicAppendMany) {
          // Nothing of the call stays, the streams' revisions included: each stream takes the write it would have before.
          await store.append(before, events(1), 'no_stream');
          await store.append(taken, events(1), 0);
          await store.append(after, events(1), 'no_stream');
        }
      });
    });

    describe('readAll', () => {
      it('pages the global log after a checkpoint in append order, positions increasing as strings', async () => {
        const from = await marker();
        const a = newStream('pool');
        const b = newStream('reservation');
        const appended = [...events(2), ...events(1), ...events(2)];
        await store.append(a, appended.slice(0, 2), 'no_stream');
        await store.append(b, appended.slice(2, 3), 'no_stream');
        await store.append(a, appended.slice(3), 1);

        const read = await eventually(async () => {
          const found = await readAllOf(store, from, [a, b], 2);
          expect(found).to.have.length(5);
          return found;
        });

        expect(read.map((e) => e.id)).to.deep.equal(appended.map((e) => e.id));
        for (let i = 1; i < read.length; i++) expect(read[i - 1]!.position < read[i]!.position).to.equal(true);
        expect(from < read[0]!.position).to.equal(true);
        const page = await store.readAll(from, 2);
        expect(page).to.have.length(2);
        expect((await store.readAll(page[0]!.position, 1))[0]!.id).to.equal(page[1]!.id);
      });

      it('keeps append order across a change in the number of digits of the positions (numeric, not text, order)', async () => {
        const from = await marker();
        const stream = newStream('pool');
        const appended = events(120); // sequence numbers cross at least one power of ten
        await store.append(stream, appended, 'no_stream');
        const read = await eventually(async () => {
          const found = await readAllOf(store, from, [stream], 7);
          expect(found).to.have.length(120);
          return found;
        });
        expect(read.map((e) => e.revision)).to.deep.equal(appended.map((_, i) => i));
      });

      it('given types, reads only events of those types, in log order, at most the limit a page', async () => {
        const from = await marker();
        const stream = newStream('pool');
        const appended = [event('Wanted'), ...events(3, 'Other'), event('AlsoWanted'), event('Other'), event('Wanted')];
        await store.append(stream, appended, 'no_stream');
        const types = new Set(['Wanted', 'AlsoWanted']);
        const wanted = appended.filter((e) => types.has(e.type)).map((e) => e.id);
        // Other tests' events may follow: a page holds this test's first.
        const first = await eventually(async () => {
          const page = await store.readAll(from, 2, { types });
          expect(page.map((e) => e.id)).to.deep.equal(wanted.slice(0, 2));
          return page;
        });
        const rest = await store.readAll(first[1]!.position, 1, { types });
        expect(rest.map((e) => e.id)).to.deep.equal(wanted.slice(2));
        expect(await store.readAll(from, 10, { types: new Set([`None${run}`]) })).to.deep.equal([]);
        expect((await store.readAll(from, 3, { types: new Set() })).length).to.equal(0);
      });

      it('readLastOfAll gives the last event of the log, the one after which readAll gives nothing', async () => {
        const stream = newStream('pool');
        const appended = events(3);
        await store.append(stream, appended, 'no_stream');
        const last = await eventually(async () => {
          const found = await store.readLastOfAll();
          expect(found?.id).to.equal(appended[2]!.id);
          return found!;
        });
        expect(last).to.deep.include({ streamName: stream, revision: 2, type: 'Counted' });
        expect(await store.readAll(last.position, 10)).to.deep.equal([]);
      });

      it('starts at the beginning of the log without a checkpoint', async () => {
        const from = await marker();
        const [first] = await eventually(async () => {
          const page = await store.readAll(null, 1);
          expect(page).to.have.length(1);
          return page;
        });
        expect(first!.position <= from).to.equal(true);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up, then delivers live events, one at a time, until stopped', async () => {
        const from = await marker();
        const stream = newStream('pool');
        const stored = events(2);
        await store.append(stream, stored, 'no_stream');
        const received: RecordedEvent[] = [];
        let active = 0;
        let overlapped = false;
        let stopped = false;
        let afterStop = false;

        const subscription = store.subscribeToAll(from, async (e) => {
          if (stopped) afterStop = true;
          overlapped ||= ++active > 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (e.streamName === stream) received.push(e);
          active--;
        });
        await eventually(async () => expect(received).to.have.length(2));
        const live = events(2);
        await store.append(stream, live, 1);
        await eventually(async () => expect(received).to.have.length(4));
        await subscription.stop();
        stopped = true;
        const late = events(1);
        await store.append(stream, late, 3);
        await eventually(async () =>
          expect((await store.readAll(received[3]!.position, 10)).map((e) => e.id)).to.include(late[0]!.id),
        );

        expect(received.map((e) => e.id)).to.deep.equal([...stored, ...live].map((e) => e.id));
        expect(overlapped).to.equal(false);
        expect(afterStop).to.equal(false);
      });

      it('hands an event over again when the handler fails, and skips nothing', async () => {
        const from = await marker();
        const stream = newStream('pool');
        const given = events(3);
        await store.append(stream, given, 'no_stream');
        const handled: string[] = [];
        let failures = 0;

        const subscription = store.subscribeToAll(from, async (e) => {
          if (e.streamName !== stream) return;
          if (e.id === given[1]!.id && failures++ < 2) throw new Error('projection database unavailable');
          handled.push(e.id);
        });
        await eventually(async () => expect(handled).to.have.length(3));
        await subscription.stop();

        expect(handled).to.deep.equal(given.map((e) => e.id));
        expect(failures).to.equal(3);
      });

      it('stop() waits for the handler in progress', async () => {
        const from = await marker();
        const stream = newStream('pool');
        await store.append(stream, events(1), 'no_stream');
        const order: string[] = [];
        let entered!: () => void;
        let release!: () => void;
        const inHandler = new Promise<void>((resolve) => (entered = resolve));
        const subscription = store.subscribeToAll(from, async (e) => {
          if (e.streamName !== stream) return;
          entered();
          await new Promise<void>((resolve) => (release = resolve));
          order.push('handler finished');
        });
        await inHandler;

        const stopping = subscription.stop().then(() => order.push('stopped'));
        await new Promise((resolve) => setImmediate(resolve));
        release();
        await stopping;

        expect(order).to.deep.equal(['handler finished', 'stopped']);
      });
    });
  });
}
