import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { expectOk, reserveBody, shopScene, Shopper } from '../api/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { requireNats, testNatsUrl } from '../support/nats.js';

/** Polls `read` until `done` holds for its result, for at most `timeoutMs`; answers the last result. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await sleep(50);
  }
}

describe('Purchase path over HTTP with NATS JetStream: store → relay → NATS → projectors → read models', () => {
  let app: TestApp | undefined;

  before(async function () {
    await requireNats(this);
    app = await startTestApp({ env: { NATS_URL: testNatsUrl } });
  });

  after(async () => {
    if (!app) return;
    const stream = app.container.config.NATS_STREAM;
    await app.stop();
    const nc = await connect({ servers: testNatsUrl });
    try {
      await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
    } finally {
      await nc.close();
    }
  });

  it('projects a reservation made over HTTP into shop_reservations and shop_voucher_inventory, then its commit', async () => {
    const { knex, config } = app!.container;
    const { operator, merchant, campaign } = await shopScene(app!.baseUrl);
    const pool = await operator.createPool(campaign.id, { totalQuantity: 20 });
    const buyer = new Shopper(app!.baseUrl, merchant);

    const reservation = await buyer.reserved(reserveBody([{ pool, quantity: 3 }]));
    const row = () => knex('shop_reservations').where({ reservation_key: reservation.reservationKey }).first();
    const reservedRow = await eventually(row, (r) => r?.status === 'RESERVED');
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
    const held = await eventually(inventory, (r) => r?.reserved_quantity === 3);
    expect(held, 'inventory projected within 10 s').to.include({ total_quantity: 20, reserved_quantity: 3, sold_quantity: 0, remaining_quantity: 17 });

    const committed = expectOk(await buyer.commit(reservation.reservationKey));
    const committedRow = await eventually(row, (r) => r?.status === 'COMMITTED');
    expect(committedRow.status, 'commit projected within 10 s').to.equal('COMMITTED');
    expect(new Date(committedRow.committed_at).toISOString()).to.equal(committed.committedAt);
    const sold = await eventually(inventory, (r) => r?.sold_quantity === 3);
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
