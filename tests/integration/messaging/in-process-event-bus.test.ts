import { expect } from 'chai';
import type { BusMessage } from '../../../application/shared/event-bus.js';
import type { RecordedEvent } from '../../../application/shared/event-store.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { InProcessEventBus } from '../../../infrastructure/shared/messaging/in-process-event-bus.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { appendNoise, eventually } from '../fanout-support.js';

describe('InProcessEventBus', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let events: RecordedEvent[];

  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex, { pollIntervalMs: 100 });
    events = await appendNoise(store, 12);
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  it('gives a consumer behind its buffer the store’s events first, then the buffered ones, in order', async () => {
    const bus = new InProcessEventBus(store, db.knex, { name: 'backfill', bufferSize: 3, pollIntervalMs: 50 });
    await bus.publish(events.slice(0, 5));
    await bus.publish(events.slice(5));
    const seen: string[] = [];
    const consumer = await bus.consume({ durableName: 'c', startAfter: null, batchSize: 4 }, async (messages) => {
      for (const m of messages) {
        seen.push(m.event.id);
        await m.ack();
      }
    });
    await eventually(() => expect(seen).to.deep.equal(events.map((e) => e.id)));
    await consumer.stop();
    await bus.close();
  });

  it('starts a consumer right after its startAfter position', async () => {
    const bus = new InProcessEventBus(store, db.knex, { name: 'start-after', pollIntervalMs: 50 });
    await bus.publish(events);
    const seen: string[] = [];
    const consumer = await bus.consume({ durableName: 'c', startAfter: events[7]!.position }, async (messages) => {
      for (const m of messages) {
        seen.push(m.event.id);
        await m.ack();
      }
    });
    await eventually(() => expect(seen).to.deep.equal(events.slice(8).map((e) => e.id)));
    expect(await consumer.pending()).to.equal(0);
    await bus.close();
  });

  it('redelivers nak’ed and unsettled messages before anything newer, counting deliveries', async () => {
    const bus = new InProcessEventBus(store, db.knex, { name: 'redeliver', redeliveryDelayMs: 10, pollIntervalMs: 50 });
    await bus.publish(events.slice(0, 4));
    const deliveries: Array<[string, number]> = [];
    let failedOnce = false;
    const consumer = await bus.consume(
      { durableName: 'c', startAfter: null, batchSize: 4 },
      async (messages: BusMessage[]) => {
        for (const m of messages) deliveries.push([m.event.id, m.deliveryCount]);
        if (!failedOnce) {
          failedOnce = true;
          await messages[0]!.ack();
          await messages[1]!.nak();
          return; // messages 2 and 3 left unsettled
        }
        for (const m of messages) await m.ack();
      },
    );
    await eventually(() => expect(deliveries).to.have.length(7));
    await bus.publish(events.slice(4, 6));
    await eventually(() => expect(deliveries).to.have.length(9));
    const id = (i: number) => events[i]!.id;
    expect(deliveries).to.deep.equal([
      [id(0), 1],
      [id(1), 1],
      [id(2), 1],
      [id(3), 1],
      [id(1), 2],
      [id(2), 2],
      [id(3), 2],
      [id(4), 1],
      [id(5), 1],
    ]);
    await consumer.stop();
    await bus.close();
  });

  it('keeps the last published position across a restart and ignores what it already published', async () => {
    const first = new InProcessEventBus(store, db.knex, { name: 'restart' });
    expect(await first.lastPublishedPosition()).to.equal(null);
    await first.publish(events.slice(0, 6));
    await first.close();

    const second = new InProcessEventBus(store, db.knex, { name: 'restart', pollIntervalMs: 50 });
    expect(await second.lastPublishedPosition()).to.equal(events[5]!.position);
    await second.publish(events.slice(3, 9));
    expect(await second.lastPublishedPosition()).to.equal(events[8]!.position);
    const seen: string[] = [];
    await second.consume({ durableName: 'c', startAfter: events[5]!.position }, async (messages) => {
      for (const m of messages) {
        seen.push(m.event.id);
        await m.ack();
      }
    });
    await eventually(() => expect(seen).to.deep.equal(events.slice(6, 9).map((e) => e.id)));
    await second.close();
  });
});
