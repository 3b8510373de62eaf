/**
 * A fetch the NATS client cuts short on missed heartbeats (docs/projections.md, "Buses"): on a busy machine a fetch's
 * idle heartbeats, 500 ms apart, often come late, and the client ends the fetch with "heartbeats missed" while
 * messages are still coming. The consumer handles what it received and keeps going; before, it dropped the batch in
 * hand and created the consumer again at the same checkpoint, and under steady load a projector made no progress
 * (issue 31). The cut is the client's own, made at the edge: every fetch of more than two messages ends after two
 * with the client's error, the rest delivered by the server to a subscription that is gone, as in a real cut. Real
 * NATS and PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import sinon from 'sinon';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  JetStreamError,
  jetstream,
  jetstreamManager,
  type Consumer,
  type ConsumerMessages,
  type FetchOptions,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { createLogger } from '../../../infrastructure/shared/logger.js';
import { NatsEventBus } from '../../../infrastructure/shared/messaging/nats-event-bus.js';
import { ProjectionRunner } from '../../../infrastructure/shared/projection-runner.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { requireNats } from '../../support/nats.js';
import {
  appendStory,
  eventually,
  lastStoredPosition,
  readEverything,
  shopStory,
  storePerTest,
} from '../fanout-support.js';

/** The first `keep` messages of a real fetch, then the client's missed-heartbeats error; the real fetch is stopped. */
function cutAfter(real: ConsumerMessages, keep: number): ConsumerMessages {
  async function* messages(): AsyncGenerator<JsMsg> {
    let given = 0;
    for await (const m of real) {
      yield m;
      if (++given === keep) break;
    }
    real.stop();
    throw new JetStreamError('heartbeats missed');
  }
  return Object.assign(Object.create(real) as ConsumerMessages, {
    [Symbol.asyncIterator]: messages,
    stop: () => real.stop(),
  });
}

describe('a JetStream fetch cut short on missed heartbeats (real NATS and PostgreSQL)', function () {
  this.timeout(60_000);
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
  afterEach(() => sinon.restore());

  it('keeps what came and the consumer: a projector under fetches cut after two messages applies the whole log', async () => {
    const id = randomBytes(4).toString('hex');
    const stream = `TEST_EVENTS_${id}`;
    streams.push(stream);
    const logger = createLogger('warn');
    const warned = sinon.spy(logger, 'warn');
    const failed = sinon.spy(logger, 'error');
    const bus = await NatsEventBus.connect(url, {
      stream,
      subjectPrefix: `test_${id}`,
      fetchExpiresMs: 1000,
      retryDelayMs: 50,
      logger,
    });
    world.stops.push(() => bus.close());

    // Every fetch of more than two messages is cut after two, as the client cuts one whose heartbeats came late.
    await jsm.consumers.add(stream, { durable_name: 'probe', ack_policy: AckPolicy.All });
    const pullConsumer = Object.getPrototypeOf(await jetstream(nc).consumers.get(stream, 'probe')) as Consumer;
    const realFetch = pullConsumer.fetch;
    let cuts = 0;
    sinon.stub(pullConsumer, 'fetch').callsFake(async function (this: Consumer, options?: FetchOptions) {
      const real = await realFetch.call(this, options);
      if ((options?.max_messages ?? 1) <= 2) return real;
      cuts++;
      return cutAfter(real, 2);
    });

    const consumerPrefix = `cut-${id}-`;
    const runner = new ProjectionRunner(
      { knex: world.db.knex, store: world.store, bus, projectors: [voucherInventoryProjector], logger },
      { consumerPrefix, batchSize: 5, retryDelayMs: 50 },
    );
    world.stops.push(() => runner.stop());
    // Started on an empty log, so that what follows comes through the bus, not a rebuild from the store.
    await runner.start();
    for (const poolId of [6101, 6102, 6103]) await appendStory(world.store, shopStory(poolId));
    const last = await lastStoredPosition(world.db.knex);
    const log = await eventually(async () => {
      const all = await readEverything(world.store);
      expect(all.at(-1)?.position).to.equal(last);
      return all;
    });
    await bus.publish(log);
    const checkpoint = async () =>
      (await world.db.knex('projection_checkpoints').where({ projector: voucherInventoryProjector.name }).first())
        ?.position as string | null;
    await eventually(async () => expect(await checkpoint()).to.equal(log.at(-1)!.position), 20_000);

    expect(cuts).to.be.greaterThan(3);
    // No cut was taken for a failure of the consumer.
    expect(failed.args.map(([message]) => message)).to.deep.equal([]);
    const warnings = warned.args.map(([message]) => String(message));
    expect(warnings.filter((w) => w.includes('cut short'))).to.have.length(cuts);
    // What the server sent after a cut, to the subscription gone, came from the event store as a hole.
    expect(warnings.filter((w) => w.includes('the bus skipped events'))).to.not.deep.equal([]);
    // Nothing lost: the rows equal a rebuild's.
    const rows = () => world.db.knex('shop_voucher_inventory').orderBy('pool_id');
    const live = await rows();
    expect(live.map((r: { pool_id: number; sold_quantity: number }) => [r.pool_id, r.sold_quantity])).to.deep.equal([
      [6101, 2],
      [6102, 2],
      [6103, 2],
    ]);
    sinon.restore();
    await runner.rebuild(voucherInventoryProjector.name);
    expect(await rows()).to.deep.equal(live);
  });
});
