import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  DuplicateEventIdError,
  WrongExpectedVersionError,
  type EventToAppend,
  type RecordedEvent,
  type StreamWrite,
} from '../../application/shared/event-store.js';
import { migrate } from '../../infrastructure/shared/migrations/index.js';
import { appendParameters, appendStatement } from '../../infrastructure/shared/eventstore/append-statement.js';
import { createEventStore } from '../../infrastructure/shared/eventstore/create-event-store.js';
import { PostgresEventStore } from '../../infrastructure/shared/eventstore/postgres-event-store.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { eventStoreContract } from './event-store.contract.js';
import { eventually } from '../support/eventually.js';

eventStoreContract('PostgresEventStore', async () => {
  const db = await createTestDatabase();
  await migrate(db.knex);
  return {
    store: new PostgresEventStore(db.knex, { pollIntervalMs: 100 }),
    atomicAppendMany: true,
    dispose: () => db.drop(),
  };
});

function event(type = 'Happened', data: unknown = {}): EventToAppend {
  return { id: randomUUID(), type, data, metadata: { occurredAt: '2025-01-02T03:04:05.000Z' } };
}

describe('PostgresEventStore (PostgreSQL specifics)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex, { pollIntervalMs: 100 });
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  it('stores payload and metadata as written: keys in their order, text unchanged, read back equal', async () => {
    const data = { zeta: 1, alpha: { b: [1, 2], a: 'Điện thoại "khuyến mãi"' }, middle: null };
    const written = {
      ...event('Written', data),
      metadata: { requestId: 'r-1', actor: { operator: 'alice' }, occurredAt: '2025-01-02T03:04:05.000Z' },
    };
    const streamName = `written-${randomUUID()}`;
    await store.appendMany([{ streamName, events: [written], expectedVersion: 'no_stream' }]);
    const { rows } = await db.knex.raw<{ rows: { data: string; metadata: string }[] }>(
      'SELECT data::text AS data, metadata::text AS metadata FROM events WHERE id = ?',
      [written.id],
    );
    expect(rows[0]).to.deep.equal({ data: JSON.stringify(data), metadata: JSON.stringify(written.metadata) });
    const [read] = await store.readStream(streamName);
    expect(read!.data).to.deep.equal(data);
  });

  describe('a transaction that commits after a later one', () => {
    for (const outcome of ['commits', 'aborts'] as const) {
      it(`holds readers back until it ${outcome === 'commits' ? 'commits; then both are read in order' : 'aborts; then the later one is read'}`, async () => {
        const { position: from } = await store.append(`marker-${randomUUID()}`, [event()], 'no_stream');
        const early = event('Early');
        const late = event('Late');
        const delivered: RecordedEvent[] = [];
        const subscription = store.subscribeToAll(from, async (e) => void delivered.push(e));

        const tx1 = await db.knex.transaction();
        const earlyResult = await new PostgresEventStore(tx1).append(`ooo-${randomUUID()}`, [early], 'no_stream');
        const lateResult = await store.append(`ooo-${randomUUID()}`, [late], 'no_stream');
        expect(earlyResult.position < lateResult.position).to.equal(true);
        expect((await store.readAll(from, 100)).map((e) => e.id)).to.not.include(late.id);
        expect(delivered.map((e) => e.id)).to.not.include(late.id);

        if (outcome === 'commits') await tx1.commit();
        else await tx1.rollback();
        const expected = outcome === 'commits' ? [early.id, late.id] : [late.id];
        await eventually(async () => expect((await store.readAll(from, 100)).map((e) => e.id)).to.deep.equal(expected));
        await eventually(async () => expect(delivered.map((e) => e.id)).to.deep.equal(expected));
        await subscription.stop();
      });
    }
  });

  it('wakes its subscribers at once when it appends, without waiting for the poll', async () => {
    const slowPolling = new PostgresEventStore(db.knex, { pollIntervalMs: 60_000 });
    const { position: from } = await slowPolling.append(`marker-${randomUUID()}`, [event()], 'no_stream');
    const delivered: string[] = [];
    const subscription = slowPolling.subscribeToAll(from, async (e) => void delivered.push(e.id));
    try {
      // Caught up and waiting: the first read found nothing after the marker.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const appended = event();
      const started = Date.now();
      await slowPolling.append(`order-${randomUUID()}`, [appended], 'no_stream');
      await eventually(async () => expect(delivered).to.deep.equal([appended.id]));
      expect(Date.now() - started).to.be.below(5_000);
    } finally {
      await subscription.stop();
    }
  });

  it("delivers another store's (another process's) appends by polling, and the append takes no notification lock", async () => {
    const { position: from } = await store.append(`marker-${randomUUID()}`, [event()], 'no_stream');
    const delivered: string[] = [];
    const subscription = store.subscribeToAll(from, async (e) => void delivered.push(e.id));
    try {
      const elsewhere = new PostgresEventStore(db.knex);
      const appended = event();
      await elsewhere.append(`order-${randomUUID()}`, [appended], 'no_stream');
      await eventually(async () => expect(delivered).to.deep.equal([appended.id]));
      // No trigger on events sends a NOTIFY (which would serialise every appending commit on the server).
      const { rows } = await db.knex.raw<{ rows: { tgname: string }[] }>(
        `SELECT tgname FROM pg_trigger WHERE tgrelid = 'events'::regclass AND NOT tgisinternal`,
      );
      expect(rows.map((r) => r.tgname)).to.deep.equal(['events_append_only']);
    } finally {
      await subscription.stop();
    }
  });

  it('prepares its statements again when a migration changed their result under the running process', async () => {
    const own = await createTestDatabase();
    try {
      await migrate(own.knex);
      const running = new PostgresEventStore(own.knex);
      const streamName = `order-${randomUUID()}`;
      await running.append(streamName, [event('Happened', { n: 1 })], 'no_stream');
      // Prepared on every pooled connection the reads take.
      for (let i = 0; i < 5; i++) await Promise.all([running.readStream(streamName), running.readAll(null, 10)]);
      await own.knex.raw('ALTER TABLE events ALTER COLUMN data TYPE jsonb USING data::jsonb');
      const [read] = await running.readStream(streamName);
      expect(read!.data).to.deep.equal({ n: 1 });
      expect(await running.readAll(null, 10)).to.have.length(1);
      await running.append(streamName, [event('Happened', { n: 2 })], 0);
    } finally {
      await own.drop();
    }
  });

  /** One flash-sale batch: `reservations` events on an existing pool, three new single-event streams per reservation. */
  function flashSaleBatch(pool: string, revision: number, reservations: number): StreamWrite[] {
    const writes: StreamWrite[] = [
      {
        streamName: pool,
        events: Array.from({ length: reservations }, () => event('VoucherStockReserved')),
        expectedVersion: revision,
      },
    ];
    for (let i = 0; i < reservations; i++) {
      for (const category of ['shopReservation', 'shopOrder', 'shopIdempotency']) {
        writes.push({
          streamName: `${category}-${randomUUID()}`,
          events: [event(`${category}Claimed`)],
          expectedVersion: 'no_stream',
        });
      }
    }
    return writes;
  }

  describe('a flash-sale batch (one hot stream, hundreds of new streams)', () => {
    it('is written in one round trip: one statement, atomic on its own', async () => {
      const pool = `voucherPool-${randomUUID()}`;
      await store.append(pool, [event('VoucherPoolCreated')], 'no_stream');
      const writes = flashSaleBatch(pool, 0, 200);
      const queries: string[] = [];
      const count = (q: { sql: string }) => queries.push(q.sql);
      db.knex.on('query', count);

      const results = await store.appendMany(writes);

      db.knex.off('query', count);
      expect(queries.map((q) => q.trim().split(/\s+/)[0]!.toUpperCase())).to.deep.equal(['WITH']);
      expect(results[0]!.nextExpectedVersion).to.equal(200);
      expect(results.slice(1).every((r) => r.nextExpectedVersion === 0)).to.equal(true);
    });

    it('answers each write with the revision and global position of its last event, in the order given', async () => {
      const pool = `voucherPool-${randomUUID()}`;
      await store.append(pool, [event('VoucherPoolCreated')], 'no_stream');
      const writes = flashSaleBatch(pool, 0, 50);

      const results = await store.appendMany(writes);

      for (const [i, write] of writes.entries()) {
        const last = (await store.readStream(write.streamName)).at(-1)!;
        expect([last.id, last.revision, last.position]).to.deep.equal([
          write.events.at(-1)!.id,
          results[i]!.nextExpectedVersion,
          results[i]!.position,
        ]);
      }
      expect((await store.readStream(pool)).map((e) => e.revision)).to.deep.equal(
        Array.from({ length: 51 }, (_, r) => r),
      );
      expect(results.slice(1).every((r, i) => results[i]!.position < r.position)).to.equal(true);
    });

    it('is planned linearly in its size, so PostgreSQL never JIT-compiles it however big', async () => {
      const writes = flashSaleBatch(`voucherPool-${randomUUID()}`, 0, 5000);

      const { rows } = await db.knex.raw<{ rows: { 'QUERY PLAN': [{ Plan: { 'Total Cost': number } }] }[] }>(
        `EXPLAIN (FORMAT JSON) ${appendStatement}`,
        appendParameters(writes),
      );
      const { rows: settings } = await db.knex.raw<{ rows: { jit_above_cost: string }[] }>(
        `SELECT current_setting('jit_above_cost') AS jit_above_cost`,
      );

      expect(rows[0]!['QUERY PLAN'][0].Plan['Total Cost']).to.be.below(Number(settings[0]!.jit_above_cost));
    });

    it('with a stale pool revision writes nothing: no event, no stream, the pool where it was', async () => {
      const pool = `voucherPool-${randomUUID()}`;
      await store.append(pool, [event('VoucherPoolCreated'), event('VoucherStockReserved')], 'no_stream');
      const writes = flashSaleBatch(pool, 0, 20);

      const error = await store.appendMany(writes).then(
        () => undefined,
        (e: unknown) => e,
      );

      expect(error).to.be.instanceOf(WrongExpectedVersionError);
      expect([
        (error as WrongExpectedVersionError).streamName,
        (error as WrongExpectedVersionError).actual,
      ]).to.deep.equal([pool, 1]);
      const { rows } = await db.knex.raw<{ rows: { count: string }[] }>(
        'SELECT count(*)::text AS count FROM event_streams WHERE stream_name = ANY(?::text[])',
        [writes.slice(1).map((w) => w.streamName)],
      );
      expect(rows[0]!.count).to.equal('0');
      expect(await store.readStream(pool)).to.have.length(2);
      expect((await store.appendMany(flashSaleBatch(pool, 1, 20)))[0]!.nextExpectedVersion).to.equal(21);
    });

    it('never deadlocks with a concurrent batch naming the same new streams in the opposite order: one wins, the other conflicts', async () => {
      const rounds = Array.from({ length: 5 }, () => Array.from({ length: 300 }, () => `shopOrder-${randomUUID()}`));
      const batch = (names: string[]): StreamWrite[] =>
        names.map((streamName) => ({ streamName, events: [event()], expectedVersion: 'no_stream' }));

      const outcomes = await Promise.all(
        rounds.map((names) =>
          Promise.allSettled([store.appendMany(batch(names)), store.appendMany(batch([...names].reverse()))]),
        ),
      );

      for (const pair of outcomes) {
        expect(pair.filter((o) => o.status === 'fulfilled')).to.have.length(1);
        expect(
          pair.filter((o) => o.status === 'rejected' && o.reason instanceof WrongExpectedVersionError),
        ).to.have.length(1);
      }
    });
  });

  it('applies several writes to one stream within a batch in order, whatever their expected versions', async () => {
    const pool = `voucherPool-${randomUUID()}`;
    const results = await store.appendMany([
      { streamName: pool, events: [event(), event()], expectedVersion: 'no_stream' },
      { streamName: pool, events: [event()], expectedVersion: 1 },
      { streamName: pool, events: [event()], expectedVersion: 'stream_exists' },
      { streamName: `order-${randomUUID()}`, events: [event()], expectedVersion: 'any' },
      { streamName: pool, events: [event(), event()], expectedVersion: 'any' },
    ]);

    expect(results.map((r) => r.nextExpectedVersion)).to.deep.equal([1, 2, 3, 0, 5]);
    expect((await store.readStream(pool)).map((e) => e.revision)).to.deep.equal([0, 1, 2, 3, 4, 5]);
  });

  it('checks a later write to a stream against the revision the earlier writes of the batch left it at', async () => {
    const pool = `voucherPool-${randomUUID()}`;
    await store.append(pool, [event()], 'no_stream');

    const error = await store
      .appendMany([
        { streamName: pool, events: [event(), event()], expectedVersion: 0 },
        { streamName: pool, events: [event()], expectedVersion: 'no_stream' },
      ])
      .then(
        () => undefined,
        (e: unknown) => e,
      );

    expect(error).to.be.instanceOf(WrongExpectedVersionError);
    expect([(error as WrongExpectedVersionError).expected, (error as WrongExpectedVersionError).actual]).to.deep.equal([
      'no_stream',
      2,
    ]);
    expect(await store.readStream(pool)).to.have.length(1);
  });

  it('reports a wrong expected version rather than an event id stored elsewhere when both are wrong', async () => {
    const taken = event();
    await store.append(`order-${randomUUID()}`, [taken], 'no_stream');

    const error = await store.append(`order-${randomUUID()}`, [taken], 'stream_exists').then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).to.be.instanceOf(WrongExpectedVersionError);
    expect((error as WrongExpectedVersionError).actual).to.equal(-1);
  });

  it('refuses an event id already stored in another stream', async () => {
    const shared = event();
    const first = `order-${randomUUID()}`;
    await store.append(first, [shared], 'no_stream');

    const attempt = store.append(`order-${randomUUID()}`, [shared], 'any');

    const error = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(DuplicateEventIdError);
    expect((error as DuplicateEventIdError).streamName).to.equal(first);
  });

  it('refuses an event id already stored in the same stream at another revision', async () => {
    const stream = `order-${randomUUID()}`;
    const given = event();
    await store.append(stream, [given], 'no_stream');

    const error = await store.append(stream, [given], 0).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).to.be.instanceOf(DuplicateEventIdError);
    expect(await store.readStream(stream)).to.have.length(1);
  });

  it('keeps events append-only', async () => {
    const stream = `order-${randomUUID()}`;
    await store.append(stream, [event()], 'no_stream');

    const change = db.knex.raw('UPDATE events SET type = ? WHERE stream_name = ?', ['Forged', stream]);
    const removal = db.knex.raw('DELETE FROM events WHERE stream_name = ?', [stream]);

    for (const attempt of [change, removal]) {
      expect(
        await attempt.then(
          () => 'done',
          (e: Error) => e.message,
        ),
      ).to.match(/append-only/);
    }
  });

  it('documents every table and column of the event store for auditors', async () => {
    const { rows } = await db.knex.raw<{ rows: { table_name: string; column_name: string; comment: string | null }[] }>(
      `SELECT c.table_name, c.column_name, col_description(format('%I', c.table_name)::regclass, c.ordinal_position) AS comment
       FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name IN ('events', 'event_streams')`,
    );
    const tables = await db.knex.raw<{ rows: { comment: string | null }[] }>(
      `SELECT obj_description(t::regclass, 'pg_class') AS comment FROM unnest(ARRAY['events', 'event_streams']) AS t`,
    );

    expect(rows).to.have.length(12);
    expect(rows.filter((r) => !r.comment).map((r) => `${r.table_name}.${r.column_name}`)).to.deep.equal([]);
    expect(tables.rows.every((r) => r.comment)).to.equal(true);
  });

  it('is what createEventStore picks without an EventStoreDB connection string', () => {
    expect(createEventStore({ knex: db.knex })).to.be.instanceOf(PostgresEventStore);
  });
});
