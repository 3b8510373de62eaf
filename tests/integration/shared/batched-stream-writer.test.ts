import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import sinon from 'sinon';
import { BatchDraft, DraftStreams, type StreamFamily } from '../../../application/shared/batch-draft.js';
import {
  BatchedStreamWriter,
  type BatchRules,
  type WriterJob,
} from '../../../application/shared/batched-stream-writer.js';
import { WrongExpectedVersionError, type StreamWrite } from '../../../application/shared/event-store.js';
import { HotStreams } from '../../../application/shared/hot-streams.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

/**
 * The batched stream writer on its own, with a toy aggregate over the real PostgreSQL store: a counter stream
 * (`counter-<id>`, hot, capped at `cap`) that every job adds to, and a receipt stream per job (`receipt-<id>`,
 * created with 'no_stream': one job's own stream, like the shop's guards).
 */
const cap = 100;

interface Counter {
  value: number;
}

interface AddJob extends WriterJob {
  counter: string;
  by: number;
  receipt: string;
  /** Counters prepare found without a stream. */
  absent: Set<string>;
}

class CounterDraft extends BatchDraft<AddJob> {
  readonly receipts: DraftStreams<string, null, AddJob>;
  readonly counters: DraftStreams<string, Counter, AddJob>;
  readonly streams: readonly DraftStreams<unknown, unknown, AddJob>[];

  constructor(world: CounterWorld, parent: CounterDraft | undefined) {
    super();
    this.receipts = new DraftStreams(world.receipts, parent?.receipts);
    this.counters = new DraftStreams<string, Counter, AddJob>(world.counters, parent?.counters);
    this.streams = [this.receipts, this.counters];
  }
}

class CounterWorld {
  readonly counters: HotStreams<string, Counter>;
  /** Receipt streams known to exist. */
  readonly taken = new Set<string>();
  /** Conflicts the writer attributed to a receipt stream, with the job it named. */
  readonly conflicts: { receipt: string; job: AddJob | undefined }[] = [];
  readonly receipts: StreamFamily<string, null, AddJob> = {
    streamName: (id) => `receipt-${id}`,
    stored: (id) => void this.taken.add(id),
    conflicted: (id, { job }) => {
      this.conflicts.push({ receipt: id, job });
      this.taken.add(id);
    },
    forget: () => undefined,
  };
  readonly writer: BatchedStreamWriter<AddJob, CounterDraft, { at: string }>;
  /** Every job prepared, by receipt. */
  readonly jobs = new Map<string, AddJob>();

  constructor(readonly store: PostgresEventStore) {
    this.counters = new HotStreams(store, {
      streamName: (id) => `counter-${id}`,
      initialState: { value: 0 },
      evolve: (s, e) => ({ value: s.value + (e.data as { by: number }).by }),
    });
    const rules: BatchRules<AddJob, CounterDraft, { at: string }> = {
      prepare: async (job) => {
        this.jobs.set(job.receipt, job);
        await this.counters.ensure(job.counter, job.absent);
        return undefined;
      },
      draft: (parent) => new CounterDraft(this, parent),
      begin: () => ({ at: new Date().toISOString() }),
      decide: (job, draft, { at }) => {
        if (this.taken.has(job.receipt)) return { kind: 'final', ok: false, value: new Error('receipt used') };
        if (draft.receipts.claims(job.receipt)) return { kind: 'again' };
        const base = this.counters.stateIn(draft.counters, job.counter, job.absent);
        if (base.state.value + job.by > cap)
          return { kind: 'refused', error: new Error('over the cap'), on: draft.counters, key: job.counter };
        const entry = draft.counters.entries.get(job.counter) ?? { ...base, events: [] };
        entry.state = { value: entry.state.value + job.by };
        entry.events.push({ id: randomUUID(), type: 'Added', data: { by: job.by }, metadata: { occurredAt: at } });
        draft.counters.entries.set(job.counter, entry);
        draft.receipts.entries.set(job.receipt, {
          revision: -1,
          state: null,
          events: [
            { id: randomUUID(), type: 'Receipted', data: { counter: job.counter }, metadata: { occurredAt: at } },
          ],
          job,
        });
        const value = entry.state.value;
        return { kind: 'write', value: () => value };
      },
      complete: async () => undefined,
    };
    this.writer = new BatchedStreamWriter(store, rules, { name: 'counter writer', maxAttempts: 5 });
  }

  add(counter: string, by: number, receipt: string = randomUUID()): Promise<number> {
    return this.writer.submit<number>({ counter, by, receipt, absent: new Set() });
  }

  async stored(counter: string): Promise<number> {
    const events = await this.store.readStream(`counter-${counter}`);
    return events.reduce((sum, e) => sum + (e.data as { by: number }).by, 0);
  }
}

describe('BatchedStreamWriter (a counter aggregate over PostgreSQL)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let world: CounterWorld;

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex);
  });
  beforeEach(() => {
    world = new CounterWorld(store);
  });
  afterEach(async () => {
    sinon.restore();
    await world.writer.stop();
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  const counterWrites = (writes: StreamWrite[]) => writes.filter((w) => w.streamName.startsWith('counter-'));

  it('given 60 concurrent jobs on one counter, when written, then they go in a few appendMany calls, each answered with the value it left', async () => {
    const counter = randomUUID();
    const appendMany = sinon.spy(store, 'appendMany');
    const answers = await Promise.all(Array.from({ length: 60 }, () => world.add(counter, 1)));

    expect([...answers].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(appendMany.callCount).to.be.within(1, 4);
    // Each call writes the counter once, with all of its batch's events, and one receipt per job.
    for (const { args } of appendMany.getCalls()) {
      const [writes] = args;
      expect(counterWrites(writes)).to.have.length(1);
      expect(writes).to.have.length(1 + counterWrites(writes)[0]!.events.length);
    }
    expect(await world.stored(counter)).to.equal(60);
    expect((await store.readStream(`counter-${counter}`)).map((e) => e.revision)).to.deep.equal(
      Array.from({ length: 60 }, (_, i) => i),
    );
  });

  it('given the batch decided from a stale cache, when the append conflicts on the shared counter, then every job is decided again on the caught-up state', async () => {
    const counter = randomUUID();
    await world.add(counter, 10);
    // Another process moves the counter behind the writer's back.
    await store.append(
      `counter-${counter}`,
      [{ id: randomUUID(), type: 'Added', data: { by: 5 }, metadata: { occurredAt: new Date().toISOString() } }],
      0,
    );
    const appendMany = sinon.spy(store, 'appendMany');
    const answers = await Promise.all([world.add(counter, 1), world.add(counter, 2)]);

    const first = await appendMany.firstCall.returnValue.catch((e: unknown) => e);
    expect(first).to.be.instanceOf(WrongExpectedVersionError).with.property('streamName', `counter-${counter}`);
    expect(world.conflicts, 'the counter is no one job’s').to.deep.equal([]);
    expect(
      [...world.jobs.values()].map((j) => j.attempts),
      'the two jobs of the batch that conflicted spent an attempt each',
    ).to.deep.equal([0, 1, 1]);
    expect(answers).to.deep.equal([16, 18]);
    expect(await world.stored(counter)).to.equal(18);
  });

  it('given a receipt another writer created, when the batch conflicts on it, then that job alone is decided again and the others are stored', async () => {
    const counter = randomUUID();
    const receipt = randomUUID();
    await store.append(
      `receipt-${receipt}`,
      [{ id: randomUUID(), type: 'Receipted', data: {}, metadata: { occurredAt: new Date().toISOString() } }],
      'no_stream',
    );
    const appendMany = sinon.spy(store, 'appendMany');
    const results = await Promise.allSettled([
      world.add(counter, 1),
      world.add(counter, 1, receipt),
      world.add(counter, 1),
    ]);

    expect(appendMany.callCount).to.equal(2);
    expect(world.conflicts).to.have.length(1);
    expect(world.conflicts[0]!.receipt).to.equal(receipt);
    expect(world.conflicts[0]!.job).to.include({ receipt, attempts: 1 });
    expect(
      [...world.jobs.values()].map((j) => j.attempts),
      'only the job whose receipt conflicted spent an attempt',
    ).to.deep.equal([0, 1, 0]);
    expect(results[1]).to.deep.include({ status: 'rejected' });
    expect((results[1] as PromiseRejectedResult).reason).to.have.property('message', 'receipt used');
    expect([results[0], results[2]].map((r) => r.status)).to.deep.equal(['fulfilled', 'fulfilled']);
    expect(await world.stored(counter)).to.equal(2);
  });

  it('given a write that keeps failing for one job, when its batch fails, then the jobs go again one by one and only that job fails', async () => {
    const counter = randomUUID();
    const poison = randomUUID();
    const appendMany = store.appendMany.bind(store);
    const sizes: number[] = [];
    sinon.stub(store, 'appendMany').callsFake(async (writes) => {
      sizes.push(writes.length);
      if (writes.some((w) => w.streamName === `receipt-${poison}`)) throw new Error('connection reset');
      return appendMany(writes);
    });
    const results = await Promise.allSettled([
      world.add(counter, 1),
      world.add(counter, 1),
      world.add(counter, 1, poison),
      world.add(counter, 1),
    ]);

    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).to.have.property('message', 'connection reset');
    expect(sizes[0], 'one batch: 4 receipts and the counter').to.equal(5);
    expect(sizes.slice(1), 'then alone: a receipt and the counter').to.deep.equal([2, 2, 2, 2]);
    expect(await world.stored(counter)).to.equal(3);
    expect(await world.counters.current(counter)).to.deep.equal({ value: 3 });
  });

  it('given a refusal decided from the cache, when another writer moved the counter meanwhile, then it is decided again on the stored state', async () => {
    const counter = randomUUID();
    await world.add(counter, cap);
    expect(await world.add(counter, 1).catch((e: Error) => e.message)).to.equal('over the cap');
    // Another process takes some back; this writer's cache still says the counter is full.
    await store.append(
      `counter-${counter}`,
      [{ id: randomUUID(), type: 'Added', data: { by: -10 }, metadata: { occurredAt: new Date().toISOString() } }],
      0,
    );
    expect(await world.add(counter, 1)).to.equal(cap - 9);
  });

  it('given jobs under way, when stopped, then they are answered first and new jobs are refused', async () => {
    const counter = randomUUID();
    const pending = Promise.all([world.add(counter, 1), world.add(counter, 1)]);
    await world.writer.stop();
    expect((await pending).sort()).to.deep.equal([1, 2]);
    expect(await world.add(counter, 1).catch((e: Error) => e.message)).to.equal('the counter writer is stopped');
  });
});
