/**
 * The write engine (application/shared/aggregate.ts) over the in-memory event store: given streams, when a command
 * through an aggregate, then the answer and the streams. The mechanisms under it are proven on PostgreSQL by
 * tests/integration/shared/command-handler.test.ts.
 */
import { expect } from 'chai';
import { fixedClock } from '../../../../application/shared/clock.js';
import type { CommandContext } from '../../../../application/shared/command-context.js';
import {
  aggregate,
  DecideAgain,
  nameBasedUuid,
  type Aggregate,
  type GuardClaim,
} from '../../../../application/shared/aggregate.js';
import type { EventStore, RecordedEvent, StreamWrite } from '../../../../application/shared/event-store.js';
import { idempotencyStream } from '../../../../application/shared/idempotency.js';
import { DomainError } from '../../../../domain/shared/errors.js';
import { InMemoryEventStore } from '../../../../infrastructure/shared/eventstore/in-memory-event-store.js';
import { codeUsed, context, counter, keyed, testEvents, type Add, type Added } from '../../../support/counters.js';

const now = '2026-03-01T00:00:00.000Z';
const adding =
  (add: number, code?: string) =>
  (at: string): Add => ({ add, code, now: at });

/** A store where another writer comes first: once armed, it adds one to `stream` before each of the next appends. */
function racedStore(store: InMemoryEventStore, stream: string) {
  let left = 0;
  const counts = { appends: 0 };
  const appendMany = async (writes: StreamWrite[]) => {
    counts.appends++;
    if (left > 0) {
      left--;
      const revision = (await store.readStream(stream)).length - 1;
      await store.append(
        stream,
        [
          {
            id: nameBasedUuid(`other/${stream}/${revision}`),
            type: 'Added',
            data: { amount: 1, at: now },
            metadata: { occurredAt: now },
          },
        ],
        revision < 0 ? 'no_stream' : revision,
      );
    }
    return store.appendMany(writes);
  };
  const raced = new Proxy(store, {
    get: (target, name: keyof InMemoryEventStore) =>
      name === 'appendMany' ? appendMany : (target[name] as (...args: unknown[]) => unknown).bind(target),
  }) as EventStore;
  return {
    raced,
    counts,
    arm(times: number) {
      left = times;
      counts.appends = 0;
    },
  };
}

/** Given these streams, the counters aggregate over a fresh in-memory store. */
function given(streams: Record<string, number[]> = {}, wrap: (s: InMemoryEventStore) => EventStore = (s) => s) {
  const memory = new InMemoryEventStore();
  const store = wrap(memory);
  const clock = fixedClock(now);
  const counters: Aggregate<Add, number, Added, string> = aggregate(
    {
      decider: counter,
      stream: (id: string) => `counter-${id}`,
      decoder: testEvents.only({ Added: true }),
      eventDecoder: testEvents,
      claims: (events) =>
        events.flatMap((e): GuardClaim[] =>
          e.data.code
            ? [
                {
                  streamName: `counterCode-${e.data.code}`,
                  event: { type: 'CodeClaimed', data: { code: e.data.code, counter: 'c' } },
                  lost: () => codeUsed(e.data.code!),
                },
              ]
            : [],
        ),
    },
    { store, clock },
  );
  const ready = (async () => {
    for (const [id, amounts] of Object.entries(streams))
      for (const amount of amounts) await counters.handle(context(`given/${id}/${Math.random()}`), id, adding(amount));
  })();
  const streamOf = async (name: string): Promise<RecordedEvent[]> => memory.readStream(name);
  return { memory, store, clock, counters, ready, streamOf };
}

describe('aggregate: the write engine (in-memory event store)', () => {
  describe('handle', () => {
    it('given a counter at 2, when 3 is added, then it answers 5 and appends one event named by the command', async () => {
      const { counters, ready, streamOf } = given({ a: [2] });
      await ready;
      const result = await counters.handle(context('c1'), 'a', adding(3));
      expect(result).to.deep.include({ state: 5, revision: 1, replayed: false });
      const [, added] = await streamOf('counter-a');
      expect(added).to.deep.include({
        id: nameBasedUuid('c1/counter-a/0'),
        type: 'Added',
        data: { amount: 3, at: now },
      });
      expect(added!.metadata).to.deep.include({ commandId: 'c1', correlationId: 'corr-c1', occurredAt: now });
    });

    it('given a command carried out, when it comes again, then it is answered from its events and appends nothing', async () => {
      const { counters, streamOf } = given();
      await counters.handle(context('c2'), 'b', adding(4));
      const again = await counters.handle(context('c2'), 'b', adding(4));
      expect(again).to.deep.include({ state: 4, replayed: true });
      expect(await streamOf('counter-b')).to.have.length(1);
    });

    it('given a refusing decider, when the command would break its rule, then the domain error is thrown', async () => {
      const { counters, ready } = given({ c: [9] });
      await ready;
      const error = await counters.handle(context('c3'), 'c', adding(2)).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(DomainError).with.property('code', 'LIMIT');
    });

    it("given the aggregate's claim held by another command, when a command claims it, then the claim's error is thrown", async () => {
      const { counters, streamOf } = given();
      await counters.handle(context('holder'), 'd', adding(1, 'X'));
      const error = await counters.handle(context('loser'), 'e', adding(1, 'X')).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(DomainError).with.property('code', 'CODE_USED');
      expect(await streamOf('counter-e')).to.deep.equal([]);
    });

    it('given another writer moving the stream before each append, when a command runs, then it decides again, at most maxAttempts times', async () => {
      let race!: ReturnType<typeof racedStore>;
      const { counters } = given({}, (s) => (race = racedStore(s, 'counter-f')).raced);
      race.arm(2);
      const result = await counters.handle(context('c4'), 'f', adding(3));
      expect(result).to.deep.include({ state: 5, revision: 2 });
      expect(race.counts.appends).to.equal(3);

      const { counters: again } = given({}, (s) => (race = racedStore(s, 'counter-g')).raced);
      race.arm(5);
      const error = await again.handle(context('c5'), 'g', adding(1), { maxAttempts: 2 }).catch((e: unknown) => e);
      expect(error).to.have.property('name', 'WrongExpectedVersionError');
    });

    it('given a used idempotency key, when the same request comes again, then the first answer; another request, then IDEMPOTENCY_KEY_REUSED', async () => {
      const { counters, streamOf } = given();
      const first = await counters.handle(keyed('k1', 'h1'), 'h', adding(2));
      const resend = await counters.handle(keyed('k1', 'h1'), 'h', adding(2));
      expect(resend).to.deep.include({ state: first.state, events: first.events, replayed: true });
      const other = await counters.handle(keyed('k1', 'h2'), 'h', adding(5)).catch((e: unknown) => e);
      expect(other).to.be.instanceOf(DomainError).with.property('code', 'IDEMPOTENCY_KEY_REUSED');
      expect(await streamOf('counter-h')).to.have.length(1);
      expect(await streamOf(idempotencyStream({ scope: 'test', key: 'k1' }))).to.have.length(1);
    });

    it('given a new aggregate named from the command id, when the request is sent again, then the same aggregate answers it', async () => {
      const { counters, clock, streamOf } = given();
      const create = (ctx: CommandContext) =>
        counters.handle(ctx, nameBasedUuid(`${ctx.commandId}/counter`), adding(6));
      const first = await create(keyed('k2', 'h'));
      clock.advance(1_000);
      const resend = await create(keyed('k2', 'h'));
      expect(resend).to.deep.include({ state: 6, replayed: true, events: first.events });
      expect(await streamOf(`counter-${nameBasedUuid(`${keyed('k2', 'h').commandId}/counter`)}`)).to.have.length(1);
    });

    it('given events it kept (keepRecorded), when they are handed to the next command, then it decides on them without a read', async () => {
      const { counters, memory } = given();
      const first = await counters.handle(context('k3'), 'i', adding(2), { keepRecorded: true });
      expect(first.recorded).to.have.length(1);
      let reads = 0;
      const readStream = memory.readStream.bind(memory);
      memory.readStream = (...args) => {
        reads++;
        return readStream(...args);
      };
      const next = await counters.handle(context('k4'), 'i', adding(1), { recorded: first.recorded });
      expect(next).to.deep.include({ state: 3, revision: 1 });
      expect(reads).to.equal(0);
    });

    it('given stale handed-over events, when the command runs, then the conflict reads the stream and decides again', async () => {
      const { counters, ready } = given({ j: [4] });
      await ready;
      const result = await counters.handle(context('k5'), 'j', adding(1), { recorded: [] });
      expect(result).to.deep.include({ state: 5, revision: 1 });
    });
  });

  describe('handleMany', () => {
    /** Moves `amount` from counter `from` to counter `to`: a decision over two streams. */
    const transfer = (counters: Aggregate<Add, number, Added, string>, ctx: CommandContext, from: string, to: string) =>
      counters.handleMany(ctx, to, adding(3), {
        follow: async () => (await counters.decide(from, () => ({ add: -3, now }))).writes,
      });

    it('given two counters, when a decision writes both, then both streams move in one append', async () => {
      const { counters, ready } = given({ src: [5], dst: [1] });
      await ready;
      const result = await transfer(counters, context('t1'), 'src', 'dst');
      expect(result.state).to.equal(4);
      expect(await counters.state('src')).to.equal(2);
    });

    it("given another writer moving a followed stream, when the decision runs, then it is decided again on that stream's new state", async () => {
      let race!: ReturnType<typeof racedStore>;
      const { counters, ready } = given({ src2: [5] }, (s) => (race = racedStore(s, 'counter-src2')).raced);
      await ready;
      race.arm(1);
      let retries = 0;
      const result = await counters.handleMany(context('t2'), 'dst2', adding(3), {
        follow: async () => (await counters.decide('src2', () => ({ add: -3, now }))).writes,
        beforeRetry: async () => {
          retries++;
        },
      });
      expect(result.state).to.equal(3);
      expect(await counters.state('src2')).to.equal(3); // 5, +1 by the other writer, -3
      expect([race.counts.appends, retries]).to.deep.equal([2, 1]);
    });

    it('given a followed aggregate that refuses, when the decision runs, then nothing is written and its error is thrown', async () => {
      const { counters, streamOf, ready } = given({ full: [10] });
      await ready;
      const error = await counters
        .handleMany(context('t3'), 'other', adding(1), {
          follow: async () => (await counters.decide('full', () => ({ add: 1, now }))).writes,
        })
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(DomainError).with.property('code', 'LIMIT');
      expect(await streamOf('counter-other')).to.deep.equal([]);
    });

    it('given a follow that finds its reads moved (DecideAgain), when it keeps finding so, then it is tried at most maxAttempts times', async () => {
      const { counters } = given();
      let calls = 0;
      const error = await counters
        .handleMany(context('t4'), 'x', adding(1), {
          maxAttempts: 3,
          follow: async () => {
            calls++;
            throw new DecideAgain();
          },
        })
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(DecideAgain);
      expect(calls).to.equal(3);
    });
  });

  describe('decideOn', () => {
    it('given a state read at a revision, when another aggregate decides on it, then its events go at that revision', () => {
      const { counters } = given();
      const followed = counters.decideOn('y', { state: 2, revision: 0 }, { add: 3, now });
      expect(followed.state).to.equal(5);
      expect(followed.writes).to.deep.equal([
        { streamName: 'counter-y', event: followed.events, expectedVersion: 0, placement: 'after' },
      ]);
      expect(counters.decideOn('y', { state: 2, revision: 0 }, { add: 0, now }).writes).to.deep.equal([]);
    });
  });
});
