import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import sinon from 'sinon';
import { fixedClock } from '../../../application/shared/clock.js';
import { newCommandContext } from '../../../application/shared/command-context.js';
import {
  handleCommand,
  nameBasedUuid,
  type CommandSpec,
  type KnownEvent,
} from '../../../application/shared/command-handler.js';
import { WrongExpectedVersionError, type StreamWrite } from '../../../application/shared/event-store.js';
import type { GuardClaim } from '../../../application/shared/guard-claims.js';
import { idempotencyStream } from '../../../application/shared/idempotency.js';
import { DomainError } from '../../../domain/shared/errors.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import {
  codeStream,
  codeUsed,
  context,
  counter,
  counterEvents,
  keyed,
  testEvents,
  type Add,
  type Added,
} from '../../support/counters.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

/** Adds `add` to `stream`, claiming `code` when given; a claim names its counter, so a stale one is taken over. */
const adding = (stream: string, add: number, code?: string): CommandSpec<Add, number, Added> => ({
  decider: counter,
  decoder: counterEvents,
  streamName: stream,
  command: (now) => ({ add, code, now }),
  claims: (events) =>
    events.flatMap((e): GuardClaim[] =>
      e.data.code
        ? [
            {
              streamName: codeStream(e.data.code),
              event: { type: 'CodeClaimed', data: { code: e.data.code, counter: stream } },
              lost: () => codeUsed(e.data.code!),
              claimant: (claim) => (claim.data as { counter: string }).counter,
            },
          ]
        : [],
    ),
});

describe('handleCommand: the write path of ordinary aggregates (PostgreSQL event store)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const clock = fixedClock('2026-03-01T00:00:00.000Z');
  let deps: { store: PostgresEventStore; clock: typeof clock; decoder: typeof testEvents };
  const stream = () => `counter-${randomUUID()}`;

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex);
    deps = { store, clock, decoder: testEvents };
  });
  after(async () => {
    await store.close();
    await db.drop();
  });
  afterEach(() => sinon.restore());

  it('derives the same version 5 UUID from the same name only', () => {
    expect(nameBasedUuid('a')).to.equal(nameBasedUuid('a'));
    expect(nameBasedUuid('a')).not.to.equal(nameBasedUuid('b'));
    expect(nameBasedUuid('a')).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  describe('load, decide, append', () => {
    it('answers the state after the events, with ids from the command id and the time from the clock', async () => {
      const s = stream();
      const result = await handleCommand(deps, context('c1'), adding(s, 3));
      expect(result).to.deep.equal({
        state: 3,
        revision: 0,
        events: [{ type: 'Added', data: { amount: 3, at: '2026-03-01T00:00:00.000Z' } }],
        replayed: false,
      });
      const [stored] = await store.readStream(s);
      expect(stored!.id).to.equal(nameBasedUuid(`c1/${s}/0`));
    });

    it('with keepRecorded, answers the stream as it stands after the command: what it decided on and what it appended', async () => {
      const s = stream();
      await handleCommand(deps, context('k1'), adding(s, 2));
      const read = await store.readStream(s);
      const result = await handleCommand(
        deps,
        context('k2'),
        { ...adding(s, 3), recorded: read },
        { keepRecorded: true },
      );
      const stored = await store.readStream(s);
      const known = ({ id, streamName, type, schemaVersion, data, metadata, revision }: KnownEvent) => ({
        id,
        streamName,
        type,
        schemaVersion,
        data,
        metadata,
        revision,
      });
      expect(result.recorded!.map(known)).to.deep.equal(stored.map(known));
      // Handed to the next command: decided on without a read.
      const reads = sinon.spy(store, 'readStream');
      const next = await handleCommand(deps, context('k3'), { ...adding(s, 1), recorded: result.recorded });
      expect(next.state).to.equal(6);
      expect(reads.called).to.equal(false);
    });

    it('decides again on the stream as read when the events handed in lead to a refusal or to nothing (they may be stale)', async () => {
      const s = stream();
      await handleCommand(deps, context('r1'), adding(s, 2));
      // Handed a stale view (a stream at 9 taken for one at 2): the counter would refuse 3 more; as read it is 5.
      const stale = [{ ...(await store.readStream(s))[0]!, data: { amount: 9, at: 'then' } }];
      const result = await handleCommand(deps, context('r2'), { ...adding(s, 3), recorded: stale });
      expect(result.state).to.equal(5);
      // Deciding nothing on them is checked on a read too; a refusal on the stream as read stands.
      const reads = sinon.spy(store, 'readStream');
      await handleCommand(deps, context('r3'), { ...adding(s, 0), recorded: stale });
      expect(reads.callCount).to.equal(1);
      const refusal = await handleCommand(deps, context('r4'), { ...adding(s, 6), recorded: [] }).catch(
        (error: unknown) => error,
      );
      expect(refusal).to.have.property('code', 'LIMIT');
    });

    it('stamps every event with the command id, correlation, causation and request ids, the actor and the time', async () => {
      const s = stream();
      clock.set('2026-03-02T08:00:00.000Z');
      await handleCommand(
        deps,
        context('c2', { causationId: 'event-9', requestId: 'req-2', actor: { merchantId: 'm1', userId: 'u1' } }),
        adding(s, 1),
      );
      const [stored] = await store.readStream(s);
      expect(stored!.metadata).to.deep.equal({
        commandId: 'c2',
        correlationId: 'corr-c2',
        causationId: 'event-9',
        requestId: 'req-2',
        actor: { merchantId: 'm1', userId: 'u1' },
        occurredAt: '2026-03-02T08:00:00.000Z',
      });
      const request = newCommandContext({ actor: { operator: 'bob' }, requestId: 'req-3' });
      await handleCommand(deps, request, adding(s, 1));
      const [, second] = await store.readStream(s);
      expect(second!.metadata).to.deep.equal({
        commandId: request.commandId,
        correlationId: request.commandId,
        requestId: 'req-3',
        actor: { operator: 'bob' },
        occurredAt: '2026-03-02T08:00:00.000Z',
      });
    });

    it('writes nothing when the decider decides nothing, and lets domain errors through', async () => {
      const s = stream();
      expect(await handleCommand(deps, context('c3'), adding(s, 0))).to.deep.equal({
        state: 0,
        revision: -1,
        events: [],
        replayed: false,
      });
      await handleCommand(deps, context('c4'), adding(s, 11)).then(
        () => expect.fail('expected LIMIT'),
        (e: DomainError) => expect(e.code).to.equal('LIMIT'),
      );
      expect(await store.readStream(s)).to.deep.equal([]);
    });
  });

  describe('bounded retry', () => {
    it('decides again on fresh state when concurrent writers conflict', async () => {
      const s = stream();
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, (_, i) =>
          handleCommand(deps, context(`race-${i}`), adding(s, 3), { maxAttempts: 10 }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(3);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((refused.reason as DomainError).code).to.equal('LIMIT');
      expect(await store.readStream(s)).to.have.length(3);
    });

    it('gives up after maxAttempts with the conflict', async () => {
      const s = stream();
      await handleCommand(deps, context(`seed-${s}`), adding(s, 1));
      // Hold every read until all six have read, so all six decide on the same revision.
      let release!: () => void;
      const allRead = new Promise<void>((resolve) => (release = resolve));
      let reads = 0;
      const readStream = store.readStream.bind(store);
      sinon.stub(store, 'readStream').callsFake(async (...args) => {
        const events = await readStream(...args);
        if (++reads === 6) release();
        await allRead;
        return events;
      });
      const racing = Array.from({ length: 6 }, (_, i) =>
        handleCommand(deps, context(`once-${s}-${i}`), adding(s, 1), { maxAttempts: 1 }),
      );
      const results = await Promise.allSettled(racing);
      sinon.restore();
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
      expect(
        results.filter((r) => r.status === 'rejected' && r.reason instanceof WrongExpectedVersionError),
      ).to.have.length(5);
    });
  });

  describe('deterministic ids', () => {
    it('given a command carried out, when it is run again (a retried request), then it appends nothing and answers the first result', async () => {
      const s = stream();
      const first = await handleCommand(deps, context(`retry-${s}`), adding(s, 2));
      await handleCommand(deps, context(`other-${s}`), adding(s, 5));
      const again = await handleCommand(deps, context(`retry-${s}`), adding(s, 2));
      expect(again).to.deep.equal({ ...first, replayed: true });
      expect((await store.readStream(s)).map((e) => (e.data as { amount: number }).amount)).to.deep.equal([2, 5]);
    });
  });

  describe('guard claims', () => {
    it('writes the claim with the events, in one append, the claim first', async () => {
      const s = stream();
      const code = randomUUID();
      const appendMany = sinon.spy(store, 'appendMany');
      await handleCommand(deps, context(`claim-${s}`), adding(s, 1, code));
      const [writes] = appendMany.firstCall.args as [StreamWrite[]];
      expect(writes.map((w) => [w.streamName, w.expectedVersion])).to.deep.equal([
        [codeStream(code), 'no_stream'],
        [s, 'no_stream'],
      ]);
    });

    it('orders one append as: idempotency record, claims, side writes before, the stream, side writes after', async () => {
      const s = stream();
      const code = randomUUID();
      const key = randomUUID();
      const side = (name: string, placement: 'before' | 'after') => ({
        streamName: name,
        event: { type: 'Noted', data: {} },
        expectedVersion: 'any' as const,
        placement,
      });
      const appendMany = sinon.spy(store, 'appendMany');
      await handleCommand(deps, keyed(key, 'h'), {
        ...adding(s, 1, code),
        sideWrites: () => [side(`after-${s}`, 'after'), side(`before-${s}`, 'before')],
      });
      const [writes] = appendMany.firstCall.args as [StreamWrite[]];
      expect(writes.map((w) => w.streamName)).to.deep.equal([
        idempotencyStream({ scope: 'test', key }),
        codeStream(code),
        `before-${s}`,
        s,
        `after-${s}`,
      ]);
    });

    it("given a code claimed by another counter, refuses with the caller's error and writes nothing", async () => {
      const code = randomUUID();
      await handleCommand(deps, context(`holder-${code}`), adding(stream(), 1, code));
      const s = stream();
      await handleCommand(deps, context(`loser-${code}`), adding(s, 1, code)).then(
        () => expect.fail('expected CODE_USED'),
        (e: DomainError) => expect(e.code).to.equal('CODE_USED'),
      );
      expect(await store.readStream(s)).to.deep.equal([]);
      expect(await store.readStream(codeStream(code))).to.have.length(1);
    });

    it('lets exactly one of concurrent claims of one code win', async () => {
      const code = randomUUID();
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) =>
          handleCommand(deps, context(`race-${code}-${i}`), adding(stream(), 1, code)),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
      for (const r of results)
        if (r.status === 'rejected') expect((r.reason as DomainError).code).to.equal('CODE_USED');
    });

    it('given a claim whose counter was never written (a partial write), takes the claim over', async () => {
      const code = randomUUID();
      const orphan = stream();
      await store.append(
        codeStream(code),
        [{ id: randomUUID(), type: 'CodeClaimed', data: { code, counter: orphan }, metadata: { occurredAt: 'x' } }],
        'no_stream',
      );
      const s = stream();
      await handleCommand(deps, context(`takeover-${code}`), adding(s, 1, code));
      const claims = await store.readStream(codeStream(code));
      expect(claims.map((c) => (c.data as { counter: string }).counter)).to.deep.equal([orphan, s]);
      expect(await store.readStream(s)).to.have.length(1);
    });

    it("given this command's own claim stored without its events (a partial write), writes the events only", async () => {
      const code = randomUUID();
      const s = stream();
      const ctx = context(`partial-${code}`);
      const ownClaimId = nameBasedUuid(`${ctx.commandId}/${s}/${codeStream(code)}/0`);
      await store.append(
        codeStream(code),
        [{ id: ownClaimId, type: 'CodeClaimed', data: { code, counter: s }, metadata: { occurredAt: 'x' } }],
        'no_stream',
      );
      await handleCommand(deps, ctx, adding(s, 1, code));
      expect(await store.readStream(codeStream(code))).to.have.length(1);
      expect(await store.readStream(s)).to.have.length(1);
    });
  });

  describe('idempotency keys', () => {
    it('given a key used, when the same request is sent again, then it gets the first answer and nothing is appended', async () => {
      const s = stream();
      const key = randomUUID();
      const first = await handleCommand(deps, keyed(key, 'hash-1'), adding(s, 2));
      await handleCommand(deps, context(`between-${key}`), adding(s, 3));
      const again = await handleCommand(deps, keyed(key, 'hash-1'), adding(s, 2));
      expect(again).to.deep.equal({ ...first, replayed: true });
      expect(await store.readStream(s)).to.have.length(2);
      const [record] = await store.readStream(idempotencyStream({ scope: 'test', key }));
      expect(record!.data).to.deep.include({ key, requestHash: 'hash-1', streamName: s, fromRevision: 0, count: 1 });
    });

    it('answers a resend from the first events even when it would now be decided otherwise', async () => {
      const s = stream();
      const key = randomUUID();
      await handleCommand(deps, keyed(key, 'h'), adding(s, 6));
      await handleCommand(deps, context(`fill-${key}`), adding(s, 4));
      // 10 + 6 would be refused now; the resend is the first command, answered as it was.
      expect(await handleCommand(deps, keyed(key, 'h'), adding(s, 6))).to.deep.include({ state: 6, replayed: true });
    });

    it('given a key used, when another request is sent under it, then IDEMPOTENCY_KEY_REUSED and nothing is appended', async () => {
      const s = stream();
      const key = randomUUID();
      await handleCommand(deps, keyed(key, 'hash-1'), adding(s, 1));
      await handleCommand(deps, keyed(key, 'hash-2'), adding(s, 1)).then(
        () => expect.fail('expected IDEMPOTENCY_KEY_REUSED'),
        (e: DomainError) => expect(e.code).to.equal('IDEMPOTENCY_KEY_REUSED'),
      );
      expect(await store.readStream(s)).to.have.length(1);
    });

    it('of concurrent identical requests under one key, carries out one and answers all with its result', async () => {
      const key = randomUUID();
      // Each resend would create a counter of its own (as a creation with a fresh id does).
      const results = await Promise.all(
        Array.from({ length: 5 }, () => handleCommand(deps, keyed(key, 'same'), adding(stream(), 1))),
      );
      expect(results.filter((r) => !r.replayed)).to.have.length(1);
      expect(new Set(results.map((r) => JSON.stringify([r.state, r.events])))).to.have.property('size', 1);
      expect(await store.readStream(idempotencyStream({ scope: 'test', key }))).to.have.length(1);
    });

    it('given a key whose record was written without its events (a partial write), carries the command out', async () => {
      const key = randomUUID();
      await store.append(
        idempotencyStream({ scope: 'test', key }),
        [
          {
            id: randomUUID(),
            type: 'IdempotencyKeyUsed',
            data: {
              scope: 'test',
              key,
              requestHash: 'h',
              commandId: 'lost',
              streamName: stream(),
              fromRevision: 0,
              count: 1,
              usedAt: 'x',
            },
            metadata: { occurredAt: 'x' },
          },
        ],
        'no_stream',
      );
      const s = stream();
      expect(await handleCommand(deps, keyed(key, 'h'), adding(s, 4))).to.deep.include({ state: 4, replayed: false });
      expect(await store.readStream(idempotencyStream({ scope: 'test', key }))).to.have.length(2);
      expect(await handleCommand(deps, keyed(key, 'h'), adding(s, 4))).to.deep.include({ state: 4, replayed: true });
    });

    it('records a command that decided nothing, so a different request under its key is still refused', async () => {
      const s = stream();
      const key = randomUUID();
      expect(await handleCommand(deps, keyed(key, 'h'), adding(s, 0))).to.deep.include({ state: 0, replayed: false });
      expect(await handleCommand(deps, keyed(key, 'h'), adding(s, 0))).to.deep.include({ state: 0, replayed: true });
      await handleCommand(deps, keyed(key, 'other'), adding(s, 1)).then(
        () => expect.fail('expected IDEMPOTENCY_KEY_REUSED'),
        (e: DomainError) => expect(e.code).to.equal('IDEMPOTENCY_KEY_REUSED'),
      );
    });
  });
});
