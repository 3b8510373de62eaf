import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook, type MerchantKeys } from './support.js';

type Kind = 'created' | 'updated' | 'cancelled';

/**
 * Out-of-order and repeated webhooks converge to the same read model in any delivery order (docs/orders-ordering.md,
 * "Ordering"): the same webhooks, shuffled (seeded) and each sent twice, to one order per permutation.
 */
describe('Order view: any delivery order, the same read model (HTTP, PostgreSQL, projector)', () => {
  let app: TestApp;
  let keys: MerchantKeys;
  const permutations = 6;
  const t = Date.now() - 3_600_000;

  const webhooks = (orderId: string): [Kind, Record<string, unknown>][] => [
    ['created', createdBody(orderId, { event_timestamp: t })],
    [
      'updated',
      { event_timestamp: t + 1000, order: { order_id: orderId, status: 'CONFIRMED', payment_status: 'PENDING' } },
    ],
    [
      'updated',
      {
        event_timestamp: t + 3000,
        order: {
          order_id: orderId,
          payment_status: 'PAID',
          amounts: { grand_total: 9_000_000, total_amount: 10_000_000, paid_amount: 9_000_000 },
        },
      },
    ],
    [
      'updated',
      { event_timestamp: t + 2000, order: { order_id: orderId, status: 'SHIPPING', description: 'on its way' } },
    ],
    ['cancelled', { event_timestamp: t + 5000, order: { order_id: orderId, status: 'CANCELLED_BY_USER' } }],
    [
      'updated',
      { event_timestamp: t + 4000, order: { order_id: orderId, fees: [{ fee_code: 'SHIP', amount: 30_000 }] } },
    ],
  ];

  function shuffled<T>(items: T[], seed: number): T[] {
    const out = [...items];
    let s = seed;
    for (let i = out.length - 1; i > 0; i--) {
      s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = s % (i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  before(async () => {
    app = await startTestApp();
    keys = await merchantWithKey(app, 'CONV');
  });
  after(() => app?.stop());

  it('every permutation (each webhook twice) ends in the same row, history content and day statistics', async () => {
    for (let p = 0; p < permutations; p++) {
      const list = webhooks(`conv-${p}`);
      for (const [kind, body] of shuffled([...list, ...list], p + 1))
        expectOrders(await sendWebhook(app, kind, body as never, { keys }), 200, 0);
    }
    const { knex } = app.container;
    const rows = await eventually(async () => {
      const r = (await knex('order_view_orders').where({ merchant_id: 'CONV' }).orderBy('order_id')) as Record<
        string,
        unknown
      >[];
      expect(r).to.have.length(permutations);
      // Caught up: every order has its six webhooks (created, four updates, cancelled; repeats not recorded).
      expect(r.map((row) => row.event_count)).to.deep.equal(Array(permutations).fill(6));
      return r;
    });
    const comparable = (r: Record<string, unknown>) => {
      const { order_id: _id, last_position: _position, fields, ...rest } = r;
      const f = fields as Record<string, unknown>;
      return { ...rest, fields: { ...f, order_id: undefined } };
    };
    const first = comparable(rows[0]!);
    expect(first).to.deep.include({
      status: 'CANCELLED_BY_USER',
      payment_status: 'PAID',
      cancelled: true,
      event_count: 6,
    });
    for (const row of rows.slice(1)) expect(comparable(row)).to.deep.equal(first);

    const daily = await knex('order_view_daily_stats').where({ merchant_id: 'CONV' }).andWhere('order_count', '<>', 0);
    expect(
      daily.map((d: { status: string; order_count: string; gmv: string }) => [
        d.status,
        Number(d.order_count),
        Number(d.gmv),
      ]),
    ).to.deep.equal([['CANCELLED_BY_USER', permutations, permutations * 9_000_000]]);
  });
});
