import type { Knex } from 'knex';
import {
  shopEventDecoder,
  type ShopEvent,
  type ShopReservationEvent,
  type ShopReservationPlaced,
} from '../../domain/shop/index.js';
import {
  firstOfEach,
  physical,
  runs,
  type PhysicalNames,
  type Projected,
  type ProjectedEvent,
  type Projector,
} from '../shared/projector.js';

const table = 'shop_reservations';

/** One row per shop reservation: its order, amounts and where it is in RESERVED → COMMITTED | RELEASED | EXPIRED. */
export const reservationsProjector: Projector = {
  name: 'shop-reservations',
  version: 1,
  eventTypes: new Set<ShopReservationEvent['type']>([
    'ShopReservationPlaced',
    'ShopReservationCommitted',
    'ShopReservationReleased',
    'ShopReservationExpired',
  ]),
  decoder: shopEventDecoder,
  tables: [
    {
      name: table,
      comment:
        'Shop reservations (voucher purchases), one row per reservation; eventually consistent with the event store (lag at /metrics). Fed by ShopReservationPlaced, ShopReservationCommitted, ShopReservationReleased, ShopReservationExpired.',
      columns: {
        reservation_key: 'Reservation key (UUID) the shop returned at reserve.',
        order_id: "The merchant's order id, unique per merchant.",
        merchant_id: 'Merchant that placed the reservation.',
        user_id: 'User the vouchers are for.',
        status: 'RESERVED, COMMITTED, RELEASED, or EXPIRED (released by automatic expiry).',
        amount: 'Total price in minor units of currency.',
        currency: 'VND or VPOINT.',
        item_count: 'Number of pools (lines) in the reservation.',
        quantity: 'Number of vouchers over all lines.',
        reserved_at: 'When the reservation was placed.',
        expires_at: 'When the reservation may expire (reservedAt + TTL).',
        committed_at: 'When it was committed; null otherwise.',
        released_at: 'When it was released or expired; null otherwise.',
        release_reason: 'Reason given at release (logging only), EXPIRED on expiry; null otherwise.',
        last_position: 'Global position of the last event applied to this row.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    const t = physical(names, table);
    await knex.schema.createTable(t, (b) => {
      b.text('reservation_key').primary();
      b.text('order_id').notNullable();
      b.text('merchant_id').notNullable();
      b.text('user_id').notNullable();
      b.text('status').notNullable();
      b.bigInteger('amount').notNullable();
      b.text('currency').notNullable();
      b.integer('item_count').notNullable();
      b.integer('quantity').notNullable();
      b.timestamp('reserved_at', { useTz: true }).notNullable();
      b.timestamp('expires_at', { useTz: true }).notNullable();
      b.timestamp('committed_at', { useTz: true });
      b.timestamp('released_at', { useTz: true });
      b.text('release_reason');
      b.text('last_position').notNullable();
      b.index(['merchant_id', 'order_id'], `${t}_merchant_order`);
      b.index(['merchant_id', 'user_id', 'reserved_at'], `${t}_merchant_user`);
      b.index(['status', 'expires_at'], `${t}_status`);
    });
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<ShopEvent>[], names: PhysicalNames) {
    for (const run of runs(events, [placedRun])) {
      if (placedRun.has(run[0]!.type)) await placeAll(trx, physical(names, table), run);
      else await applyOne(trx, physical(names, table), run[0]!);
    }
  },
};

/**
 * Runs of placed reservations are written in one statement (placeAll): a flash sale's batches are made of them, and
 * one statement per event held a catching-up projector to a few hundred events a second on a busy machine (issue 31).
 */
const placedRun = new Set(['ShopReservationPlaced']);

/** A reservation's row as ShopReservationPlaced makes it. */
function placedRow(d: ShopReservationPlaced['data'], position: string) {
  return {
    reservation_key: d.reservationKey,
    order_id: d.orderId,
    merchant_id: d.merchantId,
    user_id: d.userId,
    status: 'RESERVED',
    amount: d.amount,
    currency: d.currency,
    item_count: d.items.length,
    quantity: d.items.reduce((sum, item) => sum + item.quantity, 0),
    reserved_at: d.reservedAt,
    expires_at: d.expiresAt,
    last_position: position,
  };
}

/** A run of ShopReservationPlaced in one statement: the reservations not there yet (one there, or twice in the run, keeps its first). */
async function placeAll(trx: Knex.Transaction, t: string, run: readonly ProjectedEvent[]): Promise<void> {
  const rows = firstOfEach(run, (e) => (e.data as ShopReservationPlaced['data']).reservationKey).map((e) =>
    placedRow(e.data as ShopReservationPlaced['data'], e.position),
  );
  const columns = Object.keys(rows[0]!).join(', ');
  await trx.raw(
    `INSERT INTO ?? (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::??, ?::json)
     ON CONFLICT (reservation_key) DO NOTHING`,
    [t, t, JSON.stringify(rows)],
  );
}

/**
 * One event. A reservation's row keeps the position of the last event of its
 * stream it applied, and an event at or before it changes nothing.
 */
async function applyOne(trx: Knex.Transaction, t: string, e: Projected<ShopEvent>): Promise<void> {
  const position = e.position;
  // Positions compare as plain strings: in the C collation whatever the database's.
  const advance = (reservationKey: string, changes: Record<string, string | null>) =>
    trx(t)
      .where({ reservation_key: reservationKey })
      .whereRaw('last_position COLLATE "C" < ?', [position])
      .update({ ...changes, last_position: position });
  switch (e.type) {
    case 'ShopReservationCommitted':
      await advance(e.data.reservationKey, { status: 'COMMITTED', committed_at: e.data.committedAt });
      return;
    case 'ShopReservationReleased':
      await advance(e.data.reservationKey, {
        status: 'RELEASED',
        released_at: e.data.releasedAt,
        release_reason: e.data.reason,
      });
      return;
    case 'ShopReservationExpired':
      await advance(e.data.reservationKey, {
        status: 'EXPIRED',
        released_at: e.data.expiredAt,
        release_reason: 'EXPIRED',
      });
      return;
    default:
      return;
  }
}
