import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import sinon from 'sinon';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { BusMessage, EventBus } from '../../../application/shared/event-bus.js';
import type { RecordedEvent } from '../../../application/shared/event-store.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import {
  NatsEventBus,
  positionHeader,
  subjectFor,
  type NatsEventBusOptions,
} from '../../../infrastructure/shared/messaging/nats-event-bus.js';
import { Relay } from '../../../infrastructure/shared/messaging/relay.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { ProjectionRunner } from '../../../infrastructure/shared/projection-runner.js';
import { reservationsProjector } from '../../../projections/shop/reservations.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { requireNats } from '../../support/nats.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { appendNoise, appendStory, eventually, lastStoredPosition, shopStory } from '../fanout-support.js';

describe('NatsEventBus (real NATS JetStream)', () => {
  let url: string;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let db: TestDatabase;
  let store: PostgresEventStore;
  const streams: string[] = [];

  /** A bus on a stream and subject prefix of its own. */
  async function freshBus(
    options: Pick<NatsEventBusOptions, 'ackWaitMs' | 'fetchLingerMs' | 'contextOf' | 'filterByContext'> = {},
  ): Promise<{ bus: NatsEventBus; stream: string; subjectPrefix: string }> {
    const id = randomBytes(4).toString('hex');
    const stream = `TEST_EVENTS_${id}`;
    streams.push(stream);
    const bus = await NatsEventBus.connect(url, {
      stream,
      subjectPrefix: `test_${id}`,
      fetchExpiresMs: 1000,
      retryDelayMs: 50,
      ...options,
    });
    return { bus, stream, subjectPrefix: `test_${id}` };
  }

  async function inventoryRows() {
    return {
      pools: await db.knex('shop_voucher_inventory').orderBy('pool_id'),
      purchases: await db
        .knex('shop_user_pool_purchases')
        .select('merchant_id', 'user_id', 'pool_id', db.knex.raw('day::text AS day'), 'quantity')
        .orderBy(['pool_id', 'day']),
    };
  }

  /** Every message of the stream: [event id, position header]. */
  async function streamContents(stream: string): Promise<Array<[string, string]>> {
    const { state } = await jsm.streams.info(stream);
    const out: Array<[string, string]> = [];
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq });
      if (m) out.push([m.json<RecordedEvent>().id, m.header.get(positionHeader)]);
    }
    return out;
  }

  before(async function () {
    url = await requireNats(this);
    nc = await connect({ servers: url });
    jsm = await jetstreamManager(nc);
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex, { pollIntervalMs: 100 });
  });
  after(async () => {
    for (const stream of streams) await jsm?.streams.delete(stream).catch(() => undefined);
    await nc?.close();
    await store?.close();
    await db?.drop();
  });

  it('names subjects <prefix>.<context>.<category>.<type>, `_` for an event of no context', () => {
    expect(subjectFor('events', { streamName: 'voucherPool-42', type: 'VoucherStockReserved' }, 'shop')).to.equal(
      'events.shop.voucherPool.VoucherStockReserved',
    );
    expect(subjectFor('events', { streamName: 'order-M1-7', type: 'A.B' }, undefined)).to.equal('events._.order.A_B');
  });

  describe('consumers of one context', () => {
    const contextOf = (type: string) =>
      type.startsWith('Alpha') ? 'alpha' : type.startsWith('Beta') ? 'beta' : undefined;
    /** Six events of the log as alpha, beta, alpha, beta, shared, alpha. */
    const mixedEvents = async (tag: string): Promise<RecordedEvent[]> =>
      (await appendNoise(store, 6, tag)).map((e, i) => ({
        ...e,
        type: ['AlphaHappened', 'BetaHappened', 'AlphaHappened', 'BetaHappened', 'Shared', 'AlphaHappened'][i]!,
      }));
    const consumeAll = async (
      bus: NatsEventBus,
      eventTypes: ReadonlySet<string> | undefined,
      count: number,
      durableName = 'one-context',
    ) => {
      const got: BusMessage[] = [];
      const consumer = await bus.consume(
        { durableName, startAfter: null, batchSize: 100, ...(eventTypes && { eventTypes }) },
        async (messages: BusMessage[]) => {
          got.push(...messages);
          for (const m of messages) await m.ack();
        },
      );
      await eventually(() => expect(got).to.have.length(count));
      await consumer.stop();
      return got;
    };

    it('gives a consumer whose types are one context’s only that context’s events, each naming the one before it', async () => {
      const { bus, stream, subjectPrefix } = await freshBus({ contextOf, filterByContext: true });
      const events = await mixedEvents('onectx');
      await bus.publish(events.slice(0, 4));
      await bus.publish(events.slice(4));
      const alpha = await consumeAll(bus, new Set(['AlphaHappened']), 3);
      expect(alpha.map((m) => [m.event.id, m.follows])).to.deep.equal([
        [events[0]!.id, undefined],
        [events[2]!.id, events[0]!.position],
        [events[5]!.id, events[2]!.position],
      ]);
      // Types of two contexts: every event, and no follows (it speaks of one context's feed).
      const all = await consumeAll(bus, new Set(['AlphaHappened', 'BetaHappened']), 6, 'two-contexts');
      expect(all.map((m) => m.follows)).to.deep.equal(new Array(6).fill(undefined));
      // A bus that did not publish the context's last event names none before its next one.
      const restarted = await NatsEventBus.connect(url, { stream, subjectPrefix, contextOf, filterByContext: true });
      const more = await mixedEvents('onectx2');
      await restarted.publish([more[0]!, more[2]!]);
      const next = await consumeAll(bus, new Set(['AlphaHappened']), 2);
      expect(next.map((m) => [m.event.id, m.follows])).to.deep.equal([
        [more[0]!.id, undefined],
        [more[2]!.id, more[0]!.position],
      ]);
      await restarted.close();
      await bus.close();
    });

    it('recreates a consumer made without a filter at its ack floor with one, and loses nothing of its context', async () => {
      const { bus, stream, subjectPrefix } = await freshBus({ contextOf, filterByContext: true });
      const events = await mixedEvents('refilter');
      await bus.publish(events.slice(0, 2));
      expect((await consumeAll(bus, undefined, 2)).map((m) => m.event.id)).to.deep.equal(
        events.slice(0, 2).map((e) => e.id),
      );
      expect((await jsm.consumers.info(stream, 'one-context')).config.filter_subject ?? '').to.equal('');
      await bus.publish(events.slice(2));
      const alpha = await consumeAll(bus, new Set(['AlphaHappened']), 2);
      expect(alpha.map((m) => m.event.id)).to.deep.equal([events[2]!.id, events[5]!.id]);
      expect((await jsm.consumers.info(stream, 'one-context')).config.filter_subject).to.equal(
        `${subjectPrefix}.alpha.>`,
      );
      await bus.close();
    });
  });

  it('publishes in order with the position header, stores a re-published event once, and reports the last position', async () => {
    const { bus, stream } = await freshBus();
    const events = await appendNoise(store, 5, 'pub');
    expect(await bus.lastPublishedPosition()).to.equal(null);
    await bus.publish(events.slice(0, 3));
    await bus.publish(events.slice(1, 5)); // 1 and 2 again: deduplicated by Nats-Msg-Id
    expect(await streamContents(stream)).to.deep.equal(events.map((e) => [e.id, e.position]));
    expect(await bus.lastPublishedPosition()).to.equal(events[4]!.position);
    await bus.close();
  });

  it('relays each event once across a restart, also one after publishing but before any checkpoint', async () => {
    const { bus, stream } = await freshBus();
    const relayName = `relay-${randomBytes(4).toString('hex')}`;
    const events = await appendNoise(store, 6, 'relay');
    const from = (await store.readAll(null, 10_000)).findIndex((e) => e.id === events[0]!.id);
    const earlier = from > 0 ? await store.readAll(null, from) : [];
    // A relay that died right after publishing: the stream holds everything up to events[2].
    await bus.publish([...earlier, ...events.slice(0, 3)]);

    const published: string[] = [];
    const publish = bus.publish.bind(bus);
    sinon.stub(bus, 'publish').callsFake(async (batch: RecordedEvent[]) => {
      published.push(...batch.map((e) => e.id));
      await publish(batch);
    });
    const relay = new Relay({ store, bus, knex: db.knex }, { name: relayName, pollIntervalMs: 20, retryDelayMs: 50 });
    relay.start();
    await eventually(() => expect(published).to.include(events[5]!.id));
    await relay.stop();
    const more = await appendNoise(store, 2, 'relay');
    const restarted = new Relay(
      { store, bus, knex: db.knex },
      { name: relayName, pollIntervalMs: 20, retryDelayMs: 50 },
    );
    restarted.start();
    await eventually(() => expect(published).to.include(more[1]!.id));
    await restarted.stop();

    expect(published).to.deep.equal([...events.slice(3), ...more].map((e) => e.id));
    expect((await streamContents(stream)).map(([id]) => id)).to.deep.equal(
      [...earlier, ...events, ...more].map((e) => e.id),
    );
    await bus.close();
  });

  it('refuses a publish from a bus that did not see the stream’s last message (a relay that lost its lease)', async () => {
    const { bus: current, stream } = await freshBus();
    const zombie = await NatsEventBus.connect(url, {
      stream,
      subjectPrefix: (await jsm.streams.info(stream)).config.subjects[0]!.slice(0, -2),
    });
    const events = await appendNoise(store, 2, 'fence');
    await zombie.lastPublishedPosition();
    await current.publish([events[0]!]);
    let refused: unknown;
    await zombie.publish([events[1]!]).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(Error);
    expect((await streamContents(stream)).map(([id]) => id)).to.deep.equal([events[0]!.id]);
    await zombie.close();
    await current.close();
  });

  it('redelivers nak’ed messages before newer ones on a durable consumer', async () => {
    const { bus } = await freshBus();
    const events = await appendNoise(store, 4, 'nak');
    await bus.publish(events);
    const deliveries: Array<[string, number]> = [];
    let failedOnce = false;
    const consumer = await bus.consume(
      { durableName: 'nak-test', startAfter: null, batchSize: 10 },
      async (messages: BusMessage[]) => {
        for (const m of messages) deliveries.push([m.event.id, m.deliveryCount]);
        if (!failedOnce && messages.length === 4) {
          failedOnce = true;
          await messages[0]!.ack();
          for (const m of messages.slice(1)) await m.nak();
          return;
        }
        for (const m of messages) await m.ack();
      },
    );
    await eventually(() => expect(deliveries.filter(([, n]) => n === 2)).to.have.length(3));
    const id = (i: number) => events[i]!.id;
    expect(deliveries.filter(([, n]) => n === 2)).to.deep.equal([
      [id(1), 2],
      [id(2), 2],
      [id(3), 2],
    ]);
    await eventually(async () => expect(await consumer.pending()).to.equal(0));
    await consumer.stop();
    await bus.close();
  });

  it('hands a caught-up consumer the events that came within its linger as one batch, and each one when it lingers not', async () => {
    for (const fetchLingerMs of [300, 0]) {
      const { bus } = await freshBus({ fetchLingerMs });
      const batches: string[][] = [];
      const consumer = await bus.consume(
        { durableName: 'linger-test', startAfter: null, batchSize: 100 },
        async (messages: BusMessage[]) => {
          batches.push(messages.map((m) => m.event.id));
          for (const m of messages) await m.ack();
        },
      );
      // Caught up (nothing published yet); then three events, 20 ms apart (200 ms without a linger, so that each is
      // handled before the next comes), and later a fourth on its own.
      const events = await appendNoise(store, 4, `linger${fetchLingerMs}`);
      for (const event of events.slice(0, 3)) {
        await bus.publish([event]);
        await new Promise((resolve) => setTimeout(resolve, fetchLingerMs > 0 ? 20 : 200));
      }
      await eventually(() => expect(batches.flat()).to.have.length(3));
      await new Promise((resolve) => setTimeout(resolve, 600));
      await bus.publish([events[3]!]);
      await eventually(() => expect(batches.flat()).to.have.length(4));
      const ids = events.map((e) => e.id);
      if (fetchLingerMs > 0) expect(batches).to.deep.equal([ids.slice(0, 3), [ids[3]]]);
      else expect(batches).to.deep.equal(ids.map((id) => [id]));
      await eventually(async () => expect(await consumer.pending()).to.equal(0));
      await consumer.stop();
      await bus.close();
    }
  });

  it('acks cumulatively: one ack per batch up to the last message acked in order; a later ack after a nak acks nothing', async () => {
    const { bus, stream } = await freshBus();
    const events = await appendNoise(store, 6, 'ackall');
    await bus.publish(events);
    const deliveries: Array<[string, number]> = [];
    let batches = 0;
    const consumer = await bus.consume(
      { durableName: 'ack-all', startAfter: null, batchSize: 10 },
      async (messages: BusMessage[]) => {
        batches++;
        for (const m of messages) deliveries.push([m.event.id, m.deliveryCount]);
        if (batches === 1) {
          // 0 and 1 acked, 2 nak'ed, 3 acked after it: only 0 and 1 may count as acked.
          await messages[0]!.ack();
          await messages[1]!.ack();
          await messages[2]!.nak();
          await messages[3]!.ack();
          return; // 4 and 5 left unsettled: nak'ed by the consumer
        }
        for (const m of messages) await m.ack();
      },
    );
    await eventually(async () => expect(await consumer.pending()).to.equal(0));
    const info = await jsm.consumers.info(stream, 'ack-all');
    expect(info.config.ack_policy).to.equal('all');
    const id = (i: number) => events[i]!.id;
    // 2, 4 and 5 come again at once (nak'ed); 3 stays unacked until the next batch's ack covers it.
    await eventually(() =>
      expect(deliveries.filter(([, n]) => n > 1).map(([e]) => e)).to.include.members([id(2), id(4), id(5)]),
    );
    expect(deliveries.filter(([e, n]) => n > 1 && (e === id(0) || e === id(1)))).to.deep.equal([]);
    expect(info.ack_floor.stream_seq).to.equal(info.delivered.stream_seq);
    await consumer.stop();
    await bus.close();
  });

  it('recreates a consumer made with one-by-one acks at its ack floor, with cumulative acks, and loses nothing', async () => {
    const { bus, stream } = await freshBus();
    const events = await appendNoise(store, 4, 'explicit');
    await bus.publish(events);
    // As an earlier version made it: explicit acks, the first two events acked.
    await jsm.consumers.add(stream, { durable_name: 'was-explicit', ack_policy: AckPolicy.Explicit });
    const old = await (
      await jetstream(nc).consumers.get(stream, 'was-explicit')
    ).fetch({ max_messages: 2, expires: 1000 });
    for await (const m of old) m.ack();
    await nc.flush();
    const received: string[] = [];
    const consumer = await bus.consume(
      { durableName: 'was-explicit', startAfter: null, batchSize: 10 },
      async (messages: BusMessage[]) => {
        for (const m of messages) {
          received.push(m.event.id);
          await m.ack();
        }
      },
    );
    await eventually(() => expect(received).to.deep.equal([events[2]!.id, events[3]!.id]));
    expect((await jsm.consumers.info(stream, 'was-explicit')).config.ack_policy).to.equal('all');
    await consumer.stop();
    await bus.close();
  });

  it('parses each message once for the consumers of one bus: they get the same event, equal to the one published', async () => {
    const { bus } = await freshBus();
    const events = await appendNoise(store, 3, 'shared');
    await bus.publish(events);
    const received = new Map<string, RecordedEvent[]>();
    const consumers = await Promise.all(
      ['first', 'second'].map((name) =>
        bus.consume({ durableName: name, startAfter: null }, async (messages: BusMessage[]) => {
          received.set(name, [...(received.get(name) ?? []), ...messages.map((m) => m.event)]);
          await Promise.all(messages.map((m) => m.ack()));
        }),
      ),
    );
    await eventually(() =>
      expect([received.get('first')?.length, received.get('second')?.length]).to.deep.equal([3, 3]),
    );
    received.get('first')!.forEach((event, i) => expect(received.get('second')![i]).to.equal(event));
    expect(JSON.parse(JSON.stringify(received.get('first')))).to.deep.equal(JSON.parse(JSON.stringify(events)));
    for (const consumer of consumers) await consumer.stop();
    await bus.close();
  });

  for (const [when, poolA, poolB] of [
    ['after the commit, before the ack', 4301, 4302],
    ['before the commit', 4311, 4312],
  ] as const) {
    it(`${when === 'before the commit' ? 'redelivers a batch cut short before the commit to the restarted projector' : 'starts the restarted projector after a batch committed but cut short before the ack'}; its rows equal a rebuild's`, async () => {
      const id = randomBytes(4).toString('hex');
      const stream = `TEST_EVENTS_${id}`;
      const subjectPrefix = `test_${id}`;
      streams.push(stream);
      const dyingConnection = await connect({ servers: url });
      const dying = new NatsEventBus(dyingConnection, await jetstreamManager(dyingConnection), {
        stream,
        subjectPrefix,
        fetchExpiresMs: 1000,
      });
      await dying.ensureStream();
      const consumerPrefix = `p-${id}-`;
      const relayName = `relay-${id}`;
      let batches = 0;
      const cutShort: string[] = [];
      const crashing: EventBus = {
        publish: (events) => dying.publish(events),
        lastPublishedPosition: () => dying.lastPublishedPosition(),
        close: () => dying.close(),
        consume: (options, handler) =>
          dying.consume(options, async (messages) => {
            // Events of the log before this test are behind the checkpoint the runner starts from (its rebuild's).
            const fresh = messages.filter((m) => options.startAfter === null || m.event.position > options.startAfter);
            if (fresh.length === 0 || ++batches < 2) return handler(messages);
            cutShort.push(...fresh.map((m) => m.event.id));
            if (when !== 'before the commit')
              await handler(messages.map((m) => ({ ...m, ack: async () => undefined })));
            await dyingConnection.close(); // the process dies: nothing acked
          }),
      };
      const first = new ProjectionRunner(
        { knex: db.knex, store, bus: crashing, projectors: [voucherInventoryProjector] },
        { consumerPrefix, batchSize: 3 },
      );
      await first.start();
      await appendStory(store, shopStory(poolA));
      const relay = new Relay(
        { store, bus: dying, knex: db.knex },
        { name: relayName, pollIntervalMs: 20, retryDelayMs: 50 },
      );
      relay.start();
      await eventually(() => expect(batches).to.be.greaterThan(1));
      await relay.stop();
      await first.stop();
      await appendStory(store, shopStory(poolB)); // newer events the restarted consumer must not take first

      const bus = await NatsEventBus.connect(url, { stream, subjectPrefix, fetchExpiresMs: 1000, retryDelayMs: 50 });
      const delivered: string[] = [];
      const recording: EventBus = {
        publish: (events) => bus.publish(events),
        lastPublishedPosition: () => bus.lastPublishedPosition(),
        close: () => bus.close(),
        consume: (options, handler) =>
          bus.consume(options, (messages) => {
            delivered.push(...messages.map((m) => m.event.id));
            return handler(messages);
          }),
      };
      const restarted = new ProjectionRunner(
        { knex: db.knex, store, bus: recording, projectors: [voucherInventoryProjector] },
        { consumerPrefix, batchSize: 3 },
      );
      await restarted.start();
      const relay2 = new Relay(
        { store, bus, knex: db.knex },
        { name: relayName, pollIntervalMs: 20, retryDelayMs: 50 },
      );
      relay2.start();
      await eventually(async () => {
        const last = await lastStoredPosition(db.knex);
        expect(
          (await db.knex('projection_checkpoints').where({ projector: 'shop-voucher-inventory' }).first()).position,
        ).to.equal(last);
      });
      await relay2.stop();
      expect(cutShort).to.not.deep.equal([]);
      // The checkpoint decides where the restarted consumer starts: a batch committed is not given again.
      if (when === 'before the commit') expect(delivered).to.include.members(cutShort);
      else expect(delivered.filter((e) => cutShort.includes(e))).to.deep.equal([]);
      const live = await inventoryRows();
      await restarted.rebuild('shop-voucher-inventory');
      expect(await inventoryRows()).to.deep.equal(live);
      for (const poolId of [poolA, poolB]) {
        expect(live.pools.find((p: { pool_id: number }) => p.pool_id === poolId)).to.include({
          total_quantity: 15,
          sold_quantity: 2,
          remaining_quantity: 13,
        });
      }
      await restarted.stop();
      await bus.close();
    });
  }

  it('carries events end to end: store → relay → JetStream → projection row', async () => {
    const { bus } = await freshBus();
    const relay = new Relay(
      { store, bus, knex: db.knex },
      { name: `relay-${randomBytes(4).toString('hex')}`, pollIntervalMs: 20 },
    );
    const runner = new ProjectionRunner(
      { knex: db.knex, store, bus, projectors: [reservationsProjector] },
      { consumerPrefix: `p-${randomBytes(4).toString('hex')}-` },
    );
    await runner.start();
    relay.start();
    const story = shopStory(4242);
    await appendStory(store, story);
    const committedKey = (story[3]!.events[0]!.data as { reservationKey: string }).reservationKey;
    await eventually(async () => {
      const row = await db.knex('shop_reservations').where({ reservation_key: committedKey }).first();
      expect(row).to.include({ status: 'COMMITTED', order_id: `order-${committedKey}`, quantity: 2, amount: 2000 });
    });
    await relay.stop();
    await runner.stop();
    await bus.close();
  });
});
