import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { Knex } from 'knex';
import type { EventBus } from '../../../application/shared/event-bus.js';
import { createKnex } from '../../../infrastructure/shared/database.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { InProcessEventBus } from '../../../infrastructure/shared/messaging/in-process-event-bus.js';
import { NatsEventBus } from '../../../infrastructure/shared/messaging/nats-event-bus.js';
import { Relay } from '../../../infrastructure/shared/messaging/relay.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { ProjectionRunner } from '../../../infrastructure/shared/projection-runner.js';
import { eventDecoder } from '../../../domain/shared/event-decoder.js';
import { shopEventSchemas } from '../../../domain/shop/event-decoder.js';
import { physical, type ProjectedEvent, type Projector } from '../../../projections/shared/projector.js';
import { reservationsProjector } from '../../../projections/shop/reservations.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { requireNats } from '../../support/nats.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { appendNoise, eventually, readEverything, shopStory, toAppend } from '../fanout-support.js';

/** The types of the events these tests append. */
const auditedTypes = new Set(['NoiseHappened', ...shopStory(0).flatMap((step) => step.events.map((e) => e.type))]);
const auditedEvents = eventDecoder({ ...shopEventSchemas, NoiseHappened: { version: 1 } });

/** Records every event it applies, with the runner that applied it: gaps, duplicates and order show in its rows. */
function auditProjector(runner: string, hold?: (event: ProjectedEvent) => Promise<void>): Projector {
  return {
    name: 'audit',
    version: 1,
    eventTypes: auditedTypes,
    decoder: auditedEvents,
    tables: [
      {
        name: 'applied_events',
        comment: 'Events the audit projector applied, in the order they were committed.',
        columns: { seq: 'Order of application.', event_id: 'Event id.', runner: 'Runner that applied it.' },
      },
    ],
    async createTables(knex, names) {
      await knex.schema.createTable(physical(names, 'applied_events'), (b) => {
        b.bigIncrements('seq');
        b.text('event_id').notNullable();
        b.text('runner').notNullable();
      });
    },
    async apply(trx, events, names) {
      for (const event of events) await hold?.(event);
      await trx(physical(names, 'applied_events')).insert(events.map((event) => ({ event_id: event.id, runner })));
    },
  };
}

/** A promise the test opens, and one that resolves when the first held event reaches it. */
function gate() {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const entered = new Promise<void>((resolve) => (reached = resolve));
  let armed = false;
  return {
    arm: () => (armed = true),
    open,
    entered,
    hold: async () => {
      if (!armed) return;
      reached();
      await opened;
    },
  };
}

async function applied(knex: Knex): Promise<Array<{ event_id: string; runner: string }>> {
  return knex('applied_events').select('event_id', 'runner').orderBy('seq');
}

/** Rows of the shop read models, ordered, as plain values. */
async function shopRows(knex: Knex) {
  return {
    reservations: await knex('shop_reservations').orderBy('reservation_key'),
    inventory: await knex('shop_voucher_inventory').orderBy('pool_id'),
    purchases: await knex('shop_user_pool_purchases')
      .select('merchant_id', 'user_id', 'pool_id', knex.raw('day::text AS day'), 'quantity')
      .orderBy(['pool_id', 'day']),
  };
}

/**
 * Appends from a few concurrent writers, noise and now and then a shop story,
 * until the returned function is called; it answers how many events were
 * appended. One event per append: PostgresEventStore.readAll orders the
 * events of one transaction by the text of their sequence numbers (…:10
 * before …:9), a store bug this test is not about.
 */
function keepAppending(store: PostgresEventStore): () => Promise<number> {
  let on = true;
  let pool = 9000;
  let appended = 0;
  const append = async (stream: string, event: Parameters<typeof toAppend>[0], expected: 'any' | 'no_stream') => {
    await store.append(stream, [toAppend(event)], expected);
    appended++;
  };
  const writer = async () => {
    for (let i = 0; on; i++) {
      if (i % 10 === 0) {
        for (const step of shopStory(pool++)) for (const event of step.events) await append(step.stream, event, 'any');
      } else await append(`load-${randomUUID()}`, { type: 'NoiseHappened', data: { i } }, 'no_stream');
    }
  };
  const writers = Promise.all([writer(), writer(), writer()]);
  return async () => {
    on = false;
    await writers;
    return appended;
  };
}

const shopProjectorNames = [reservationsProjector.name, voucherInventoryProjector.name];
const allProjectorNames = [...shopProjectorNames, 'audit'];
const everyProjector = allProjectorNames.join(',');

/** The projectors a runner holds the lease of, as one string (chai shows it whole). */
const leasesOf = (runner: ProjectionRunner) => allProjectorNames.filter((n) => runner.holds(n)).join(',');

/** Makes the buses of one test: each process of the test gets its own bus (connection), all on the same stream. */
type Buses = () => (knex: Knex, store: PostgresEventStore) => Promise<EventBus>;

function leaseSuite(
  kind: string,
  setUp: (ctx: Mocha.Context) => Promise<Buses>,
  tearDown: () => Promise<void> = async () => undefined,
) {
  describe(`ProjectionRunner lease (${kind})`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    let buses: Buses;
    let newBus: (knex: Knex, store: PostgresEventStore) => Promise<EventBus>;
    let consumerPrefix: string;
    let relayName: string;
    const processes: Array<{ stop(): Promise<void> }> = [];

    /**
     * One projector process (relay, bus and runner on a connection pool of
     * its own), as a second replica of ROLES=relay,projector would run. The
     * leases live 60 s: a takeover sooner than that is a release, not an expiry.
     */
    async function startProcess(
      name: string,
      options: { hold?: (event: ProjectedEvent) => Promise<void>; retryDelayMs?: number; leaseTtlMs?: number } = {},
    ) {
      const knex = createKnex(db.url, 4);
      const bus = await newBus(knex, store);
      const leaseTtlMs = options.leaseTtlMs ?? 60_000;
      const relay = new Relay(
        { store, bus, knex },
        { name: relayName, ownerId: name, pollIntervalMs: 20, retryDelayMs: 50, leaseTtlMs },
      );
      const runner = new ProjectionRunner(
        {
          knex,
          store,
          bus,
          projectors: [reservationsProjector, voucherInventoryProjector, auditProjector(name, options.hold)],
        },
        {
          ownerId: name,
          consumerPrefix,
          batchSize: 5,
          retryBackoffMs: 10,
          retryDelayMs: options.retryDelayMs ?? 50,
          leaseTtlMs,
        },
      );
      await runner.start();
      relay.start();
      let stopped: Promise<void> | undefined;
      const stop = () =>
        (stopped ??= (async () => {
          await relay.stop();
          await runner.stop();
          await bus.close();
          await knex.destroy();
        })());
      processes.push({ stop });
      return { runner, knex, stop };
    }

    /** Events the test appended so far. */
    let appended: number;
    async function append(count: number): Promise<void> {
      await appendNoise(store, count);
      appended += count;
    }

    /** Every projector's checkpoint is at the last of the `appended` events (the store shows an event only once no older transaction runs). */
    async function caughtUp(): Promise<void> {
      await eventually(async () => {
        const all = await readEverything(store);
        expect(all).to.have.length(appended);
        const rows = await db.knex('projection_checkpoints').whereIn('projector', allProjectorNames).pluck('position');
        expect(rows).to.deep.equal(allProjectorNames.map(() => all.at(-1)!.position));
      }, 30_000);
    }

    before(async function () {
      buses = await setUp(this);
    });
    after(tearDown);
    beforeEach(async () => {
      newBus = buses();
      db = await createTestDatabase();
      await migrate(db.knex);
      store = new PostgresEventStore(db.knex, { pollIntervalMs: 50 });
      const id = randomBytes(4).toString('hex');
      consumerPrefix = `p-${id}-`;
      relayName = `relay-${id}`;
      appended = 0;
    });
    afterEach(async () => {
      for (const p of processes.splice(0)) await p.stop();
      await store.close();
      await db.drop();
    });

    it('lets only the lease holder apply; when it stops under load the other takes over at once, without gaps or duplicates', async () => {
      const a = await startProcess('A');
      const b = await startProcess('B');
      expect(leasesOf(a.runner)).to.equal(everyProjector);
      expect(leasesOf(b.runner)).to.equal('');
      const leases = await db
        .knex('leases')
        .whereIn(
          'name',
          allProjectorNames.map((n) => consumerPrefix + n),
        )
        .pluck('owner_id');
      expect(leases).to.deep.equal(['A', 'A', 'A']);

      const stopLoad = keepAppending(store);
      await eventually(async () => expect(await applied(db.knex)).to.have.length.greaterThan(30));
      await a.stop(); // a clean restart under load: consumers stop, then the leases are released
      await eventually(() => expect(leasesOf(b.runner)).to.equal(everyProjector), 5000);
      await eventually(async () =>
        expect((await applied(db.knex)).filter((r) => r.runner === 'B')).to.have.length.greaterThan(30),
      );
      appended += await stopLoad();
      await caughtUp();

      const rows = await applied(db.knex);
      expect(rows.map((r) => r.event_id)).to.deep.equal((await readEverything(store)).map((e) => e.id));
      const firstOfB = rows.findIndex((r) => r.runner === 'B');
      expect(rows.slice(0, firstOfB).every((r) => r.runner === 'A')).to.equal(true);
      expect(rows.slice(firstOfB).every((r) => r.runner === 'B')).to.equal(true);
      expect(firstOfB).to.be.greaterThan(30);

      const live = await shopRows(db.knex);
      for (const name of shopProjectorNames) await b.runner.rebuild(name);
      expect(await shopRows(db.knex)).to.deep.equal(live);
      expect(live.inventory.length).to.be.greaterThan(5);
      expect(await db.knex('dead_letters')).to.deep.equal([]);
    });

    it('commits nothing once its lease is taken: the batch in flight is refused, and the new holder applies it once', async () => {
      const held = gate();
      const a = await startProcess('A', { hold: held.hold, retryDelayMs: 60_000 });
      const b = await startProcess('B');
      await append(3);
      await caughtUp();

      held.arm();
      await append(2);
      await held.entered; // A is applying a batch
      await db
        .knex('leases')
        .where({ name: `${consumerPrefix}audit` })
        .update({ expires_at: db.knex.raw('clock_timestamp()') }); // A's lease runs out before it commits
      await eventually(() => expect(b.runner.holds('audit')).to.equal(true));
      held.open();
      await eventually(() => expect(a.runner.holds('audit')).to.equal(false));

      await append(2);
      await caughtUp();
      const rows = await applied(db.knex);
      expect(rows.map((r) => r.event_id)).to.deep.equal((await readEverything(store)).map((e) => e.id));
      expect(rows.map((r) => r.runner)).to.deep.equal(['A', 'A', 'A', 'B', 'B', 'B', 'B']);
      expect(a.runner.holds(reservationsProjector.name)).to.equal(true); // the other projectors' leases were not touched
    });

    it('stops applying when it cannot renew its lease; the other takes over once it expires', async () => {
      const a = await startProcess('A', { leaseTtlMs: 3000 });
      const b = await startProcess('B', { leaseTtlMs: 3000 });
      expect(leasesOf(a.runner)).to.equal(everyProjector);
      await append(3);
      await caughtUp();
      const before = (await applied(db.knex)).length;
      await a.knex.destroy(); // A loses its database: it can neither renew nor commit nor release
      await eventually(() => expect(leasesOf(a.runner)).to.equal(''));

      await append(3);
      await eventually(() => expect(leasesOf(b.runner)).to.equal(everyProjector));
      await caughtUp();
      const rows = await applied(db.knex);
      expect(rows.map((r) => r.event_id)).to.deep.equal((await readEverything(store)).map((e) => e.id));
      expect(rows.slice(before).map((r) => r.runner)).to.deep.equal(['B', 'B', 'B']);
    });

    it('rebuilds only under the lease: the other runner refuses, and a rebuild whose lease is taken swaps nothing in', async () => {
      const held = gate();
      const a = await startProcess('A', { hold: held.hold, retryDelayMs: 60_000 });
      const b = await startProcess('B', { retryDelayMs: 60_000 });
      await append(3);
      await caughtUp();
      const refused = await b.runner.rebuild('audit').then(
        () => 'rebuilt',
        (error: Error) => error.message,
      );
      expect(refused).to.match(/applied by another runner/);

      held.arm();
      const rebuilt = a.runner.rebuild('audit').then(
        () => 'rebuilt',
        (error: Error) => error.message,
      );
      await held.entered; // replaying the store into generation 2
      await db
        .knex('leases')
        .where({ name: `${consumerPrefix}audit` })
        .update({ owner_id: 'intruder', expires_at: db.knex.raw(`clock_timestamp() + interval '1 hour'`) });
      held.open();
      expect(await rebuilt).to.match(/no longer held by A/);
      expect(await db.knex('projection_checkpoints').where({ projector: 'audit' }).first()).to.include({
        generation: 1,
      });
      expect((await applied(db.knex)).map((r) => r.runner)).to.deep.equal(['A', 'A', 'A']);
    });
  });
}

leaseSuite(
  'in-process bus',
  async () => () => async (knex, store) =>
    new InProcessEventBus(store, knex, { redeliveryDelayMs: 20, pollIntervalMs: 50 }),
);

const natsStreams: string[] = [];
let natsUrl: string | undefined;
leaseSuite(
  'NATS JetStream',
  async (ctx) => {
    const url = (natsUrl = await requireNats(ctx));
    return () => {
      const id = randomBytes(4).toString('hex');
      natsStreams.push(`TEST_LEASE_${id}`);
      return () =>
        NatsEventBus.connect(url, {
          stream: `TEST_LEASE_${id}`,
          subjectPrefix: `lease_${id}`,
          fetchExpiresMs: 1000,
          retryDelayMs: 50,
        });
    };
  },
  async () => {
    if (!natsUrl) return;
    const nc = await connect({ servers: natsUrl });
    const jsm = await jetstreamManager(nc);
    for (const stream of natsStreams.splice(0)) await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
  },
);
