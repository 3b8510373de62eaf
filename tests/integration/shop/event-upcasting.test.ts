import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { handleCommand, loadAggregate } from '../../../application/shared/command-handler.js';
import { fixedClock } from '../../../application/shared/clock.js';
import type { EventStore, EventToAppend } from '../../../application/shared/event-store.js';
import { eventDecoder, UnsupportedSchemaVersionError } from '../../../domain/shared/event-decoder.js';
import { shopEventSchemas, shopStreamDecoders } from '../../../domain/shop/event-decoder.js';
import { streams, type ShopEvent, type ShopReservationPlaced } from '../../../domain/shop/events.js';
import { shopReservationDecider, type ShopReservationCommand } from '../../../domain/shop/reservation.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { InProcessEventBus } from '../../../infrastructure/shared/messaging/in-process-event-bus.js';
import { Relay } from '../../../infrastructure/shared/messaging/relay.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { ProjectionRunner } from '../../../infrastructure/shared/projection-runner.js';
import type { Projector } from '../../../projections/shared/projector.js';
import { reservationsProjector } from '../../../projections/shop/reservations.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { eventually, lastStoredPosition } from '../fanout-support.js';

/**
 * The upcaster seam end to end, on the real PostgreSQL store. No shop event has changed shape, so the test
 * pretends one did: version 1 of ShopReservationPlaced carried the buyer as `buyer: { merchantId, userId }`,
 * version 2 (the shape the type declares) has them flat. Its decoder is the shop's registry with that one
 * schema changed, injected where the shop's own decoder is the default.
 */
type PlacedV1 = Omit<ShopReservationPlaced['data'], 'merchantId' | 'userId'> & {
  buyer: { merchantId: string; userId: string };
};

const decoder = eventDecoder<ShopEvent>({
  ...shopEventSchemas,
  ShopReservationPlaced: {
    version: 2,
    upcasters: {
      1: ({ buyer, ...rest }: PlacedV1) => ({ ...rest, merchantId: buyer.merchantId, userId: buyer.userId }),
    },
  },
});
const reservationEvents = shopStreamDecoders(decoder).reservation;

const placedAt = '2026-03-01T10:00:00.000Z';
const buyer = { merchantId: 'M1', userId: 'U1' };

/** ShopReservationPlaced's data in its current shape. */
function placed(reservationKey: string): ShopReservationPlaced['data'] {
  return {
    reservationKey,
    orderId: `order-${reservationKey}`,
    ...buyer,
    idempotencyKey: randomUUID(),
    requestHash: 'h',
    amount: 3000,
    currency: 'VND',
    reservedAt: placedAt,
    expiresAt: '2026-03-01T10:15:00.000Z',
    items: [{ voucherPoolId: 1, quantity: 3, unitPrice: 1000, vouchers: [] }],
  };
}

/** ShopReservationPlaced as version 1 stored it (or, to pretend a newer writer, labelled `schemaVersion`). */
function placedV1(reservationKey: string, schemaVersion = 1): EventToAppend {
  const { merchantId, userId, ...rest } = placed(reservationKey);
  const data: PlacedV1 = { ...rest, buyer: { merchantId, userId } };
  return { id: randomUUID(), type: 'ShopReservationPlaced', schemaVersion, data, metadata: { occurredAt: placedAt } };
}

const commit = (now: string) => ({ type: 'CommitReservation' as const, caller: buyer, now, autoExpiry: false });
const context = () => ({ commandId: randomUUID(), correlationId: randomUUID(), actor: { operator: 'test' } });

/** The reservation's command through the one write path, with the test's decoder. */
const handle = (store: EventStore, streamName: string, command: ShopReservationCommand) =>
  handleCommand({ store, clock: fixedClock(placedAt), decoder }, context(), {
    decider: shopReservationDecider,
    decoder: reservationEvents,
    streamName,
    command: () => command,
  });

describe('Events stored at an older schema version, on PostgreSQL', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeEach(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
    store = new PostgresEventStore(db.knex, { pollIntervalMs: 50 });
  });
  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it('are read in their current shape by an aggregate: the command handler loads, decides and appends on it', async () => {
    const key = randomUUID();
    const stream = streams.reservation(key);
    await store.append(stream, [placedV1(key)], 'no_stream');

    // The commit checks the caller against the reservation's merchantId and userId, which only the upcast has.
    const now = '2026-03-01T10:05:00.000Z';
    const result = await handle(store, stream, commit(now));
    expect(result.state).to.deep.include({ status: 'COMMITTED', committedAt: now });
    expect(result.state.status !== 'NONE' && result.state.details).to.include({ ...buyer, amount: 3000 });
    expect(result.state.status !== 'NONE' && result.state.details).not.to.have.property('buyer');

    const { state } = await loadAggregate(store, shopReservationDecider, reservationEvents, stream);
    expect(state).to.deep.equal(result.state);
    // Stored events are never rewritten; the new one carries its type's current version.
    const recorded = await store.readStream(stream);
    expect(recorded.map((e) => [e.type, e.schemaVersion])).to.deep.equal([
      ['ShopReservationPlaced', 1],
      ['ShopReservationCommitted', 1],
    ]);
    expect(recorded[0]!.data).to.have.property('buyer');
  });

  it('are written at the current version: the command handler stamps what the decoder says', async () => {
    const key = randomUUID();
    const stream = streams.reservation(key);
    const place = { type: 'PlaceReservation' as const, details: placed(key) };
    await handle(store, stream, place);
    const [stored] = await store.readStream(stream);
    expect(stored).to.include({ type: 'ShopReservationPlaced', schemaVersion: 2 });
    expect(reservationEvents.decode(stored!)).to.equal(stored); // current: read as it is, not copied
  });

  it('are refused with a typed error when newer than the decoder knows', async () => {
    const key = randomUUID();
    const stream = streams.reservation(key);
    await store.append(stream, [placedV1(key, 3)], 'no_stream');
    for (const attempt of [
      () => loadAggregate(store, shopReservationDecider, reservationEvents, stream),
      () => handle(store, stream, commit(placedAt)),
    ])
      await attempt().then(
        () => expect.fail('read an event of an unknown version'),
        (error: unknown) =>
          expect(error)
            .to.be.instanceOf(UnsupportedSchemaVersionError)
            .and.include({ schemaVersion: 3, currentVersion: 2 }),
      );
  });

  it('are read in their current shape by a real projector, live and when it rebuilds', async () => {
    const projector: Projector = { ...reservationsProjector, decoder };
    const bus = new InProcessEventBus(store, db.knex, { redeliveryDelayMs: 20, pollIntervalMs: 50 });
    const relay = new Relay({ store, bus, knex: db.knex }, { pollIntervalMs: 20, retryDelayMs: 50 });
    const runner = new ProjectionRunner({ knex: db.knex, store, bus, projectors: [projector] }, { retryBackoffMs: 10 });
    try {
      await runner.start();
      relay.start();
      const [first, second] = [randomUUID(), randomUUID()];
      await store.append(streams.reservation(first), [placedV1(first)], 'no_stream');
      await store.append(streams.reservation(second), [placedV1(second)], 'no_stream');
      await handle(store, streams.reservation(first), commit('2026-03-01T10:05:00.000Z'));
      const last = await lastStoredPosition(db.knex);
      const rows = () =>
        db.knex('shop_reservations').select('reservation_key', 'merchant_id', 'user_id', 'status', 'amount');
      const expected = [
        { reservation_key: first, merchant_id: 'M1', user_id: 'U1', status: 'COMMITTED', amount: 3000 },
        { reservation_key: second, merchant_id: 'M1', user_id: 'U1', status: 'RESERVED', amount: 3000 },
      ];
      await eventually(async () => {
        const checkpoint = await db.knex('projection_checkpoints').where({ projector: projector.name }).first();
        expect(checkpoint.position).to.equal(last);
      });
      expect(await rows()).to.have.deep.members(expected);
      expect(await db.knex('dead_letters')).to.deep.equal([]);

      await runner.rebuild(projector.name);
      expect(await rows()).to.have.deep.members(expected);
    } finally {
      await relay.stop();
      await runner.stop();
      await bus.close();
    }
  });
});
