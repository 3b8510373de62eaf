import { eventually } from '../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { PostgresEventStore } from '../../infrastructure/shared/eventstore/postgres-event-store.js';
import { migrate } from '../../infrastructure/shared/migrations/index.js';
import { formatPosition } from '../../infrastructure/shared/eventstore/positions.js';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import type { EventStore, EventToAppend, RecordedEvent } from '../../application/shared/event-store.js';
import type { ShopEvent } from '../../domain/shop/events.js';
import { eventDecoder } from '../../domain/shared/event-decoder.js';
import { physical, type Projector } from '../../projections/shared/projector.js';

export { eventually };

/** Polls `check` until it stops throwing (or the timeout, when its last error is thrown). */
export function toAppend(event: ShopEvent | { type: string; data: unknown }): EventToAppend {
  return { id: randomUUID(), type: event.type, data: event.data, metadata: { occurredAt: '2025-03-01T10:00:00.000Z' } };
}

/** Appends `count` small events, each to its own stream of `category`, returns them as recorded. */
export async function appendNoise(store: EventStore, count: number, category = 'noise'): Promise<RecordedEvent[]> {
  const appended: string[] = [];
  for (let i = 0; i < count; i++) {
    const e = toAppend({ type: 'NoiseHappened', data: { i } });
    await store.append(`${category}-${randomUUID()}`, [e], 'no_stream');
    appended.push(e.id);
  }
  const wanted = new Set(appended);
  // The global log shows an event once every older transaction on the server ended: wait for that.
  return eventually(async () => {
    const all: RecordedEvent[] = [];
    for (
      let page = await store.readAll(null, 1000);
      page.length > 0;
      page = await store.readAll(page[page.length - 1]!.position, 1000)
    )
      all.push(...page);
    const found = all.filter((e) => wanted.has(e.id));
    if (found.length !== appended.length)
      throw new Error(
        `only ${found.length} of ${appended.length} appended events readable yet ${JSON.stringify(found.map((e) => [e.id.slice(0, 8), e.position]))}`,
      );
    return found;
  });
}

/** Every event of the store, in order. */
export async function readEverything(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (
    let page = await store.readAll(null, 1000);
    page.length > 0;
    page = await store.readAll(page[page.length - 1]!.position, 1000)
  )
    all.push(...page);
  return all;
}

const display = {
  title: 't',
  shortTitle: 't',
  brandName: 'b',
  logoUrl: 'u',
  bannerUrl: 'u',
  thumbnailUrl: 'u',
  description: 'd',
};
const terms = {
  usageType: 'ONLINE' as const,
  termsAndConditions: '',
  validityDays: 30,
  usageLimit: null,
  maxPerDay: null,
  maxPerOrder: null,
};

/** The shop events of one pool and two reservations (one committed, one released), stream by stream. */
export function shopStory(poolId: number, campaignId = 7): Array<{ stream: string; events: ShopEvent[] }> {
  const r1 = randomUUID();
  const r2 = randomUUID();
  const at = (minute: number) => `2025-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const placed = (key: string, orderId: string, quantity: number): ShopEvent => ({
    type: 'ShopReservationPlaced',
    data: {
      reservationKey: key,
      orderId,
      merchantId: 'M1',
      userId: 'U1',
      idempotencyKey: randomUUID(),
      requestHash: 'h',
      amount: 1000 * quantity,
      currency: 'VND',
      reservedAt: at(1),
      expiresAt: at(16),
      items: [{ voucherPoolId: poolId, quantity, unitPrice: 1000, vouchers: [] }],
    },
  });
  return [
    {
      stream: `voucherPool-${poolId}`,
      events: [
        {
          type: 'VoucherPoolCreated',
          data: {
            poolId,
            campaignId,
            categoryId: 1,
            miniAppIds: [],
            display,
            pricing: { faceValue: 1000, sellingPrice: 1000, discountedPrice: null, currency: 'VND' },
            totalQuantity: 10,
            terms,
            validity: null,
            createdAt: at(0),
          },
        },
        { type: 'VoucherPoolStockAdded', data: { poolId, quantity: 5, addedAt: at(0) } },
        {
          type: 'VoucherStockReserved',
          data: {
            poolId,
            reservationKey: r1,
            merchantId: 'M1',
            userId: 'U1',
            quantity: 2,
            unitPrice: 1000,
            day: '2025-03-01',
            reservedAt: at(1),
          },
        },
        {
          type: 'VoucherStockReserved',
          data: {
            poolId,
            reservationKey: r2,
            merchantId: 'M1',
            userId: 'U1',
            quantity: 3,
            unitPrice: 1000,
            day: '2025-03-01',
            reservedAt: at(1),
          },
        },
      ],
    },
    { stream: `shopReservation-${r1}`, events: [placed(r1, `order-${r1}`, 2)] },
    { stream: `shopReservation-${r2}`, events: [placed(r2, `order-${r2}`, 3)] },
    {
      stream: `shopReservation-${r1}`,
      events: [{ type: 'ShopReservationCommitted', data: { reservationKey: r1, committedAt: at(5) } }],
    },
    {
      stream: `voucherPool-${poolId}`,
      events: [{ type: 'VoucherStockSold', data: { poolId, reservationKey: r1, quantity: 2, soldAt: at(5) } }],
    },
    {
      stream: `shopReservation-${r2}`,
      events: [
        { type: 'ShopReservationReleased', data: { reservationKey: r2, releasedAt: at(6), reason: 'USER_CANCELLED' } },
      ],
    },
    {
      stream: `voucherPool-${poolId}`,
      events: [
        {
          type: 'VoucherStockReleased',
          data: {
            poolId,
            reservationKey: r2,
            merchantId: 'M1',
            userId: 'U1',
            quantity: 3,
            day: '2025-03-01',
            reason: 'RELEASED',
            releasedAt: at(6),
          },
        },
      ],
    },
  ];
}

/** Appends a story in order. */
export async function appendStory(
  store: EventStore,
  story: Array<{ stream: string; events: ShopEvent[] }>,
): Promise<void> {
  for (const step of story) await store.append(step.stream, step.events.map(toAppend), 'any');
}

/**
 * Position of the newest event in the PostgreSQL store, read from its table:
 * readAll shows an event only once no older transaction runs anywhere on the
 * server, so it may lag behind the test.
 */
export async function lastStoredPosition(knex: Knex): Promise<string> {
  const { rows } = await knex.raw<{ rows: Array<{ major: string; minor: string }> }>(
    `SELECT transaction_id::text AS major, transaction_sequence::text AS minor FROM events
     ORDER BY events.transaction_id DESC, events.transaction_sequence DESC LIMIT 1`,
  );
  return formatPosition(rows[0]!.major, rows[0]!.minor);
}

/**
 * Call inside a describe: each test gets a fresh migrated database and a PostgreSQL store, and after it the
 * functions pushed on `stops` run (last first), then the store closes and the database is dropped.
 */
export function storePerTest(options: { pollIntervalMs?: number } = {}) {
  const world = {
    db: undefined as unknown as TestDatabase,
    store: undefined as unknown as PostgresEventStore,
    stops: [] as Array<() => Promise<void>>,
  };
  beforeEach(async () => {
    world.db = await createTestDatabase();
    await migrate(world.db.knex);
    world.store = new PostgresEventStore(world.db.knex, options);
  });
  afterEach(async () => {
    for (const stop of world.stops.splice(0).reverse()) await stop();
    await world.store.close();
    await world.db.drop();
  });
  return world;
}

/** Appends `count` NoiseHappened events, each to a stream of its own, in transactions of 1,000 (quick, unlike appendNoise). */
export async function appendManyNoise(store: EventStore, count: number, category = 'noise'): Promise<void> {
  for (let from = 0; from < count; from += 1000) {
    const writes = Array.from({ length: Math.min(1000, count - from) }, (_, i) => ({
      streamName: `${category}-${randomUUID()}`,
      events: [toAppend({ type: 'NoiseHappened', data: { i: from + i } })],
      expectedVersion: 'no_stream' as const,
    }));
    await store.appendMany(writes);
  }
}

/**
 * A projector of NoiseHappened events whose apply costs `msPerEvent` of CPU before it writes a row per event (table
 * `noise_<name>`): a stand-in for a projector that builds costly rows (the search's text, on a busy machine), so that
 * an apply call of many events holds the event loop as long as the test wants.
 */
export function cpuBoundProjector(name: string, msPerEvent: number): Projector {
  const table = `noise_${name.replace(/-/g, '_')}`;
  return {
    name,
    version: 1,
    eventTypes: new Set(['NoiseHappened']),
    decoder: eventDecoder({ NoiseHappened: { version: 1 } }),
    tables: [{ name: table, comment: 'Noise events applied.', columns: { event_id: 'Event id.' } }],
    async createTables(knex, names) {
      await knex.schema.createTable(physical(names, table), (b) => b.text('event_id').primary());
    },
    async apply(trx, events, names) {
      const until = performance.now() + events.length * msPerEvent;
      while (performance.now() < until); // the CPU its rows cost, held without a pause
      await trx(physical(names, table))
        .insert(events.map((e) => ({ event_id: e.id })))
        .onConflict('event_id')
        .ignore();
    },
  };
}
