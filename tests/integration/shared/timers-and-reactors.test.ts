/**
 * Stored timers and reactors (docs/process-managers.md) over real PostgreSQL and the relay: the schedule comes from
 * the log, the timer job fires due timers once (fenced by its lease), retries failures with backoff, and a new
 * process fires what an old one left; a reactor hears each event at least once and a poison event is dead-lettered.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import type { Reactor } from '../../../application/shared/reactor.js';
import type { DueTimer } from '../../../application/shared/timers.js';
import type { DomainEvent } from '../../../domain/shared/decider.js';
import { eventDecoder } from '../../../domain/shared/event-decoder.js';
import { createLogger } from '../../../infrastructure/shared/logger.js';
import { InProcessEventBus } from '../../../infrastructure/shared/messaging/in-process-event-bus.js';
import { Relay } from '../../../infrastructure/shared/messaging/relay.js';
import { ProjectionRunner } from '../../../infrastructure/shared/projection-runner.js';
import { reactorProjector } from '../../../infrastructure/shared/reactor-projector.js';
import { timerJob } from '../../../infrastructure/shared/timer-job.js';
import type { Projector } from '../../../projections/shared/projector.js';
import { timerProjector } from '../../../projections/shared/timers.js';
import { eventually, storePerTest } from '../fanout-support.js';

type ThingEvent =
  | { type: 'ThingScheduled'; data: { thingId: string; dueAt: string } }
  | { type: 'ThingDone'; data: { thingId: string } };

const decoder = eventDecoder<ThingEvent>({ ThingScheduled: { version: 1 }, ThingDone: { version: 1 } });
const table = 'test_timers';
const logger = createLogger('error');

const thingTimers = timerProjector<ThingEvent>({
  name: 'test-timers',
  table,
  version: 1,
  eventTypes: new Set(['ThingScheduled', 'ThingDone']),
  decoder,
  comment: 'Test timers: one per scheduled thing until it is done.',
  timersFor: (e) =>
    e.type === 'ThingScheduled'
      ? { schedule: [{ id: `${e.data.thingId}:due`, kind: 'thing-due', dueAt: e.data.dueAt, payload: e.data }] }
      : { cancel: [`${e.data.thingId}:due`] },
});

describe('stored timers and reactors (PostgreSQL, relay, projection runner)', function () {
  this.timeout(30_000);
  const world = storePerTest();
  const { stops } = world;

  async function fanOut(projectors: Projector[]) {
    const bus = new InProcessEventBus(world.store, world.db.knex, { redeliveryDelayMs: 20, pollIntervalMs: 30 });
    const relay = new Relay({ store: world.store, bus, knex: world.db.knex }, { pollIntervalMs: 20, retryDelayMs: 50 });
    const runner = new ProjectionRunner(
      { knex: world.db.knex, store: world.store, bus, projectors },
      { retryBackoffMs: 10, maxDeliveries: 3 },
    );
    await runner.start();
    relay.start();
    stops.push(async () => {
      await relay.stop();
      await runner.stop();
      await bus.close();
    });
  }

  const append = (thingId: string, event: ThingEvent) =>
    world.store.append(
      `thing-${thingId}`,
      [{ id: randomUUID(), type: event.type, data: event.data, metadata: { occurredAt: new Date().toISOString() } }],
      'any',
    );
  const pendingTimers = () => world.db.knex(table).whereNull('fired_at').orderBy('timer_id').pluck('timer_id');

  it('fires a due timer once, never a cancelled or future one, and a new job fires what an old one left', async () => {
    await fanOut([thingTimers]);
    await append('a', { type: 'ThingScheduled', data: { thingId: 'a', dueAt: '2030-01-01T10:00:00.000Z' } });
    await append('b', { type: 'ThingScheduled', data: { thingId: 'b', dueAt: '2030-01-01T10:00:00.000Z' } });
    await append('c', { type: 'ThingScheduled', data: { thingId: 'c', dueAt: '2030-01-02T10:00:00.000Z' } });
    await append('b', { type: 'ThingDone', data: { thingId: 'b' } });
    await eventually(async () => expect(await pendingTimers()).to.deep.equal(['a:due', 'c:due']));

    const clock = fixedClock('2030-01-01T09:59:59.000Z');
    const fired: DueTimer[] = [];
    const handlers = [{ kind: 'thing-due', fire: async (t: DueTimer) => void fired.push(t) }];
    const first = timerJob({ table, handlers, knex: world.db.knex, clock, logger, ownerId: 'first' });
    expect(await first.runOnce()).to.equal(0);
    clock.set('2030-01-01T10:00:00.000Z');
    expect(await first.runOnce()).to.equal(1);
    expect(await first.runOnce()).to.equal(0);
    expect(fired.map((t) => [t.id, t.kind, t.dueAt, t.payload.thingId])).to.deep.equal([
      ['a:due', 'thing-due', '2030-01-01T10:00:00.000Z', 'a'],
    ]);

    // Another process cannot fire while the first holds the lease; once it is released, it fires what is due.
    const second = timerJob({ table, handlers, knex: world.db.knex, clock, logger, ownerId: 'second' });
    clock.set('2030-01-03T00:00:00.000Z');
    expect(await second.runOnce()).to.equal(0);
    await first.stop();
    expect(await second.runOnce()).to.equal(1);
    expect(fired.map((t) => t.id)).to.deep.equal(['a:due', 'c:due']);
    expect(await pendingTimers()).to.deep.equal([]);
    await second.stop();
  });

  it('retries a failing timer with doubling backoff and records the error', async () => {
    await fanOut([thingTimers]);
    await append('x', { type: 'ThingScheduled', data: { thingId: 'x', dueAt: '2030-01-01T00:00:00.000Z' } });
    await eventually(async () => expect(await pendingTimers()).to.deep.equal(['x:due']));
    const clock = fixedClock('2030-01-01T00:00:00.000Z');
    let failures = 2;
    const attemptsSeen: number[] = [];
    const job = timerJob({
      table,
      knex: world.db.knex,
      clock,
      logger,
      backoffMs: 1000,
      handlers: [
        {
          kind: 'thing-due',
          fire: async (t) => {
            attemptsSeen.push(t.attempts);
            if (failures-- > 0) throw new Error('provider away');
          },
        },
      ],
    });
    stops.push(() => job.stop());
    expect(await job.runOnce()).to.equal(1);
    const row = await world.db.knex(table).where({ timer_id: 'x:due' }).first();
    expect(row).to.include({ attempts: 1, last_error: 'provider away', fired_at: null });
    expect(new Date(row.next_attempt_at).toISOString()).to.equal('2030-01-01T00:00:01.000Z');
    expect(await job.runOnce()).to.equal(0); // not before its backoff
    clock.advance(1000);
    expect(await job.runOnce()).to.equal(1); // fails again: the next wait is doubled
    const again = await world.db.knex(table).where({ timer_id: 'x:due' }).first();
    expect(new Date(again.next_attempt_at).toISOString()).to.equal('2030-01-01T00:00:03.000Z');
    clock.advance(2000);
    expect(await job.runOnce()).to.equal(1);
    expect(attemptsSeen).to.deep.equal([0, 1, 2]);
    expect(await pendingTimers()).to.deep.equal([]);
  });

  it('a reactor hears each of its events, in order, at least once, and a poison one is dead-lettered without stopping it', async () => {
    const heard: string[] = [];
    const reactor: Reactor<ThingEvent> = {
      name: 'things',
      eventTypes: new Set(['ThingScheduled']),
      decoder,
      react: async (e) => {
        if (e.type !== 'ThingScheduled') return;
        if (e.data.thingId === 'poison') throw new Error('cannot react');
        heard.push(`${e.data.thingId}@${e.streamName}`);
      },
    };
    await fanOut([reactorProjector(reactor as Reactor<DomainEvent>)]);
    for (const id of ['1', 'poison', '2']) {
      await append(id, { type: 'ThingScheduled', data: { thingId: id, dueAt: '2030-01-01T00:00:00.000Z' } });
      await append(id, { type: 'ThingDone', data: { thingId: id } });
    }
    // At least once: the batch holding the poison event is retried, so what came before it may be heard again.
    await eventually(async () => expect([...new Set(heard)]).to.deep.equal(['1@thing-1', '2@thing-2']));
    // The reactor hears an event inside the runner's transaction, so the dead letter commits a moment after.
    await eventually(async () =>
      expect(await world.db.knex('dead_letters').select('projector', 'event_type')).to.deep.equal([
        { projector: 'reactor-things', event_type: 'ThingScheduled' },
      ]),
    );
  });
});
