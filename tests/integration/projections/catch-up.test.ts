/**
 * A projector far behind catches up from the event store (docs/projections.md, "Catching up"): past the runner's
 * threshold it reads pages of the log instead of the bus's messages, its lag at /ready and /metrics says how far it
 * is and how fast that closes, and once near the head its consumer goes on after its checkpoint. Real NATS and
 * PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { EventBus } from '../../../application/shared/event-bus.js';
import { NatsEventBus } from '../../../infrastructure/shared/messaging/nats-event-bus.js';
import { Relay } from '../../../infrastructure/shared/messaging/relay.js';
import { metricsRegistry } from '../../../infrastructure/shared/metrics.js';
import { ProjectionRunner, type ProjectorStatus } from '../../../infrastructure/shared/projection-runner.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { requireNats } from '../../support/nats.js';
import {
  appendManyNoise,
  appendStory,
  cpuBoundProjector,
  eventually,
  lastStoredPosition,
  shopStory,
  storePerTest,
} from '../fanout-support.js';

describe('a projector far behind (real NATS and PostgreSQL)', function () {
  this.timeout(60_000);
  const world = storePerTest({ pollIntervalMs: 50 });
  let url: string;
  const streams: string[] = [];

  before(async function () {
    url = await requireNats(this);
  });
  after(async () => {
    const nc = await connect({ servers: url });
    const jsm = await jetstreamManager(nc);
    for (const stream of streams) await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
  });

  /** The bus, counting the messages it hands to the projectors. */
  function counted(bus: EventBus): { bus: EventBus; handed: () => number } {
    let handed = 0;
    return {
      handed: () => handed,
      bus: {
        publish: (events) => bus.publish(events),
        lastPublishedPosition: () => bus.lastPublishedPosition(),
        close: () => bus.close(),
        consume: (options, handler) =>
          bus.consume(options, (messages) => {
            handed += messages.length;
            return handler(messages);
          }),
      },
    };
  }

  /** Relays the store to the bus until the bus holds its last event. */
  async function relayEverything(bus: EventBus): Promise<void> {
    const relay = new Relay({ store: world.store, bus, knex: world.db.knex }, { pollIntervalMs: 20 });
    relay.start();
    const last = await lastStoredPosition(world.db.knex);
    await eventually(async () => expect(await bus.lastPublishedPosition()).to.equal(last), 30_000);
    await relay.stop();
  }

  it('reads the log from the store, says how fast its lag closes, and goes on from the bus after its checkpoint', async () => {
    const id = randomBytes(4).toString('hex');
    streams.push(`TEST_CATCH_UP_${id}`);
    const nats = await NatsEventBus.connect(url, { stream: `TEST_CATCH_UP_${id}`, subjectPrefix: `catch_${id}` });
    world.stops.push(() => nats.close());
    const projectors = [cpuBoundProjector('noise-far', 0.2), voucherInventoryProjector];
    const runnerOf = (bus: EventBus) =>
      new ProjectionRunner(
        { knex: world.db.knex, store: world.store, bus, projectors },
        { catchUpThreshold: 1000, metricsIntervalMs: 100, batchSize: 500 },
      );
    // Registered on the empty log, then 6,000 events behind: on the bus, and in the store.
    const first = runnerOf(nats);
    await first.start();
    await first.stop();
    for (let pool = 1; pool <= 20; pool++) await appendStory(world.store, shopStory(pool));
    await appendManyNoise(world.store, 6000);
    await relayEverything(nats);
    const last = await lastStoredPosition(world.db.knex);

    const { bus, handed } = counted(nats);
    const runner = runnerOf(bus);
    world.stops.push(() => runner.stop());
    const seen: ProjectorStatus[] = [];
    const shown: string[] = [];
    await runner.start();
    await eventually(async () => {
      seen.push(...(await runner.status()).filter((s) => s.projector === 'noise-far'));
      shown.push(await metricsRegistry.metrics());
      const rows = await world.db.knex('projection_checkpoints').pluck('position');
      expect(rows).to.deep.equal([last, last]);
    }, 45_000);

    // Through the store: the bus handed over a batch or two per projector, not the 6,000.
    expect(handed()).to.be.below(3000);
    expect(await world.db.knex('noise_noise_far').count({ n: '*' })).to.deep.equal([{ n: 6000 }]);
    // /ready's details said so, and how far it was and how fast it closed; /metrics too.
    const catchingUp = seen.filter((s) => s.catchingUp);
    expect(catchingUp.length, JSON.stringify(seen.slice(0, 5))).to.be.greaterThan(0);
    expect(catchingUp.some((s) => s.lagEvents! > 1000)).to.equal(true);
    expect(seen.some((s) => s.lagClosingPerSecond! > 0)).to.equal(true);
    expect(shown.some((text) => /^projection_catching_up\{projector="noise-far"\} 1$/m.test(text))).to.equal(true);
    const closing = shown.flatMap((text) => [
      ...text.matchAll(/^projection_lag_closing_events_per_second\{projector="noise-far"\} (\S+)$/gm),
    ]);
    expect(closing.some((m) => Number(m[1]) > 0)).to.equal(true);
    await eventually(async () =>
      expect((await runner.status()).find((s) => s.projector === 'noise-far')).to.deep.include({
        catchingUp: false,
        lagEvents: 0,
      }),
    );

    // The same rows as a rebuild from the store.
    const inventory = await world.db.knex('shop_voucher_inventory').orderBy('pool_id');
    expect(inventory).to.have.length(20);
    await runner.rebuild('shop-voucher-inventory');
    expect(await world.db.knex('shop_voucher_inventory').orderBy('pool_id')).to.deep.equal(inventory);

    // Caught up, it goes on from the bus: new events come through its consumer, none skipped, none twice.
    const before = handed();
    const relay = new Relay({ store: world.store, bus: nats, knex: world.db.knex }, { pollIntervalMs: 20 });
    relay.start();
    world.stops.push(() => relay.stop());
    await appendManyNoise(world.store, 30);
    const newest = await lastStoredPosition(world.db.knex);
    await eventually(async () =>
      expect(await world.db.knex('projection_checkpoints').pluck('position')).to.deep.equal([newest, newest]),
    );
    expect(await world.db.knex('noise_noise_far').count({ n: '*' })).to.deep.equal([{ n: 6030 }]);
    expect(handed() - before).to.be.at.least(60);
  });
});
