import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { BusMessage, EventBus } from '../../../application/shared/event-bus.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { InProcessEventBus } from '../../../infrastructure/shared/messaging/in-process-event-bus.js';
import { Relay } from '../../../infrastructure/shared/messaging/relay.js';
import { metricsRegistry } from '../../../infrastructure/shared/metrics.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { ProjectionRunner } from '../../../infrastructure/shared/projection-runner.js';
import { eventDecoder, type EventDecoder } from '../../../domain/shared/event-decoder.js';
import type { DomainEvent } from '../../../domain/shared/decider.js';
import { physical, type ProjectedEvent, type Projector } from '../../../projections/shared/projector.js';
import { reservationsProjector } from '../../../projections/shop/reservations.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import {
  appendManyNoise,
  appendNoise,
  appendStory,
  cpuBoundProjector,
  eventually,
  lastStoredPosition,
  readEverything,
  shopStory,
  toAppend,
} from '../fanout-support.js';

const shopProjectors = [reservationsProjector, voucherInventoryProjector];

/** The bus, with every message's ack replaced for the batches `replaceAck` picks (batch numbers from 1). */
function withAcks(
  bus: EventBus,
  replaceAck: (batch: number, message: BusMessage) => (() => Promise<void>) | undefined,
): EventBus {
  let batches = 0;
  return {
    publish: (events) => bus.publish(events),
    lastPublishedPosition: () => bus.lastPublishedPosition(),
    close: () => bus.close(),
    consume: (options, handler) =>
      bus.consume(options, (messages) => {
        const batch = ++batches;
        return handler(
          messages.map((m) => ({
            event: m.event,
            deliveryCount: m.deliveryCount,
            ack: replaceAck(batch, m) ?? (() => m.ack()),
            nak: (delayMs?: number) => m.nak(delayMs),
            term: () => m.term(),
          })),
        );
      }),
  };
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

/** The test's own event type, as stored. */
const noiseEvents: EventDecoder<DomainEvent> = eventDecoder({ NoiseHappened: { version: 1 } });

describe('ProjectionRunner (in-process bus)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const running: Array<{ stop(): Promise<void> }> = [];

  async function startFanOut(
    projectors: Projector[],
    options: {
      bus?: EventBus;
      maxDeliveries?: number;
      batchSize?: number;
      checkpointDelayMs?: number;
      batchTimeMs?: number;
    } = {},
  ) {
    const bus = options.bus ?? new InProcessEventBus(store, db.knex, { redeliveryDelayMs: 20, pollIntervalMs: 50 });
    const relay = new Relay({ store, bus, knex: db.knex }, { pollIntervalMs: 20, retryDelayMs: 50 });
    const runner = new ProjectionRunner(
      { knex: db.knex, store, bus, projectors },
      {
        retryBackoffMs: 10,
        maxDeliveries: options.maxDeliveries,
        batchSize: options.batchSize,
        checkpointDelayMs: options.checkpointDelayMs,
        batchTimeMs: options.batchTimeMs,
      },
    );
    await runner.start();
    relay.start();
    const stop = async () => {
      await relay.stop();
      await runner.stop();
      await bus.close();
    };
    running.push({ stop });
    return { bus, relay, runner, stop };
  }

  const lastPosition = () => lastStoredPosition(db.knex);

  async function caughtUp(projector: string): Promise<void> {
    const last = await lastPosition();
    await eventually(async () =>
      expect((await db.knex('projection_checkpoints').where({ projector }).first()).position).to.equal(last),
    );
  }

  beforeEach(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex, { pollIntervalMs: 100 });
  });
  afterEach(async () => {
    for (const r of running.splice(0)) await r.stop();
    await store.close();
    await db.drop();
  });

  it('carries events end to end: store → relay → in-process bus → read models, and exports its lag', async () => {
    const { runner } = await startFanOut(shopProjectors);
    const story = shopStory(7001);
    await appendStory(store, story);
    await caughtUp('shop-reservations');
    await caughtUp('shop-voucher-inventory');

    const [committed, released] = [story[1]!, story[2]!].map(
      (s) => (s.events[0]!.data as { reservationKey: string }).reservationKey,
    );
    const rows = await shopRows(db.knex);
    expect(rows.inventory).to.have.length(1);
    expect(rows.inventory[0]).to.include({
      pool_id: 7001,
      campaign_id: 7,
      total_quantity: 15,
      reserved_quantity: 0,
      sold_quantity: 2,
      remaining_quantity: 13,
      deleted: false,
    });
    expect(rows.purchases).to.deep.equal([
      { merchant_id: 'M1', user_id: 'U1', pool_id: 7001, day: '2025-03-01', quantity: 2 },
    ]);
    const byKey: Record<string, { committed_at: Date }> = Object.fromEntries(
      rows.reservations.map((r: { reservation_key: string; committed_at: Date }) => [r.reservation_key, r]),
    );
    expect(byKey[committed]).to.include({
      status: 'COMMITTED',
      merchant_id: 'M1',
      user_id: 'U1',
      amount: 2000,
      currency: 'VND',
      item_count: 1,
      quantity: 2,
      released_at: null,
    });
    expect(byKey[committed].committed_at.toISOString()).to.equal('2025-03-01T10:05:00.000Z');
    expect(byKey[released]).to.include({ status: 'RELEASED', release_reason: 'USER_CANCELLED', committed_at: null });

    await runner.refreshMetrics();
    const metrics = await metricsRegistry.metrics();
    expect(metrics).to.match(/projection_lag_events\{projector="shop-reservations"\} 0/);
    expect(metrics).to.match(/projection_lag_seconds\{projector="shop-voucher-inventory"\} 0/);
    expect(metrics).to.include(
      `projection_last_applied_position_info{projector="shop-reservations",position="${await lastPosition()}"} 1`,
    );
  });

  it('changes nothing when an already applied batch is delivered again', async () => {
    const redelivered = new Set<string>();
    const bus = withAcks(
      new InProcessEventBus(store, db.knex, { redeliveryDelayMs: 20, pollIntervalMs: 50 }),
      (batch, message) => {
        if (message.deliveryCount > 1) redelivered.add(message.event.id);
        return batch <= 2 ? async () => undefined : undefined; // the first two batches are applied but never acked
      },
    );
    await startFanOut([voucherInventoryProjector], { bus, batchSize: 4 });
    await appendStory(store, shopStory(7002));
    await caughtUp('shop-voucher-inventory');
    await eventually(() => expect(redelivered.size).to.be.greaterThan(0));
    expect(await db.knex('shop_voucher_inventory')).to.have.length(1);
    expect(await db.knex('shop_voucher_inventory').first()).to.include({
      total_quantity: 15,
      reserved_quantity: 0,
      sold_quantity: 2,
      remaining_quantity: 13,
    });
    expect(await db.knex('shop_user_pool_purchases')).to.have.length(1);
    expect(await db.knex('shop_user_pool_purchases').first()).to.include({ quantity: 2 });
  });

  it('dead-letters an event that keeps failing and still applies the later ones', async () => {
    const story = shopStory(7003);
    const poisonKey = (story[1]!.events[0]!.data as { reservationKey: string }).reservationKey;
    const touchy: Projector = {
      ...reservationsProjector,
      async apply(trx, events, names) {
        for (const event of events) {
          if (
            event.type === 'ShopReservationPlaced' &&
            (event.data as { reservationKey: string }).reservationKey === poisonKey
          ) {
            await trx(physical(names, 'shop_reservations'))
              .insert({ reservation_key: 'half-written' })
              .catch(() => undefined);
            throw new Error('cannot project this one');
          }
          await reservationsProjector.apply(trx, [event], names);
        }
      },
    };
    await startFanOut([touchy], { maxDeliveries: 3 });
    await appendStory(store, story);
    await caughtUp('shop-reservations');

    const letters = await db.knex('dead_letters');
    expect(letters).to.have.length(1);
    expect(letters[0]).to.include({
      projector: 'shop-reservations',
      event_type: 'ShopReservationPlaced',
      delivery_count: 3,
    });
    expect(letters[0].error).to.include('cannot project this one');
    expect(letters[0].payload.data.reservationKey).to.equal(poisonKey);
    const rows = await db.knex('shop_reservations').select('reservation_key', 'status');
    expect(rows).to.have.length(1); // the released one; the poisoned reservation's later commit finds no row
    expect(rows[0].status).to.equal('RELEASED');
  });

  /**
   * A projector of NoiseHappened events: one row per event it applies; it
   * records each call (the events it was given, and the checkpoint and rows
   * committed then) and throws for the events `poisoned` picks.
   */
  function noiseRecorder(name: string, poisoned: (event: ProjectedEvent) => boolean = () => false) {
    const calls: Array<{ ids: string[]; checkpoint: string | null; rows: number }> = [];
    const projector: Projector = {
      name,
      version: 1,
      eventTypes: new Set(['NoiseHappened']),
      decoder: noiseEvents,
      tables: [{ name: 'noise_seen', comment: 'Noise events applied.', columns: { event_id: 'Event id.' } }],
      async createTables(knex, names) {
        await knex.schema.createTable(physical(names, 'noise_seen'), (b) => b.text('event_id').primary());
      },
      async apply(trx, events, names) {
        const checkpoint = await trx('projection_checkpoints').where({ projector: name }).first();
        const [{ n }] = await trx(physical(names, 'noise_seen')).count({ n: '*' });
        calls.push({ ids: events.map((e) => e.id), checkpoint: checkpoint.position, rows: Number(n) });
        if (events.some(poisoned)) throw new Error('cannot project this one');
        await trx(physical(names, 'noise_seen')).insert(events.map((e) => ({ event_id: e.id })));
      },
    };
    return { projector, calls };
  }

  /** Appends the events in one transaction (so the bus hands them over in one batch), each to a stream of its own; answers them as stored. */
  async function appendAtOnce(events: Array<{ type: string; data: unknown }>) {
    const writes = events.map((e) => ({
      streamName: `noise-${randomUUID()}`,
      events: [toAppend(e)],
      expectedVersion: 'no_stream' as const,
    }));
    await store.appendMany(writes);
    const ids = new Set(writes.map((w) => w.events[0]!.id));
    return eventually(async () => {
      const stored = (await readEverything(store)).filter((e) => ids.has(e.id));
      expect(stored).to.have.length(events.length);
      return stored;
    });
  }

  it('passes a projector only the event types it applies; the others move its checkpoint', async () => {
    const { projector, calls } = noiseRecorder('noise-only');
    await startFanOut([projector]);
    const stored = await appendAtOnce(
      [0, 1, 2, 3, 4, 5].map((i) => ({ type: i % 2 ? 'OtherHappened' : 'NoiseHappened', data: { i } })),
    );
    await caughtUp('noise-only');

    const noise = stored.filter((e) => e.type === 'NoiseHappened').map((e) => e.id);
    expect(calls.map((c) => c.ids)).to.deep.equal([noise]); // one call for the batch, without the others
    expect(await db.knex('noise_seen').orderBy('event_id').pluck('event_id')).to.deep.equal([...noise].sort());
    expect(stored.at(-1)!.type).to.equal('OtherHappened'); // the checkpoint reached the last event, one the projector ignores
    expect(await metricsRegistry.metrics()).to.include('projection_events_applied_total{projector="noise-only"} 3');
  });

  it('commits a batch whose events cost time in transactions of about batchTimeMs, not in one', async () => {
    let batches = 0;
    const bus = new InProcessEventBus(store, db.knex, { redeliveryDelayMs: 20, pollIntervalMs: 50 });
    const counting: EventBus = {
      publish: (events) => bus.publish(events),
      lastPublishedPosition: () => bus.lastPublishedPosition(),
      close: () => bus.close(),
      consume: (options, handler) =>
        bus.consume(options, (messages) => {
          if (messages.some((m) => m.event.type === 'NoiseHappened')) batches++;
          return handler(messages);
        }),
    };
    let commits = 0;
    const saw = (query: { sql: string; bindings?: unknown[] }) => {
      if (/^update "projection_checkpoints"/.test(query.sql) && query.bindings?.includes('noise-slow')) commits++;
    };
    await startFanOut([cpuBoundProjector('noise-slow', 1)], { bus: counting, batchTimeMs: 100 });
    db.knex.on('query', saw);
    try {
      await appendManyNoise(store, 600);
      await caughtUp('noise-slow');
    } finally {
      db.knex.off('query', saw);
    }
    // 600 ms of the projector's work: about six transactions, however few batches the bus made of them.
    expect(batches).to.be.at.least(1);
    expect(commits).to.be.at.least(batches + 3);
    expect(await db.knex('noise_noise_slow').count({ n: '*' })).to.deep.equal([{ n: 600 }]);
  });

  it('writes nothing for batches of events a projector does not handle: their checkpoint is saved once, later, or at stop', async () => {
    const { projector, calls } = noiseRecorder('noise-later');
    const rowPosition = async () =>
      ((await db.knex('projection_checkpoints').where({ projector: 'noise-later' }).first()) as { position: string })
        .position;
    const { runner, stop } = await startFanOut([projector], { checkpointDelayMs: 60_000 });
    const noise = await appendAtOnce([{ type: 'NoiseHappened', data: { i: 0 } }]);
    await caughtUp('noise-later');
    const saved = await rowPosition();
    expect(saved).to.equal(noise[0]!.position);

    // Three batches the projector does not handle: passed over in memory, the row untouched.
    for (let i = 0; i < 3; i++) await appendAtOnce([{ type: 'OtherHappened', data: { i } }]);
    const last = await lastPosition();
    await eventually(async () =>
      expect((await runner.status()).find((s) => s.projector === 'noise-later')?.position).to.equal(last),
    );
    expect(await rowPosition()).to.equal(saved);

    await stop(); // a clean stop saves where the runner got
    expect(await rowPosition()).to.equal(last);
    expect(calls).to.have.length(1);

    // Without a stop, the save comes after the delay; a restart from the row applies nothing twice.
    const { projector: again, calls: callsAgain } = noiseRecorder('noise-later');
    await startFanOut([again], { checkpointDelayMs: 50 });
    await appendAtOnce([{ type: 'OtherHappened', data: { i: 3 } }]);
    const newest = await lastPosition();
    await eventually(async () => expect(await rowPosition()).to.equal(newest));
    const more = await appendAtOnce([{ type: 'NoiseHappened', data: { i: 1 } }]);
    await caughtUp('noise-later');
    expect(callsAgain.map((c) => c.ids)).to.deep.equal([[more[0]!.id]]);
    expect(await db.knex('noise_seen').orderBy('event_id').pluck('event_id')).to.deep.equal(
      [noise[0]!.id, more[0]!.id].sort(),
    );
  });

  it('applies a batch with a poison event in it up to the poison, retries the poison alone, dead-letters it, then applies the rest', async () => {
    const poison = (e: ProjectedEvent) => (e.data as { i: number }).i === 3;
    const { projector, calls } = noiseRecorder('noise-poisoned', poison);
    await startFanOut([projector], { maxDeliveries: 3 });
    const stored = await appendAtOnce(
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({
        type: i === 1 || i === 6 ? 'OtherHappened' : 'NoiseHappened',
        data: { i },
      })),
    );
    await caughtUp('noise-poisoned');

    const [n0, , n2, n3, n4, n5, , n7] = stored;
    const noise = [n0!, n2!, n3!, n4!, n5!, n7!].map((e) => e.id);
    // The batch in one call; it threw, so each event alone: those before the poison are applied and committed.
    expect(calls.slice(0, 4).map((c) => c.ids)).to.deep.equal([noise, [n0!.id], [n2!.id], [n3!.id]]);
    const retries = calls.filter((c, i) => i > 3 && c.ids[0] === n3!.id);
    expect(retries.length).to.be.greaterThan(0);
    for (const retry of retries) expect(retry).to.deep.include({ checkpoint: n2!.position, rows: 2 });
    expect(calls.filter((c) => c.ids.length === 1 && c.ids[0] === n3!.id)).to.have.length(3); // delivered 3 times, then dead-lettered

    const letters = await db.knex('dead_letters');
    expect(letters).to.have.length(1);
    expect(letters[0]).to.include({ projector: 'noise-poisoned', event_id: n3!.id, delivery_count: 3 });
    expect(await db.knex('noise_seen').orderBy('event_id').pluck('event_id')).to.deep.equal(
      [n0!, n2!, n4!, n5!, n7!].map((e) => e.id).sort(),
    );
  });

  it('dead-letters an event no jsonb or text column accepts (NUL, a lone surrogate) and goes on', async () => {
    // The store keeps any JSON (events.data is json); a projector writing such a string to a text column fails.
    const textual: Projector = {
      name: 'noise-text',
      version: 1,
      eventTypes: new Set(['NoiseHappened']),
      decoder: noiseEvents,
      tables: [{ name: 'noise_text', comment: 'Texts of noise.', columns: { event_id: 'Event id.', text: 'Text.' } }],
      async createTables(knex, names) {
        await knex.schema.createTable(physical(names, 'noise_text'), (b) => {
          b.text('event_id').primary();
          b.text('text');
        });
      },
      async apply(trx, events, names) {
        await trx(physical(names, 'noise_text')).insert(
          events.map((e) => ({ event_id: e.id, text: (e.data as { text: string }).text })),
        );
      },
    };
    const before = await metricsRegistry.getSingleMetricAsString('projection_dead_letters_total');
    await startFanOut([textual], { maxDeliveries: 2 });
    const poison = 'nul \u0000 and \ud800 lone';
    const stored = await appendAtOnce([
      { type: 'NoiseHappened', data: { text: 'before' } },
      { type: 'NoiseHappened', data: { text: poison } },
      { type: 'NoiseHappened', data: { text: 'after' } },
    ]);
    await caughtUp('noise-text');

    const letters = await db.knex('dead_letters');
    expect(letters).to.have.length(1);
    expect(letters[0]).to.include({ projector: 'noise-text', event_id: stored[1]!.id, delivery_count: 2 });
    expect(letters[0].payload.data.text).to.equal(poison); // kept whole, as delivered
    expect(await db.knex('noise_text').orderBy('text').pluck('text')).to.deep.equal(['after', 'before']);
    expect(await metricsRegistry.getSingleMetricAsString('projection_dead_letters_total')).not.to.equal(before);
    expect(await metricsRegistry.getSingleMetricAsString('projection_dead_letters_total')).to.include(
      'projection_dead_letters_total{projector="noise-text"} 1',
    );
  });

  it('ends, after a crash between commit and ack and a restart, with the rows a rebuild makes', async () => {
    const killed = withAcks(
      new InProcessEventBus(store, db.knex, { redeliveryDelayMs: 20, pollIntervalMs: 50 }),
      (batch) => (batch === 2 ? async () => Promise.reject(new Error('process killed before the ack')) : undefined),
    );
    const first = await startFanOut(shopProjectors, { bus: killed, batchSize: 3 });
    await appendStory(store, shopStory(7004));
    await eventually(async () =>
      expect((await db.knex('projection_checkpoints').whereNotNull('position')).length).to.equal(2),
    );
    await first.stop();

    await appendStory(store, shopStory(7005));
    const restarted = await startFanOut(shopProjectors, { batchSize: 3 });
    await caughtUp('shop-reservations');
    await caughtUp('shop-voucher-inventory');
    const live = await shopRows(db.knex);
    await restarted.runner.rebuild('shop-reservations');
    await restarted.runner.rebuild('shop-voucher-inventory');
    expect(await shopRows(db.knex)).to.deep.equal(live);
    expect(live.inventory.map((r: { pool_id: number }) => r.pool_id)).to.deep.equal([7004, 7005]);
  });

  it('serves the old rows while a rebuild fills new tables, then swaps them in at once', async () => {
    const counter = (version: number, gate?: Promise<void>): Projector => ({
      name: 'noise-counter',
      version,
      eventTypes: new Set(['NoiseHappened']),
      decoder: noiseEvents,
      tables: [
        {
          name: 'noise_counts',
          comment: 'Noise events seen.',
          columns: { id: 'Always 1.', seen: 'Events counted.', counted_by: 'Projector version.' },
        },
      ],
      async createTables(knex, names) {
        await knex.schema.createTable(physical(names, 'noise_counts'), (b) => {
          b.integer('id').primary();
          b.integer('seen').notNullable();
          b.integer('counted_by').notNullable();
        });
      },
      async apply(trx, events, names) {
        await gate;
        await trx.raw(
          `INSERT INTO ?? AS t (id, seen, counted_by) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET seen = t.seen + EXCLUDED.seen`,
          [physical(names, 'noise_counts'), events.length, version],
        );
      },
    });
    const v1 = await startFanOut([counter(1)]);
    await appendNoise(store, 4);
    await caughtUp('noise-counter');
    await v1.stop();
    expect(await db.knex('noise_counts')).to.deep.equal([{ id: 1, seen: 4, counted_by: 1 }]);

    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const starting = startFanOut([counter(2, gate)]); // version changed: rebuilt on start
    await eventually(async () => expect(await db.knex.schema.hasTable('noise_counts_g2')).to.equal(true));
    expect(await db.knex('noise_counts')).to.deep.equal([{ id: 1, seen: 4, counted_by: 1 }]);
    open();
    await starting;
    expect(await db.knex('noise_counts')).to.deep.equal([{ id: 1, seen: 4, counted_by: 2 }]);
    expect(await db.knex.schema.hasTable('noise_counts_g1')).to.equal(false);
    expect(await db.knex('projection_checkpoints').where({ projector: 'noise-counter' }).first()).to.include({
      version: 2,
      generation: 2,
    });

    await appendNoise(store, 1);
    await eventually(async () =>
      expect(await db.knex('noise_counts')).to.deep.equal([{ id: 1, seen: 5, counted_by: 2 }]),
    );
  });

  it('comments every read-model view and column', async () => {
    await startFanOut(shopProjectors);
    const { rows } = await db.knex.raw<{
      rows: Array<{ relation: string; column: string | null; comment: string | null }>;
    }>(`
      SELECT c.relname AS relation, NULL AS column, obj_description(c.oid, 'pg_class') AS comment
        FROM pg_class c WHERE c.relname LIKE 'shop\\_%' AND c.relkind IN ('v', 'r')
      UNION ALL
      SELECT c.relname, a.attname, col_description(c.oid, a.attnum)
        FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       WHERE c.relname LIKE 'shop\\_%' AND c.relkind IN ('v', 'r')`);
    const views = rows.filter((r) => r.column === null).map((r) => r.relation);
    expect(views).to.include.members([
      'shop_reservations',
      'shop_voucher_inventory',
      'shop_user_pool_purchases',
      'shop_reservations_g1',
    ]);
    expect(rows.filter((r) => !r.comment)).to.deep.equal([]);
  });
});
