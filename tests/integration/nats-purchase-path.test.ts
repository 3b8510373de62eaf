import { expect } from 'chai';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { expectOk, reserveBody, shopScene, Shopper } from '../api/support.js';
import { eventually } from '../support/eventually.js';
import { natsTestApp, testNatsUrl } from '../support/nats.js';

/** The value of `read` once `done` holds for it (the shared eventually() polls until it does). */
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> =>
  eventually(async () => {
    const value = await read();
    if (!done(value)) throw new Error('not projected yet');
    return value;
  });

describe('Purchase path over HTTP with NATS JetStream: store → relay → NATS → projectors → read models', () => {
  const running = natsTestApp();

  it('projects a reservation made over HTTP into shop_reservations and shop_voucher_inventory, then its commit', async () => {
    const { knex, config } = running().container;
    const { operator, merchant, campaign } = await shopScene(running().baseUrl);
    const pool = await operator.createPool(campaign.id, { totalQuantity: 20 });
    const buyer = new Shopper(running().baseUrl, merchant);

    const reservation = await buyer.reserved(reserveBody([{ pool, quantity: 3 }]));
    const row = () => knex('shop_reservations').where({ reservation_key: reservation.reservationKey }).first();
    const reservedRow = await until(row, (r) => r?.status === 'RESERVED');
    expect(reservedRow, 'reservation projected within 10 s').to.include({
      status: 'RESERVED',
      order_id: reservation.orderId,
      merchant_id: merchant.merchantId,
      user_id: buyer.userId,
      currency: 'VND',
      item_count: 1,
      quantity: 3,
      committed_at: null,
    });
    expect(Number(reservedRow.amount)).to.equal(270_000);
    expect(new Date(reservedRow.reserved_at).toISOString()).to.equal(reservation.reservedAt);

    const inventory = () => knex('shop_voucher_inventory').where({ pool_id: pool.poolId }).first();
    const held = await until(inventory, (r) => r?.reserved_quantity === 3);
    expect(held, 'inventory projected within 10 s').to.include({
      total_quantity: 20,
      reserved_quantity: 3,
      sold_quantity: 0,
      remaining_quantity: 17,
    });

    const committed = expectOk(await buyer.commit(reservation.reservationKey));
    const committedRow = await until(row, (r) => r?.status === 'COMMITTED');
    expect(committedRow.status, 'commit projected within 10 s').to.equal('COMMITTED');
    expect(new Date(committedRow.committed_at).toISOString()).to.equal(committed.committedAt);
    const sold = await until(inventory, (r) => r?.sold_quantity === 3);
    expect(sold).to.include({ reserved_quantity: 0, sold_quantity: 3, remaining_quantity: 17 });

    // The events travelled through JetStream, not the in-process bus.
    const nc = await connect({ servers: testNatsUrl });
    try {
      const { state } = await (await jetstreamManager(nc)).streams.info(config.NATS_STREAM);
      expect(state.messages).to.be.greaterThan(0);
    } finally {
      await nc.close();
    }
  });
});
