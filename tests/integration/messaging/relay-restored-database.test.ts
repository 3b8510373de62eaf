/**
 * A database restored from an older backup while JetStream keeps the later events (issue 11, item 4): the relay finds
 * that the event log lacks the stream's last event and refuses to publish, loudly, instead of resuming after a
 * position the log will never reach in order; once the stream is deleted (the documented recovery), it republishes
 * the log by itself.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { metricsRegistry } from '../../../infrastructure/shared/metrics.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { NatsEventBus } from '../../../infrastructure/shared/messaging/nats-event-bus.js';
import { Relay } from '../../../infrastructure/shared/messaging/relay.js';
import { requireNats } from '../../support/nats.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { appendNoise, eventually } from '../fanout-support.js';

describe('Relay after a database restored behind the stream (real NATS)', function () {
  this.timeout(60_000);
  let url: string;
  let db: TestDatabase;
  let store: PostgresEventStore;
  const stream = `TEST_RESTORED_${randomBytes(4).toString('hex')}`;
  const stops: Array<() => Promise<void>> = [];

  before(async function () {
    url = await requireNats(this);
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex, { pollIntervalMs: 50 });
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
    const nc = await connect({ servers: url });
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
    await nc.close();
    await store?.close();
    await db?.drop();
  });

  async function relayOn() {
    const bus = await NatsEventBus.connect(url, { stream, subjectPrefix: `test_${stream.toLowerCase()}` });
    const relay = new Relay(
      { store, bus, knex: db.knex },
      { pollIntervalMs: 20, retryDelayMs: 50, blockedRecheckMs: 200 },
    );
    relay.start();
    stops.push(async () => {
      await relay.stop();
      await bus.close();
    });
    return { bus, relay };
  }

  it('refuses to publish while the log lacks the stream’s last event, and republishes once the stream is deleted', async () => {
    const [first, second, third] = await appendNoise(store, 3, 'restored');
    const one = await relayOn();
    await eventually(async () => expect(await one.bus.lastPublishedPosition()).to.equal(third!.position));
    await stops.pop()!();

    // The restore: the log loses its last event (the backup was taken before it), the stream keeps it.
    await db.knex.raw('ALTER TABLE events DISABLE TRIGGER events_append_only');
    await db.knex('events').where({ id: third!.id }).delete();
    await db.knex.raw('ALTER TABLE events ENABLE TRIGGER events_append_only');
    const [fourth] = await appendNoise(store, 1, 'restored');

    const two = await relayOn();
    await eventually(async () => expect(two.relay.blocked).to.include(third!.id));
    expect(await metricsRegistry.getSingleMetricAsString('relay_blocked')).to.match(/relay_blocked\{relay="relay"\} 1/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await two.bus.lastPublishedPosition(), 'nothing published meanwhile').to.equal(third!.position);

    const nc = await connect({ servers: url });
    await (await jetstreamManager(nc)).streams.delete(stream);
    await nc.close();
    await eventually(async () => {
      expect(two.relay.blocked).to.equal(undefined);
      expect(await two.bus.lastPublishedPosition()).to.equal(fourth!.position);
    }, 20_000);
    const republished = await two.bus.lastPublished!();
    expect(republished!.id).to.equal(fourth!.id);
    const check = await connect({ servers: url });
    const { state } = await (await jetstreamManager(check)).streams.info(stream);
    await check.close();
    expect(state.messages, 'the restored log, republished: first, second, fourth').to.equal(3);
    expect([first!.position, second!.position].every((p) => p < fourth!.position)).to.equal(true);
  });
});
