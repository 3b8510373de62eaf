import { expect } from 'chai';
import sinon from 'sinon';
import { handleCommand, nameBasedUuid } from '../../../application/shared/command-handler.js';
import { WrongExpectedVersionError } from '../../../application/shared/event-store.js';
import type { Decider, DomainEvent } from '../../../domain/shared/decider.js';
import { DomainError } from '../../../domain/shared/errors.js';
import { eventDecoder } from '../../../domain/shared/event-decoder.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

type Added = DomainEvent<'Added', { amount: number }>;
/** A counter that refuses to go above 10. */
const counter: Decider<{ add: number }, number, Added> = {
  initialState: 0,
  decide: (c, total) => {
    if (total + c.add > 10) throw new DomainError('LIMIT', 'over 10');
    return c.add === 0 ? [] : [{ type: 'Added', data: { amount: c.add } }];
  },
  evolve: (total, e) => total + e.data.amount,
};
const counterEvents = eventDecoder<Added>({ Added: { version: 1 } });

const context = (commandId: string) => ({ commandId, metadata: { occurredAt: '2026-03-01T00:00:00.000Z' } });

describe('handleCommand and nameBasedUuid', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex);
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  it('derives the same version 5 UUID from the same name only', () => {
    expect(nameBasedUuid('a')).to.equal(nameBasedUuid('a'));
    expect(nameBasedUuid('a')).not.to.equal(nameBasedUuid('b'));
    expect(nameBasedUuid('a')).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('loads, decides and appends, answering the state after the events', async () => {
    const result = await handleCommand(store, counter, counterEvents, 'counter-1', { add: 3 }, context('c1'));
    expect(result).to.deep.equal({ state: 3, revision: 0, events: [{ type: 'Added', data: { amount: 3 } }] });
    const [stored] = await store.readStream('counter-1');
    expect(stored!.id).to.equal(nameBasedUuid('c1/counter-1/0'));
  });

  it('writes nothing when the decider decides nothing, and lets domain errors through', async () => {
    expect(await handleCommand(store, counter, counterEvents, 'counter-2', { add: 0 }, context('c2'))).to.deep.equal({
      state: 0,
      revision: -1,
      events: [],
    });
    await handleCommand(store, counter, counterEvents, 'counter-2', { add: 11 }, context('c3')).then(
      () => expect.fail('expected LIMIT'),
      (e: DomainError) => expect(e.code).to.equal('LIMIT'),
    );
    expect(await store.readStream('counter-2')).to.deep.equal([]);
  });

  it('decides again on fresh state when concurrent writers conflict', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        handleCommand(store, counter, counterEvents, 'counter-3', { add: 3 }, context(`race-${i}`), {
          maxAttempts: 10,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(3);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as DomainError).code).to.equal('LIMIT');
    expect(await store.readStream('counter-3')).to.have.length(3);
  });

  it('gives up after maxAttempts with the conflict', async () => {
    await handleCommand(store, counter, counterEvents, 'counter-4', { add: 1 }, context('seed'));
    // Hold every read until all six have read, so all six decide on the same revision.
    let release!: () => void;
    const allRead = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    const readStream = store.readStream.bind(store);
    const stub = sinon.stub(store, 'readStream').callsFake(async (...args) => {
      const events = await readStream(...args);
      if (++reads === 6) release();
      await allRead;
      return events;
    });
    const racing = Array.from({ length: 6 }, (_, i) =>
      handleCommand(store, counter, counterEvents, 'counter-4', { add: 1 }, context(`once-${i}`), { maxAttempts: 1 }),
    );
    const results = await Promise.allSettled(racing);
    stub.restore();
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    expect(
      results.filter((r) => r.status === 'rejected' && r.reason instanceof WrongExpectedVersionError),
    ).to.have.length(5);
  });
});
