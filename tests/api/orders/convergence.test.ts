import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { call, expectOk, operatorHeaders } from '../support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook, type MerchantKeys } from './support.js';

type Kind = 'created' | 'updated' | 'cancelled';

/**
 * Out-of-order and repeated webhooks converge to the same read model in any delivery order (docs/orders-ordering.md,
 * "Ordering"): the same webhooks, each sent twice, to one order per permutation: in the sender's order, reversed, and
 * shuffled (seeded). The order is cancelled and then reopened, so whether the cancellation still shows depends on
 * what came first unless the read model says the same either way.
 */
describe('Order view: any delivery order, the same read model (HTTP, PostgreSQL, projector)', () => {
  let app: TestApp;
  let keys: MerchantKeys;
  const permutations = 12;
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
    ['updated', { event_timestamp: t + 6000, order: { order_id: orderId, status: 'REOPENED' } }],
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

  it('every delivery order (each webhook twice) ends in the same row, history content and day statistics', async () => {
    for (let p = 0; p < permutations; p++) {
      const list = webhooks(`conv-${p}`);
      const twice = [...list, ...list];
      const order = p === 0 ? twice : p === 1 ? [...twice].reverse() : shuffled(twice, p);
      for (const [kind, body] of order) expectOrders(await sendWebhook(app, kind, body as never, { keys }), 200, 0);
    }
    const { knex } = app.container;
    const rows = await eventually(async () => {
      const r = (await knex('order_view_orders').where({ merchant_id: 'CONV' }).orderBy('order_id')) as Record<
        string,
        unknown
      >[];
      expect(r).to.have.length(permutations);
      // Caught up: every order has its seven webhooks (created, five updates, cancelled; repeats not recorded).
      expect(r.map((row) => row.event_count)).to.deep.equal(Array(permutations).fill(7));
      return r;
    });
    const comparable = (r: Record<string, unknown>) => {
      const { order_id: _id, last_position: _position, fields, ...rest } = r;
      const f = fields as Record<string, unknown>;
      return { ...rest, fields: { ...f, order_id: undefined, deeplink: undefined } }; // both name the order
    };
    const first = comparable(rows[0]!);
    expect(first).to.deep.include({
      status: 'REOPENED',
      payment_status: 'PAID',
      cancelled: true,
      event_count: 7,
    });
    for (const row of rows.slice(1)) expect(comparable(row)).to.deep.equal(first);

    // The history holds the same webhooks with what each carried; which fields each applied or found stale depends
    // on what had arrived before it, so those are not compared.
    const history = (await knex('order_view_order_history')
      .where({ merchant_id: 'CONV' })
      .select('order_id', 'event', 'event_timestamp', 'status', 'payment_status')
      .orderBy(['order_id', 'event_timestamp'])) as Record<string, unknown>[];
    const byOrder = new Map<unknown, unknown[]>();
    for (const { order_id, ...rest } of history) byOrder.set(order_id, [...(byOrder.get(order_id) ?? []), rest]);
    expect(byOrder.size).to.equal(permutations);
    const [firstHistory, ...otherHistories] = [...byOrder.values()];
    expect(firstHistory).to.have.length(7);
    for (const h of otherHistories) expect(h).to.deep.equal(firstHistory);

    const daily = await knex('order_view_daily_stats').where({ merchant_id: 'CONV' }).andWhere('order_count', '<>', 0);
    expect(
      daily.map((d: { status: string; order_count: string; gmv: string }) => [
        d.status,
        Number(d.order_count),
        Number(d.gmv),
      ]),
    ).to.deep.equal([['REOPENED', permutations, permutations * 9_000_000]]);
  });

  /**
   * Webhooks of one order in the same millisecond (docs/orders-ordering.md, "Ordering"): the seed's three events in
   * their own order, created < updated < cancelled, whatever their content hashes (which differ with every order id,
   * so before this rule about half the orders ended otherwise). Only pairs a sender signs apart in one millisecond:
   * an update without amounts and a cancellation sign the same string (docs/orders-signing.md, "One signature, one
   * webhook"), so one order has a created, an update with amounts and a cancellation in one millisecond, another a
   * created and an update without amounts.
   */
  it('webhooks of one millisecond end as created < updated < cancelled in every delivery order', async () => {
    const same = t + 60_000;
    const cancelledSet = (orderId: string): [Kind, Record<string, unknown>][] => [
      ['created', createdBody(orderId, { event_timestamp: same })],
      [
        'updated',
        {
          event_timestamp: same,
          order: {
            order_id: orderId,
            payment_status: 'PAID',
            amounts: { total_amount: 10_000_000, grand_total: 9_000_000, paid_amount: 9_000_000 },
          },
        },
      ],
      ['cancelled', { event_timestamp: same, order: { order_id: orderId } }],
    ];
    const updatedSet = (orderId: string): [Kind, Record<string, unknown>][] => [
      ['created', createdBody(orderId, { event_timestamp: same })],
      ['updated', { event_timestamp: same, order: { order_id: orderId, status: 'CONFIRMED' } }],
    ];
    const portalOrder = (orderId: string) =>
      call<{ status: string; payment_status: string; cancelled: boolean; grand_total: number; history: unknown[] }>(
        app.baseUrl,
        'GET',
        `/operator/v1/orders/CONV/${orderId}`,
        { headers: operatorHeaders() },
      );
    for (const [prefix, set] of [
      ['same-x', cancelledSet],
      ['same-u', updatedSet],
    ] as const)
      for (let p = 0; p < permutations; p++) {
        const twice = [...set(`${prefix}-${p}`), ...set(`${prefix}-${p}`)];
        const order = p === 0 ? twice : p === 1 ? [...twice].reverse() : shuffled(twice, p + 100);
        for (const [kind, body] of order) expectOrders(await sendWebhook(app, kind, body as never, { keys }), 200, 0);
      }

    for (let p = 0; p < permutations; p++) {
      const cancelled = await eventually(async () => {
        const o = expectOk(await portalOrder(`same-x-${p}`));
        expect(o.history).to.have.length(3);
        return o;
      });
      expect(
        [cancelled.status, cancelled.payment_status, cancelled.cancelled, cancelled.grand_total],
        `same-x-${p}`,
      ).to.deep.equal(['CANCELLED', 'PAID', true, 9_000_000]);
      expect(
        cancelled.history.map((h) => (h as { event: string }).event),
        `same-x-${p}: the history in the same order`,
      ).to.deep.equal(['order.created', 'order.updated', 'order.cancelled']);
      const updated = await eventually(async () => {
        const o = expectOk(await portalOrder(`same-u-${p}`));
        expect(o.history).to.have.length(2);
        return o;
      });
      expect([updated.status, updated.payment_status, updated.cancelled], `same-u-${p}`).to.deep.equal([
        'CONFIRMED',
        'UNPAID',
        false,
      ]);
    }
  });
});
