import { expect } from 'chai';
import sinon from 'sinon';
import type { RecordedEvent } from '../../../application/shared/event-store.js';
import { createKnex } from '../../../infrastructure/shared/database.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { InProcessEventBus } from '../../../infrastructure/shared/messaging/in-process-event-bus.js';
import { Relay } from '../../../infrastructure/shared/messaging/relay.js';
import { metricsRegistry } from '../../../infrastructure/shared/metrics.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { appendNoise, eventually } from '../fanout-support.js';

/** Ids of every event `bus.publish` was called with, in call order. */
function recordPublishes(bus: InProcessEventBus): string[] {
  const ids: string[] = [];
  const publish = bus.publish.bind(bus);
  sinon.stub(bus, 'publish').callsFake(async (events: RecordedEvent[]) => {
    await publish(events);
    ids.push(...events.map((e) => e.id));
  });
  return ids;
}

const fast = { pollIntervalMs: 20, retryDelayMs: 50 };

describe('Relay (in-process bus)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeEach(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex, { pollIntervalMs: 100 });
  });
  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it('publishes each event once, in order, across a restart', async () => {
    const before = await appendNoise(store, 5);
    const firstBus = new InProcessEventBus(store, db.knex);
    const first = recordPublishes(firstBus);
    const relay1 = new Relay({ store, bus: firstBus, knex: db.knex }, { ...fast, batchSize: 2 });
    relay1.start();
    await eventually(() => expect(first).to.have.length(5));
    await relay1.stop();

    const after = await appendNoise(store, 4);
    const secondBus = new InProcessEventBus(store, db.knex);
    const second = recordPublishes(secondBus);
    const relay2 = new Relay({ store, bus: secondBus, knex: db.knex }, fast);
    relay2.start();
    await eventually(() => expect(second).to.have.length(4));
    await relay2.stop();

    expect([...first, ...second]).to.deep.equal([...before, ...after].map((e) => e.id));
    expect(await metricsRegistry.getSingleMetricAsString('relay_position_info')).to.include(
      `position="${after[3]!.position}"`,
    );
  });

  it('lets one relay publish at a time; another takes over once the holder’s lease expires', async () => {
    const knexA = createKnex(db.url, 2);
    const busA = new InProcessEventBus(store, db.knex);
    const busB = new InProcessEventBus(store, db.knex);
    const publishedA = recordPublishes(busA);
    const publishedB = recordPublishes(busB);
    const relayA = new Relay({ store, bus: busA, knex: knexA }, { ...fast, ownerId: 'A', leaseTtlMs: 600 });
    relayA.start();
    await eventually(() => expect(relayA.active).to.equal(true));
    const relayB = new Relay({ store, bus: busB, knex: db.knex }, { ...fast, ownerId: 'B', leaseTtlMs: 600 });
    relayB.start();

    const early = await appendNoise(store, 3);
    await eventually(() => expect(publishedA).to.deep.equal(early.map((e) => e.id)));
    expect(relayB.active).to.equal(false);

    await knexA.destroy(); // A loses its database: it cannot renew, and cannot release
    await eventually(() => expect(relayB.active).to.equal(true));
    const { rows } = await db.knex.raw<{ rows: Array<{ owner_id: string }> }>(
      `SELECT owner_id FROM leases WHERE name = 'relay'`,
    );
    expect(rows[0]!.owner_id).to.equal('B');

    const late = await appendNoise(store, 2);
    await eventually(() => expect(publishedB).to.deep.equal(late.map((e) => e.id)));
    expect(publishedA).to.deep.equal(early.map((e) => e.id));
    await relayA.stop();
    await relayB.stop();
  });

  it('stops publishing when it loses its lease', async () => {
    const bus = new InProcessEventBus(store, db.knex);
    const published = recordPublishes(bus);
    const relay = new Relay({ store, bus, knex: db.knex }, { ...fast, leaseTtlMs: 300 });
    relay.start();
    await eventually(() => expect(relay.active).to.equal(true));
    await db
      .knex('leases')
      .where({ name: 'relay' })
      .update({ owner_id: 'intruder', expires_at: db.knex.raw(`now() + interval '1 hour'`) });
    await eventually(() => expect(relay.active).to.equal(false));

    await appendNoise(store, 3);
    await new Promise((resolve) => setTimeout(resolve, 300)); // several poll rounds
    expect(published).to.deep.equal([]);
    await relay.stop();
  });

  /** A relay B with a lease far longer than the test: it holds within 2 s only if A gave its lease up. */
  async function successorTakesOverAtOnce(): Promise<void> {
    const relayB = new Relay(
      { store, bus: new InProcessEventBus(store, db.knex), knex: db.knex },
      { ...fast, ownerId: 'B', leaseTtlMs: 60_000 },
    );
    relayB.start();
    await eventually(() => expect(relayB.active).to.equal(true), 2000);
    await relayB.stop();
  }

  it('hands its lease over at once when stopped', async () => {
    const relayA = new Relay(
      { store, bus: new InProcessEventBus(store, db.knex), knex: db.knex },
      { ...fast, ownerId: 'A', leaseTtlMs: 60_000 },
    );
    relayA.start();
    await eventually(() => expect(relayA.active).to.equal(true));
    await relayA.stop();
    await successorTakesOverAtOnce();
  });

  it('hands its lease over at once when stopped in its error loop (issue 11: its successor used to wait for expiry)', async () => {
    await appendNoise(store, 3);
    const failing = new InProcessEventBus(store, db.knex);
    failing.publish = async () => {
      throw new Error('broker down');
    };
    const relayA = new Relay({ store, bus: failing, knex: db.knex }, { ...fast, ownerId: 'A', leaseTtlMs: 60_000 });
    relayA.start();
    // It took the lease, failed to publish, and is retrying: the row names A while A holds nothing locally.
    await eventually(async () =>
      expect(await db.knex('leases').where({ name: 'relay', owner_id: 'A' }).first()).to.not.equal(undefined),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    await relayA.stop();
    await successorTakesOverAtOnce();
  });
});
