/**
 * Where a JetStream consumer starts when it is created again (docs/projections.md, "Where a consumer starts"): after
 * its checkpoint, never before the sequence it was last created at, and never at 1 because nats-server 2.9 reports an
 * ack floor of 0 for a consumer created at a start sequence that has not acked yet. Real NATS and PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { BusMessage, EventBus } from '../../../application/shared/event-bus.js';
import type { RecordedEvent } from '../../../application/shared/event-store.js';
import { NatsEventBus } from '../../../infrastructure/shared/messaging/nats-event-bus.js';
import { ProjectionRunner } from '../../../infrastructure/shared/projection-runner.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { requireNats } from '../../support/nats.js';
import {
  appendNoise,
  appendStory,
  eventually,
  lastStoredPosition,
  readEverything,
  shopStory,
  storePerTest,
} from '../fanout-support.js';

describe('a JetStream consumer created again (real NATS and PostgreSQL)', () => {
  let url: string;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const streams: string[] = [];
  const world = storePerTest({ pollIntervalMs: 50 });

  before(async function () {
    url = await requireNats(this);
    nc = await connect({ servers: url });
    jsm = await jetstreamManager(nc);
  });
  after(async () => {
    for (const stream of streams) await jsm?.streams.delete(stream).catch(() => undefined);
    await nc?.close();
  });

  /** A stream and subject prefix of their own. */
  function freshStream(): { stream: string; subjectPrefix: string } {
    const id = randomBytes(4).toString('hex');
    streams.push(`TEST_EVENTS_${id}`);
    return { stream: `TEST_EVENTS_${id}`, subjectPrefix: `test_${id}` };
  }

  /** `count` events published to a fresh stream (stream sequence = index + 1), and a bus on it. */
  async function publishedLog(count: number) {
    const { stream, subjectPrefix } = freshStream();
    const bus = await NatsEventBus.connect(url, { stream, subjectPrefix, fetchExpiresMs: 1000, retryDelayMs: 50 });
    world.stops.push(() => bus.close());
    const events = await appendNoise(world.store, count, 'start');
    await bus.publish(events);
    return { bus, stream, events };
  }

  /** What a process that dies before acking leaves: the consumer created at `startSeq`, two messages delivered unacked. */
  async function consumerThatFailedBeforeAcking(stream: string, name: string, startSeq: number): Promise<void> {
    await jsm.consumers.add(stream, {
      durable_name: name,
      ack_policy: AckPolicy.All,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: startSeq,
    });
    const dying = await (await jetstream(nc).consumers.get(stream, name)).fetch({ max_messages: 2, expires: 1000 });
    const received = [];
    for await (const m of dying) received.push(m.seq); // received, never acked
    expect(received).to.deep.equal([startSeq, startSeq + 1]);
    const info = await jsm.consumers.info(stream, name);
    // The broker-side counter the consumer used to restart from reads 0 here (nats-server 2.9).
    expect([info.num_ack_pending, info.ack_floor.stream_seq]).to.deep.equal([2, 0]);
  }

  /** Consumes until `count` messages came, then a little longer (a replay would show), and stops. */
  async function consumeSome(
    bus: EventBus,
    options: { durableName: string; startAfter: string | null },
    count: number,
  ) {
    const got: RecordedEvent[] = [];
    const consumer = await bus.consume({ ...options, batchSize: 100 }, async (messages: BusMessage[]) => {
      got.push(...messages.map((m) => m.event));
      await Promise.all(messages.map((m) => m.ack()));
    });
    await eventually(() => expect(got.length).to.be.at.least(count));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await consumer.stop();
    return got;
  }

  it('creates a consumer without a checkpoint that failed before its first ack at the sequence it was created at, not at 1', async () => {
    const { bus, stream, events } = await publishedLog(10);
    await consumerThatFailedBeforeAcking(stream, 'no-checkpoint', 7);
    const got = await consumeSome(bus, { durableName: 'no-checkpoint', startAfter: null }, 4);
    expect(got.map((e) => e.id)).to.deep.equal(events.slice(6).map((e) => e.id));
  });

  it('creates a consumer right after its checkpoint: one that failed before acking, and a new one', async () => {
    const { bus, stream, events } = await publishedLog(10);
    await consumerThatFailedBeforeAcking(stream, 'behind-checkpoint', 4);
    const again = await consumeSome(bus, { durableName: 'behind-checkpoint', startAfter: events[7]!.position }, 2);
    expect(again.map((e) => e.id)).to.deep.equal(events.slice(8).map((e) => e.id));
    const fresh = await consumeSome(bus, { durableName: 'new-one', startAfter: events[4]!.position }, 5);
    expect(fresh.map((e) => e.id)).to.deep.equal(events.slice(5).map((e) => e.id));
    expect((await jsm.consumers.info(stream, 'new-one')).config.opt_start_seq).to.equal(6);
  });

  it('creates a projector’s consumer that failed again before acking right after the projector’s checkpoint, never at 1; nothing is lost', async () => {
    const { stream, subjectPrefix } = freshStream();
    const consumerPrefix = `p-${randomBytes(4).toString('hex')}-`;
    const durableName = `${consumerPrefix}${voucherInventoryProjector.name}`;
    const checkpoint = async (): Promise<string | null> =>
      (await world.db.knex('projection_checkpoints').where({ projector: voucherInventoryProjector.name }).first())
        ?.position ?? null;

    /**
     * One projector process on a connection of its own: its `crashAt`th batch is committed, then the process dies
     * before acking it (its connection closes). Answers the positions it was given and where its projector stood
     * when it started.
     */
    async function projectorProcess(crashAt: number, publish?: () => Promise<void>) {
      const connection = await connect({ servers: url });
      const bus = new NatsEventBus(connection, await jetstreamManager(connection), {
        stream,
        subjectPrefix,
        fetchExpiresMs: 1000,
        retryDelayMs: 50,
      });
      await bus.ensureStream();
      const given: string[] = [];
      let batches = 0;
      let died = false;
      const dying: EventBus = {
        publish: (events) => bus.publish(events),
        lastPublishedPosition: () => bus.lastPublishedPosition(),
        close: () => bus.close(),
        consume: (options, handler) =>
          bus.consume(options, async (messages) => {
            if (died) return;
            given.push(...messages.map((m) => m.event.position));
            if (++batches < crashAt) return handler(messages);
            await handler(messages.map((m) => Object.assign(Object.create(m) as BusMessage, { ack: async () => {} })));
            died = true;
            await connection.close();
          }),
      };
      const startedAfter = await checkpoint();
      const runner = new ProjectionRunner(
        { knex: world.db.knex, store: world.store, bus: dying, projectors: [voucherInventoryProjector] },
        { consumerPrefix, batchSize: 3, retryDelayMs: 50 },
      );
      await runner.start();
      await publish?.();
      await eventually(() => expect(died).to.equal(true));
      await runner.stop();
      if (!connection.isClosed()) await connection.close();
      return { given, startedAfter };
    }

    let log: RecordedEvent[] = [];
    const first = await projectorProcess(2, async () => {
      for (const poolId of [5101, 5102, 5103]) await appendStory(world.store, shopStory(poolId));
      // The global log shows an event once every older transaction on the server ended: wait for that.
      const last = await lastStoredPosition(world.db.knex);
      log = await eventually(async () => {
        const all = await readEverything(world.store);
        expect(all.at(-1)?.position).to.equal(last);
        return all;
      });
      const publisher = await NatsEventBus.connect(url, { stream, subjectPrefix });
      await publisher.publish(log);
      await publisher.close();
    });
    expect(first.startedAfter).to.equal(null);
    // The second process's consumer is created at a start sequence and dies before its first ack: its ack floor
    // reads 0, and the third process used to create it again at sequence 1 and be given the whole stream again.
    const second = await projectorProcess(1);
    const beforeThird = (await checkpoint())!;
    const bus = await NatsEventBus.connect(url, { stream, subjectPrefix, fetchExpiresMs: 1000, retryDelayMs: 50 });
    world.stops.push(() => bus.close());
    const thirdGiven: string[] = [];
    const recording: EventBus = {
      publish: (events) => bus.publish(events),
      lastPublishedPosition: () => bus.lastPublishedPosition(),
      close: () => bus.close(),
      consume: (options, handler) =>
        bus.consume(options, (messages) => {
          thirdGiven.push(...messages.map((m) => m.event.position));
          return handler(messages);
        }),
    };
    const third = new ProjectionRunner(
      { knex: world.db.knex, store: world.store, bus: recording, projectors: [voucherInventoryProjector] },
      { consumerPrefix, batchSize: 3, retryDelayMs: 50 },
    );
    world.stops.push(() => third.stop());
    await third.start();
    await eventually(async () => expect(await checkpoint()).to.equal(log.at(-1)!.position));

    // The third process was given what came after the checkpoint it started from, each message once (it used to be
    // given the whole stream again); the second, only messages after its own.
    expect(thirdGiven, 'third process').to.deep.equal(
      log.filter((e) => e.position > beforeThird).map((e) => e.position),
    );
    const afterFirst = log.filter((e) => e.position > second.startedAfter!).map((e) => e.position);
    expect(second.given, 'second process').to.deep.equal(afterFirst.slice(0, second.given.length));
    const checkpointSeq = log.findIndex((e) => e.position === beforeThird) + 1;
    expect((await jsm.consumers.info(stream, durableName)).config.opt_start_seq).to.equal(checkpointSeq + 1);

    // Nothing lost: the rows equal a rebuild's.
    const rows = () => world.db.knex('shop_voucher_inventory').orderBy('pool_id');
    const live = await rows();
    expect(live.map((r: { pool_id: number; sold_quantity: number }) => [r.pool_id, r.sold_quantity])).to.deep.equal([
      [5101, 2],
      [5102, 2],
      [5103, 2],
    ]);
    await third.rebuild(voucherInventoryProjector.name);
    expect(await rows()).to.deep.equal(live);
  });
});
