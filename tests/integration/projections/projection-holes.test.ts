/**
 * A bus that gives some messages to someone else (a frozen lease holder's outstanding pull; issue 11, fault 3): the
 * projector notices the gap in the stream sequences and applies the skipped events from the event store, so its rows
 * equal a rebuild; the skipped message arriving late changes nothing.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { BusMessage, EventBus } from '../../../application/shared/event-bus.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { InProcessEventBus } from '../../../infrastructure/shared/messaging/in-process-event-bus.js';
import { Relay } from '../../../infrastructure/shared/messaging/relay.js';
import { ProjectionRunner } from '../../../infrastructure/shared/projection-runner.js';
import { reservationsProjector } from '../../../projections/shop/reservations.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import {
  appendNoise,
  appendStory,
  eventually,
  lastStoredPosition,
  readEverything,
  shopStory,
  storePerTest,
} from '../fanout-support.js';

const projectors = [reservationsProjector, voucherInventoryProjector];

const rowsOf = async (knex: Knex) => ({
  reservations: await knex('shop_reservations').orderBy('reservation_key'),
  inventory: await knex('shop_voucher_inventory').orderBy('pool_id'),
});

/**
 * The in-process bus as JetStream would deliver it to a holder that is not alone: every message carries its stream
 * sequence (its rank in the log), and the messages `steal` picks go to someone else: acked behind the runner's back,
 * never handed to it; `late` hands each one later, alone, as its redelivery would come.
 */
function sharedBus(
  inner: EventBus,
  store: PostgresEventStore,
  steal: (event: BusMessage['event']) => boolean,
  /**
   * As a consumer of one context's events is given them: only those of the context, each with `follows` (its
   * context's event before it in the log).
   */
  inContext?: (event: BusMessage['event']) => boolean,
) {
  const rank = new Map<string, number>();
  const follows = new Map<string, string>();
  const stolen: BusMessage[] = [];
  let handler: ((messages: BusMessage[]) => Promise<void>) | undefined;
  const sequenced = (m: BusMessage): BusMessage => ({
    event: m.event,
    deliveryCount: m.deliveryCount,
    sequence: rank.get(m.event.id),
    ...(follows.has(m.event.id) && { follows: follows.get(m.event.id) }),
    ack: () => m.ack(),
    nak: (delayMs?: number) => m.nak(delayMs),
    term: () => m.term(),
  });
  const bus: EventBus = {
    publish: (events) => inner.publish(events),
    lastPublishedPosition: () => inner.lastPublishedPosition(),
    close: () => inner.close(),
    consume: (options, h) => {
      handler = h;
      return inner.consume(options, async (messages) => {
        if (messages.some((m) => !rank.has(m.event.id))) {
          let before: string | undefined;
          (await readEverything(store)).forEach((e, i) => {
            rank.set(e.id, i + 1);
            if (!inContext?.(e)) return;
            if (before !== undefined) follows.set(e.id, before);
            before = e.position;
          });
        }
        const mine: BusMessage[] = [];
        for (const m of messages) {
          if (inContext && !inContext(m.event)) {
            await m.ack(); // filtered out by the server: never given to this consumer
            continue;
          }
          if (m.deliveryCount === 1 && steal(m.event)) {
            stolen.push(sequenced(m));
            await m.ack();
          } else mine.push(sequenced(m));
        }
        if (mine.length > 0) await h(mine);
      });
    },
  };
  return {
    bus,
    stolen,
    /** The stolen messages come back, one batch each, as redeliveries do (their acks go nowhere). */
    late: async () => {
      for (const m of stolen.splice(0))
        await handler!([{ ...m, deliveryCount: 2, ack: async () => {}, nak: async () => {}, term: async () => {} }]);
    },
  };
}

describe('ProjectionRunner: events the bus gave to someone else', function () {
  this.timeout(30_000);
  const world = storePerTest({ pollIntervalMs: 100 });
  const { stops } = world;

  /** A relay and a runner of the projectors on `bus`, stopped after the test. */
  const relayAndRun = async (bus: EventBus) => {
    const relay = new Relay({ store: world.store, bus, knex: world.db.knex }, { pollIntervalMs: 20, retryDelayMs: 50 });
    const runner = new ProjectionRunner(
      { knex: world.db.knex, store: world.store, bus, projectors },
      { retryBackoffMs: 10, batchSize: 4 },
    );
    await runner.start();
    relay.start();
    stops.push(async () => {
      await relay.stop();
      await runner.stop();
      await bus.close();
    });
    return runner;
  };

  /**
   * Both projectors' checkpoints reach the log's last event, with a few messages stolen; these coming late change
   * nothing; the rows equal a rebuild's and hold the pools of the stories.
   */
  const expectCaughtUpAsRebuilt = async (
    runner: ProjectionRunner,
    shared: Pick<ReturnType<typeof sharedBus>, 'late' | 'stolen'>,
    pools: number[],
  ) => {
    const last = await lastStoredPosition(world.db.knex);
    for (const name of ['shop-reservations', 'shop-voucher-inventory'])
      await eventually(async () =>
        expect((await world.db.knex('projection_checkpoints').where({ projector: name }).first()).position).to.equal(
          last,
        ),
      );
    expect(shared.stolen.length).to.be.greaterThan(2);
    const live = await rowsOf(world.db.knex);
    await shared.late();
    expect(await rowsOf(world.db.knex)).to.deep.equal(live);
    await runner.rebuild('shop-reservations');
    await runner.rebuild('shop-voucher-inventory');
    expect(await rowsOf(world.db.knex)).to.deep.equal(live);
    expect(live.inventory.map((r: { pool_id: number }) => r.pool_id)).to.deep.equal(pools);
  };

  it('applies them from the event world.store, and ends with the rows a rebuild makes', async () => {
    // Every third event of the stories goes elsewhere: holes at the start and in the middle of batches.
    let seen = 0;
    const shared = sharedBus(
      new InProcessEventBus(world.store, world.db.knex, { redeliveryDelayMs: 20, pollIntervalMs: 30 }),
      world.store,
      (event) => !event.streamName.startsWith('noise-') && ++seen % 3 === 0,
    );
    const runner = await relayAndRun(shared.bus);

    await appendStory(world.store, shopStory(8101));
    await appendStory(world.store, shopStory(8102));
    // The tail: a stolen last event shows no gap until something follows it (or its redelivery comes).
    await appendNoise(world.store, 1);
    await expectCaughtUpAsRebuilt(runner, shared, [8101, 8102]);
  });

  it('finds them by `follows` where the bus gives the projector one context’s events (sequences with gaps)', async () => {
    let seen = 0;
    let stealing = true;
    const shared = sharedBus(
      new InProcessEventBus(world.store, world.db.knex, { redeliveryDelayMs: 20, pollIntervalMs: 30 }),
      world.store,
      (event) => stealing && !event.streamName.startsWith('noise-') && ++seen % 3 === 0,
      (event) => !event.streamName.startsWith('noise-'),
    );
    const runner = await relayAndRun(shared.bus);

    await appendStory(world.store, shopStory(8201));
    await appendNoise(world.store, 2); // another context's: gaps in the sequences, no hole
    await appendStory(world.store, shopStory(8202));
    // The tail is not stolen: a stolen last event shows no hole until its context's next event comes.
    await eventually(() => expect(shared.stolen.length).to.be.greaterThan(2));
    stealing = false;
    await appendStory(world.store, shopStory(8203));
    await expectCaughtUpAsRebuilt(runner, shared, [8201, 8202, 8203]);
  });
});
