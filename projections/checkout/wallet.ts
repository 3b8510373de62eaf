/**
 * Users' wallets as `applicable` reads them and analysts query them (docs/checkout.md, "Read models"): one row per
 * issued promotion, and the uses each reservation holds against a master's limits. Eventually consistent with the
 * event store (lag at /metrics); reserve decides on the aggregates, never on these rows.
 */
import type { Knex } from 'knex';
import {
  checkoutEventDecoder,
  type CheckoutEvent,
  type IssuedPromotionEvent,
  type PromotionUsageEvent,
} from '../../domain/checkout/index.js';
import { physical, type PhysicalNames, type Projected, type Projector } from '../shared/projector.js';

export const walletTable = 'checkout_wallet';
export const usesTable = 'checkout_promotion_uses';

/** The counter of a master's total uses in `checkout_promotion_uses` (a user's counter is the user id). */
export const totalCounter = '*';

export const walletProjector: Projector = {
  name: 'checkout-wallet',
  version: 1,
  eventTypes: new Set<(IssuedPromotionEvent | PromotionUsageEvent)['type']>([
    'PromotionIssued',
    'PromotionReserved',
    'PromotionUsed',
    'PromotionReturned',
    'PromotionCancelled',
    'PromotionExpired',
    'PromotionUsageHeld',
    'PromotionUsageFreed',
  ]),
  decoder: checkoutEventDecoder,
  tables: [
    {
      name: walletTable,
      comment:
        "Users' wallets: one row per issued promotion (operators' and vouchers bought in the shop), with its state; eventually consistent with the event store (lag at /metrics). Fed by PromotionIssued, PromotionReserved, PromotionUsed, PromotionReturned, PromotionCancelled, PromotionExpired.",
      columns: {
        promotion_id: 'Issued promotion id (promotion_id of the checkout interface; a shop voucher keeps its id).',
        promotion_master_id: 'The master it follows (checkout_promotion_masters).',
        user_id: 'The wallet owner (X-App-User-Id of the checkout, the buyer of a shop voucher).',
        status: 'ISSUED, RESERVED, USED, CANCELLED or EXPIRED.',
        encrypted_code: 'The code, encrypted (AES-256-GCM, bound to the promotion); never readable in SQL.',
        encrypted_pin: 'The pin of a pin_required master, encrypted like the code; null when none.',
        source: 'OPERATOR (issued by an operator) or SHOP (a voucher bought in the shop).',
        shop_reservation_key: 'The shop reservation that bought it; null for OPERATOR.',
        valid_from: 'Start of its validity.',
        valid_until: 'End of its validity (exclusive); its timer expires it then.',
        reservation_key: 'The checkout reservation that holds, used or last returned it; null before any.',
        order_id: 'The order of that reservation; null before any.',
        issued_at: 'When it was issued.',
        updated_at: 'When its state last changed.',
        last_position: 'Global position of the last event applied to this row.',
      },
    },
    {
      name: usesTable,
      comment:
        "Uses held against masters' limits: one row per reservation and counter, from reserve until release, expiry or refund (a confirmed use stays). Count rows per master (counter '*': total_quota) or per user (per_user_limit). Fed by PromotionUsageHeld, PromotionUsageFreed; only masters with limits have rows.",
      columns: {
        promotion_master_id: 'The master whose limit the use counts against.',
        counter: "'*' for the master's total_quota, else the user id for its per_user_limit.",
        reservation_key: 'The checkout reservation holding the use.',
        held_at: 'When the use was taken.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    const w = physical(names, walletTable);
    await knex.schema.createTable(w, (b) => {
      b.bigInteger('promotion_id').primary();
      b.bigInteger('promotion_master_id').notNullable();
      b.text('user_id').notNullable();
      b.text('status').notNullable();
      b.text('encrypted_code').notNullable();
      b.text('encrypted_pin');
      b.text('source').notNullable();
      b.text('shop_reservation_key');
      b.timestamp('valid_from', { useTz: true }).notNullable();
      b.timestamp('valid_until', { useTz: true }).notNullable();
      b.text('reservation_key');
      b.text('order_id');
      b.timestamp('issued_at', { useTz: true }).notNullable();
      b.timestamp('updated_at', { useTz: true }).notNullable();
      // Byte order: positions compare as plain strings (projections/shared/projector.ts).
      b.specificType('last_position', 'text COLLATE "C"').notNullable();
      b.index(['user_id', 'status'], `${w}_user`);
    });
    const u = physical(names, usesTable);
    await knex.schema.createTable(u, (b) => {
      b.bigInteger('promotion_master_id').notNullable();
      b.text('counter').notNullable();
      b.text('reservation_key').notNullable();
      b.timestamp('held_at', { useTz: true }).notNullable();
      b.primary(['promotion_master_id', 'counter', 'reservation_key']);
    });
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<CheckoutEvent>[], names: PhysicalNames) {
    const w = physical(names, walletTable);
    const u = physical(names, usesTable);
    for (const e of events) await applyOne(trx, { w, u }, e);
  },
};

async function applyOne(trx: Knex.Transaction, t: { w: string; u: string }, e: Projected<CheckoutEvent>) {
  // A row takes an event once, in order: a redelivered one is past its last_position.
  const change = (promotionId: number, values: Record<string, unknown>, at: string) =>
    trx(t.w)
      .where({ promotion_id: promotionId })
      .andWhere('last_position', '<', e.position)
      .update({ ...values, updated_at: at, last_position: e.position });
  switch (e.type) {
    case 'PromotionIssued': {
      const d = e.data;
      await trx(t.w)
        .insert({
          promotion_id: d.promotionId,
          promotion_master_id: d.promotionMasterId,
          user_id: d.userId,
          status: 'ISSUED',
          encrypted_code: d.encryptedCode,
          encrypted_pin: d.encryptedPin,
          source: d.source.kind,
          shop_reservation_key: d.source.kind === 'SHOP' ? d.source.reservationKey : null,
          valid_from: d.validFrom,
          valid_until: d.validUntil,
          issued_at: d.issuedAt,
          updated_at: d.issuedAt,
          last_position: e.position,
        })
        .onConflict('promotion_id')
        .ignore();
      return;
    }
    case 'PromotionReserved':
      return void (await change(
        e.data.promotionId,
        { status: 'RESERVED', reservation_key: e.data.reservationKey, order_id: e.data.orderId },
        e.data.reservedAt,
      ));
    case 'PromotionUsed':
      return void (await change(e.data.promotionId, { status: 'USED' }, e.data.usedAt));
    case 'PromotionReturned':
      return void (await change(e.data.promotionId, { status: 'ISSUED' }, e.data.returnedAt));
    case 'PromotionCancelled':
      return void (await change(e.data.promotionId, { status: 'CANCELLED' }, e.data.cancelledAt));
    case 'PromotionExpired':
      return void (await change(e.data.promotionId, { status: 'EXPIRED' }, e.data.expiredAt));
    case 'PromotionUsageHeld': {
      const d = e.data;
      await trx(t.u)
        .insert({
          promotion_master_id: d.promotionMasterId,
          counter: d.userId ?? totalCounter,
          reservation_key: d.reservationKey,
          held_at: d.heldAt,
        })
        .onConflict(['promotion_master_id', 'counter', 'reservation_key'])
        .ignore();
      return;
    }
    case 'PromotionUsageFreed': {
      const d = e.data;
      await trx(t.u)
        .where({
          promotion_master_id: d.promotionMasterId,
          counter: d.userId ?? totalCounter,
          reservation_key: d.reservationKey,
        })
        .delete();
      return;
    }
    default:
      return;
  }
}
