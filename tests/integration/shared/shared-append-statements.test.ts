/**
 * Concurrent appends sharing one statement on PostgreSQL (docs/event-store.md, "Shared statements"): each append keeps
 * its own outcome, real parallel appends through real pools.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  DuplicateEventIdError,
  WrongExpectedVersionError,
  type AppendResult,
  type EventToAppend,
  type ExpectedVersion,
} from '../../../application/shared/event-store.js';
import { createKnex } from '../../../infrastructure/shared/database.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { parsePosition } from '../../../infrastructure/shared/eventstore/positions.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

const event = (id: string = randomUUID()): EventToAppend => ({
  id,
  type: 'Happened',
  data: { n: 1 },
  metadata: { occurredAt: '2026-11-27T00:00:00.000Z' },
});

/** The transaction an append was written in (the major part of its position). */
const transactionOf = (result: AppendResult) => parsePosition(result.position).major;

describe('PostgresEventStore: concurrent appends share statements', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    // One statement in flight: whatever comes while it runs waits and goes together in the next.
    store = new PostgresEventStore(db.knex, { appendsInFlight: 1 });
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  const append = (streamName: string, expected: ExpectedVersion, events = [event()]) =>
    store.append(streamName, events, expected);

  it('given 40 appends to new streams at once, when they are written, then each is stored and they share statements', async () => {
    const names = Array.from({ length: 40 }, () => `shared-${randomUUID()}`);
    const results = await Promise.all(names.map((name) => append(name, 'no_stream')));

    for (const [i, name] of names.entries()) {
      const read = await store.readStream(name);
      expect(read).to.have.length(1);
      expect(read[0]!.position).to.equal(results[i]!.position);
      expect(results[i]!.nextExpectedVersion).to.equal(0);
    }
    const transactions = new Set(results.map(transactionOf));
    expect(transactions.size).to.be.at.most(3);
    expect(transactions.size).to.be.below(names.length);
  });

  it('given one append with a wrong expected version among 20, when they share a statement, then only it fails and the rest are stored', async () => {
    const existing = `shared-existing-${randomUUID()}`;
    await append(existing, 'no_stream', [event(), event()]);
    const names = Array.from({ length: 20 }, () => `shared-${randomUUID()}`);

    const outcomes = await Promise.allSettled(
      names.map((name, i) => (i === 10 ? append(existing, 0) : append(name, 'no_stream'))),
    );

    const failed = outcomes[10]!;
    expect(failed.status).to.equal('rejected');
    const error = (failed as PromiseRejectedResult).reason as WrongExpectedVersionError;
    expect(error).to.be.instanceOf(WrongExpectedVersionError);
    expect(error.streamName).to.equal(existing);
    expect(error.actual).to.equal(1);
    expect(await store.readStream(existing)).to.have.length(2);
    for (const [i, name] of names.entries()) {
      if (i === 10) continue;
      expect(outcomes[i]!.status, `append ${i}`).to.equal('fulfilled');
      expect(await store.readStream(name)).to.have.length(1);
    }
    const stored = outcomes.filter((o): o is PromiseFulfilledResult<AppendResult> => o.status === 'fulfilled');
    expect(new Set(stored.map((o) => transactionOf(o.value))).size).to.be.below(stored.length);
  });

  it('given two appends creating the same stream at once, when they are written, then one wins and the other finds it there', async () => {
    for (let round = 0; round < 10; round++) {
      const name = `shared-race-${randomUUID()}`;
      const outcomes = await Promise.allSettled([append(name, 'no_stream'), append(name, 'no_stream')]);
      expect(outcomes.map((o) => o.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
      const lost = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
      expect(lost.reason).to.be.instanceOf(WrongExpectedVersionError);
      expect(await store.readStream(name)).to.have.length(1);
    }
  });

  it('given an append whose event id is stored on another stream, when it shares a statement, then only it fails, with DuplicateEventIdError', async () => {
    const taken = event();
    const elsewhere = `shared-elsewhere-${randomUUID()}`;
    await append(elsewhere, 'no_stream', [taken]);
    const names = Array.from({ length: 12 }, () => `shared-${randomUUID()}`);

    const outcomes = await Promise.allSettled(
      names.map((name, i) => append(name, 'no_stream', i === 5 ? [{ ...taken }] : [event()])),
    );

    expect((outcomes[5] as PromiseRejectedResult).reason).to.be.instanceOf(DuplicateEventIdError);
    expect(await store.readStream(names[5]!)).to.deep.equal([]);
    for (const [i, name] of names.entries()) {
      if (i === 5) continue;
      expect(outcomes[i]!.status, `append ${i}`).to.equal('fulfilled');
      expect(await store.readStream(name)).to.have.length(1);
    }
  });

  it('given a retried append among others, when it shares a statement, then it is answered with its first result and the others are stored', async () => {
    const first = `shared-retried-${randomUUID()}`;
    const events = [event(), event()];
    const original = await append(first, 'no_stream', events);
    const names = Array.from({ length: 8 }, () => `shared-${randomUUID()}`);

    const results = await Promise.all([
      append(first, 'no_stream', events),
      ...names.map((n) => append(n, 'no_stream')),
    ]);

    expect(results[0]).to.deep.equal(original);
    expect(await store.readStream(first)).to.have.length(2);
    for (const name of names) expect(await store.readStream(name)).to.have.length(1);
  });

  it('given two processes creating the same 30 streams at once, when both share statements, then each stream is won exactly once', async () => {
    const other = createKnex(db.url, 4);
    const otherStore = new PostgresEventStore(other, { appendsInFlight: 1 });
    try {
      const names = Array.from({ length: 30 }, () => `shared-both-${randomUUID()}`);
      const outcomes = await Promise.allSettled(
        names.flatMap((name) => [append(name, 'no_stream'), otherStore.append(name, [event()], 'no_stream')]),
      );
      for (const [i, name] of names.entries()) {
        const pair = outcomes.slice(2 * i, 2 * i + 2);
        expect(
          pair.filter((o) => o.status === 'fulfilled'),
          name,
        ).to.have.length(1);
        const lost = pair.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
        expect(lost.reason).to.be.instanceOf(WrongExpectedVersionError);
        expect(await store.readStream(name)).to.have.length(1);
      }
    } finally {
      await otherStore.close();
      await other.destroy();
    }
  });

  it('given a statement held up by a lock elsewhere, when appends come meanwhile, then they go beside it after the patience', async () => {
    const patient = new PostgresEventStore(db.knex, { appendsInFlight: 2, appendsPatienceMs: 5 });
    const held = `shared-held-${randomUUID()}`;
    await patient.append(held, [event()], 'no_stream');
    const trx = await db.knex.transaction();
    try {
      // Another transaction holds the stream's row: the append to it waits until that ends.
      await trx.raw('SELECT revision FROM event_streams WHERE stream_name = ? FOR UPDATE', [held]);
      let heldDone = false;
      const blocked = patient.append(held, [event()], 0).then((r) => ((heldDone = true), r));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const others = Promise.all(
        Array.from({ length: 5 }, () => patient.append(`shared-${randomUUID()}`, [event()], 'no_stream')),
      );
      const first = await Promise.race([
        others.then(() => 'the others'),
        new Promise((resolve) => setTimeout(resolve, 3000, 'the lock holder')),
      ]);
      expect(first, 'what ended first').to.equal('the others');
      expect(heldDone, 'the held append is still waiting').to.equal(false);
      await trx.commit();
      expect((await blocked).nextExpectedVersion).to.equal(1);
    } finally {
      if (!trx.isCompleted()) await trx.commit();
      await patient.close();
    }
  });

  it('given an append larger than a shared statement holds, when others wait too, then it goes alone and all are stored', async () => {
    const big = `shared-big-${randomUUID()}`;
    const small = Array.from({ length: 5 }, () => `shared-${randomUUID()}`);
    const bigEvents = Array.from({ length: 2500 }, () => event());

    const results = await Promise.all([
      append(small[0]!, 'no_stream'),
      append(big, 'no_stream', bigEvents),
      ...small.slice(1).map((n) => append(n, 'no_stream')),
    ]);

    expect(await store.readStream(big)).to.have.length(2500);
    for (const name of small) expect(await store.readStream(name)).to.have.length(1);
    const bigTransaction = transactionOf(results[1]!);
    expect(results.filter((r) => transactionOf(r) === bigTransaction)).to.have.length(1);
  });
});
