/**
 * npm run bench:append — PostgresEventStore.appendMany on flash-sale batches:
 * one existing pool stream (exact expected revision) receiving N
 * VoucherStockReserved events, plus per reservation three new streams with
 * 'no_stream' (reservation, order guard, idempotency guard), one event each.
 * Prints per batch size the median and p90 time of one appendMany and the
 * statements it sent (one: appendMany is a single statement, no BEGIN or
 * COMMIT).
 *
 * Env: DATABASE_URL (required: a server where a scratch database may be
 * created), SIZES (100,500), ROUNDS (40).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { EventToAppend, StreamWrite } from '../application/shared/event-store.js';
import { createKnex } from '../infrastructure/shared/database.js';
import { PostgresEventStore } from '../infrastructure/shared/eventstore/postgres-event-store.js';
import { migrate } from '../infrastructure/shared/migrations/index.js';
import { percentile } from './load.js';

const sizes = (process.env.SIZES ?? '100,500').split(',').map(Number);
const rounds = Number(process.env.ROUNDS ?? 40);
const warmUp = 5;

function event(type: string, data: unknown): EventToAppend {
  const occurredAt = new Date().toISOString();
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      occurredAt,
      correlationId: randomUUID(),
      requestId: randomUUID(),
      actor: { merchantId: 'BENCH', userId: 'u-1' },
    },
  };
}

/** One purchase-executor batch of `size` reservations on `pool` at `revision`. */
function batch(pool: string, revision: number, size: number): StreamWrite[] {
  const reservedAt = new Date().toISOString();
  const reserved: EventToAppend[] = [];
  const created: StreamWrite[] = [];
  for (let i = 0; i < size; i++) {
    const key = randomUUID();
    const orderId = `order-${randomUUID()}`;
    const idempotencyKey = randomUUID();
    const user = `user-${i}`;
    reserved.push(
      event('VoucherStockReserved', {
        poolId: 1,
        reservationKey: key,
        merchantId: 'BENCH',
        userId: user,
        quantity: 1,
        unitPrice: 10000,
        day: '2025-01-02',
        reservedAt,
      }),
    );
    const placed = event('ShopReservationPlaced', {
      reservationKey: key,
      orderId,
      merchantId: 'BENCH',
      userId: user,
      idempotencyKey,
      requestHash: randomBytes(32).toString('hex'),
      amount: 10000,
      currency: 'VND',
      reservedAt,
      expiresAt: reservedAt,
      items: [
        {
          voucherPoolId: 1,
          quantity: 1,
          unitPrice: 10000,
          vouchers: [
            {
              issuedPromotionId: i,
              encryptedCode: randomBytes(48).toString('base64'),
              faceValue: 10000,
              sellingPrice: 10000,
              currency: 'VND',
              purchasedAt: reservedAt,
              expiresAt: reservedAt,
            },
          ],
        },
      ],
    });
    created.push(
      { streamName: `shopReservation-${key}`, events: [placed], expectedVersion: 'no_stream' },
      {
        streamName: `shopOrder-BENCH:${orderId}`,
        events: [event('ShopOrderIdClaimed', { reservationKey: key, orderId })],
        expectedVersion: 'no_stream',
      },
      {
        streamName: `shopIdempotency-BENCH:${idempotencyKey}`,
        events: [event('ShopIdempotencyKeyClaimed', { reservationKey: key, requestHash: placed.id })],
        expectedVersion: 'no_stream',
      },
    );
  }
  return [{ streamName: pool, events: reserved, expectedVersion: revision }, ...created];
}

async function main(): Promise<void> {
  const server = process.env.DATABASE_URL;
  if (!server) throw new Error('set DATABASE_URL to a PostgreSQL server where a scratch database may be created');
  const name = `bench_append_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const knex = createKnex(url.toString(), 4);
  try {
    await migrate(knex);
    const store = new PostgresEventStore(knex);
    const pool = `voucherPool-${randomUUID()}`;
    let revision = (await store.append(pool, [event('VoucherPoolCreated', { poolId: 1 })], 'no_stream'))
      .nextExpectedVersion;
    let statements = 0;
    knex.on('query', () => statements++);
    for (const size of sizes) {
      const times: number[] = [];
      let sent = 0;
      for (let round = 0; round < warmUp + rounds; round++) {
        const writes = batch(pool, revision, size);
        statements = 0;
        const started = process.hrtime.bigint();
        const [result] = await store.appendMany(writes);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        revision = result!.nextExpectedVersion;
        if (round >= warmUp) times.push(ms);
        sent = statements;
      }
      console.log(
        `append-many: reservations=${size} events=${size * 4} streams=${size * 3 + 1} statements=${sent} p50_ms=${percentile(times, 50).toFixed(1)} p90_ms=${percentile(times, 90).toFixed(1)}`,
      );
    }
  } finally {
    await knex.destroy();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
