import { expect } from 'chai';
import { fold } from '../../../../domain/shared/decider.js';
import type { OrderEvent } from '../../../../domain/orders/events.js';
import { currentOrder, orderDecider, type ReceiveOrderWebhook } from '../../../../domain/orders/order.js';
import type { OrderChanges } from '../../../../domain/orders/order-fields.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(orderDecider);
const now = '2026-03-01T10:00:00.000Z';
const t0 = 1_772_000_000_000;
const hour = 3_600_000;

const createdOrder: OrderChanges = {
  order_type: 'CAR_PURCHASE',
  status: 'NEW',
  pnl_order_status: 'N1',
  payment_status: 'UNPAID',
  business_unit_id: 'BU1',
  customer: { customer_id: 'u1', name: 'An' },
  amounts: { currency: 'VND', total_amount: 1000, grand_total: 900 },
};
const source = { created_by: 'u1', platform_code: 'HOST', miniapp_id: 'app1' };

const webhook = (
  kind: ReceiveOrderWebhook['kind'],
  eventTimestamp: number,
  fingerprint: string,
  order: OrderChanges,
  at = now,
): ReceiveOrderWebhook => ({
  type: 'ReceiveOrderWebhook',
  kind,
  merchantId: 'm1',
  orderId: 'o1',
  eventTimestamp,
  fingerprint,
  requestId: `r-${fingerprint}`,
  order,
  ...(kind === 'CREATED' && { source }),
  now: at,
  earlyWindowMs: 72 * hour,
  maxEarlyEvents: 50,
  maxAgeMs: 30 * 24 * hour,
  maxFutureMs: 60_000,
});

const received = (w: ReceiveOrderWebhook) => ({
  merchantId: 'm1',
  orderId: 'o1',
  eventTimestamp: w.eventTimestamp,
  fingerprint: w.fingerprint,
  requestId: w.requestId,
  receivedAt: w.now,
});

const create = webhook('CREATED', t0, 'fc', createdOrder);
const created: OrderEvent = { type: 'OrderCreated', data: { ...received(create), source, order: createdOrder } };
const paid = webhook('UPDATED', t0 + 2000, 'fp', { payment_status: 'PAID', amounts: { paid_amount: 900 } });
const shipped = webhook('UPDATED', t0 + 1000, 'fs', { status: 'SHIPPING', payment_status: 'UNPAID' });
const cancel = webhook('CANCELLED', t0 + 3000, 'fx', {});

describe('order decider (docs/orders-ordering.md, "Ordering")', () => {
  it('given nothing, when created, then OrderCreated with the snapshot and source', () => {
    given([]).when(create).then([created]);
  });

  it('given a created order, when the same created comes again (a repeat), then nothing', () => {
    given([created]).when(create).then([]);
  });

  it('given a created order, when a created with other content comes, then ORDER_ALREADY_CREATED', () => {
    given([created])
      .when(webhook('CREATED', t0, 'other', createdOrder))
      .thenRejects('ORDER_ALREADY_CREATED', { orderId: 'o1' });
  });

  it('given a created order, when a newer update comes, then every field it sends is applied', () => {
    given([created])
      .when(paid)
      .then([
        {
          type: 'OrderUpdated',
          data: {
            ...received(paid),
            order: paid.order,
            applied: ['payment_status', 'amounts.paid_amount'],
            stale: [],
            early: false,
          },
        },
      ]);
  });

  it('given a newer update applied, when an older one arrives (late), then it is kept with its stale fields', () => {
    const afterPaid = orderDecider.decide(paid, fold(orderDecider, [created]));
    given([created, ...afterPaid])
      .when(shipped)
      .then([
        {
          type: 'OrderUpdated',
          data: {
            ...received(shipped),
            order: shipped.order,
            applied: ['status'],
            stale: ['payment_status'],
            early: false,
          },
        },
      ]);
  });

  it('given a created order, when cancelled without a status, then status becomes CANCELLED', () => {
    const events = orderDecider.decide(cancel, fold(orderDecider, [created]));
    expect(events[0]!.type).to.equal('OrderCancelled');
    const state = fold(orderDecider, [created, ...events]);
    expect(state.status === 'CREATED' && currentOrder(state.fields).status).to.equal('CANCELLED');
  });

  it('given a created order, when an update changes business_unit_id, then ORDER_FIELD_IMMUTABLE', () => {
    given([created])
      .when(webhook('UPDATED', t0 + 1, 'fb', { business_unit_id: 'BU2' }))
      .thenRejects('ORDER_FIELD_IMMUTABLE', { field: 'order.business_unit_id' });
  });

  it('given a created order, when an update repeats the same business_unit_id, then it is accepted and not re-set', () => {
    const same = webhook('UPDATED', t0 + 1, 'fb', { business_unit_id: 'BU1', status: 'X' });
    given([created])
      .when(same)
      .then([
        {
          type: 'OrderUpdated',
          data: { ...received(same), order: same.order, applied: ['status'], stale: [], early: false },
        },
      ]);
  });

  it('given nothing, when an update comes first (early), then it is parked', () => {
    given([])
      .when(paid)
      .then([{ type: 'OrderEventParked', data: { ...received(paid), kind: 'UPDATED', order: paid.order } }]);
  });

  it('given a parked update, when it comes again, then nothing (a repeat)', () => {
    const parked = orderDecider.decide(paid, fold(orderDecider, []));
    given(parked).when(paid).then([]);
  });

  it('given parked events, when created comes, then they are applied in event_timestamp order after it', () => {
    const parked = [...orderDecider.decide(paid, fold(orderDecider, []))];
    parked.push(...orderDecider.decide(shipped, fold(orderDecider, parked)));
    const events = orderDecider.decide(create, fold(orderDecider, parked));
    expect(events.map((e) => e.type)).to.deep.equal(['OrderCreated', 'OrderUpdated', 'OrderUpdated']);
    expect(
      events.slice(1).map((e) => (e.type === 'OrderUpdated' ? [e.data.fingerprint, e.data.early] : null)),
    ).to.deep.equal([
      ['fs', true],
      ['fp', true],
    ]);
  });

  it('given an event parked longer than the early window, when created comes, then it is discarded as EXPIRED', () => {
    // Received when sent, four days before the created comes (`now`): longer than the 72-hour window.
    const old = webhook('UPDATED', t0 + 5, 'fo', { status: 'OLD' }, new Date(t0 + 10).toISOString());
    const parked = orderDecider.decide(old, fold(orderDecider, []));
    const events = orderDecider.decide(create, fold(orderDecider, parked));
    expect(events[1]).to.deep.equal({
      type: 'OrderEarlyEventDiscarded',
      data: {
        merchantId: 'm1',
        orderId: 'o1',
        fingerprint: 'fo',
        eventTimestamp: t0 + 5,
        reason: 'EXPIRED',
        discardedAt: now,
      },
    });
    // Discarded is forgotten: the same event sent again now applies.
    const state = fold(orderDecider, [...parked, ...events]);
    expect(orderDecider.decide(old, state).map((e) => e.type)).to.deep.equal(['OrderUpdated']);
  });

  it('given a parked update changing branch_id, when created comes, then it is discarded', () => {
    const parked = orderDecider.decide(webhook('UPDATED', t0 + 5, 'fbr', { branch_id: 'B9' }), fold(orderDecider, []));
    const events = orderDecider.decide(
      webhook('CREATED', t0, 'fc', { ...createdOrder, branch_id: 'B1' }),
      fold(orderDecider, parked),
    );
    expect(events[1]!.type === 'OrderEarlyEventDiscarded' && events[1]!.data.reason).to.equal(
      'IMMUTABLE_FIELD_CHANGED',
    );
  });

  it('given as many parked events as allowed, when one more comes, then TOO_MANY_EARLY_EVENTS', () => {
    let history: OrderEvent[] = [];
    for (const f of ['a', 'b', 'c'])
      history = [
        ...history,
        ...orderDecider.decide(webhook('UPDATED', t0, f, { status: f }), fold(orderDecider, history)),
      ];
    given(history)
      .when({ ...webhook('UPDATED', t0, 'd', { status: 'd' }), maxEarlyEvents: 3 })
      .thenRejects('TOO_MANY_EARLY_EVENTS', { limit: 3 });
  });

  it('given any order, when event_timestamp lies before the window or too far ahead of now, then EVENT_TIMESTAMP_OUT_OF_WINDOW', () => {
    const nowMs = Date.parse(now);
    given([])
      .when(webhook('CREATED', nowMs - 30 * 24 * hour - 1, 'fo', createdOrder))
      .thenRejects('EVENT_TIMESTAMP_OUT_OF_WINDOW', { field: 'event_timestamp' });
    given([created])
      .when(webhook('UPDATED', nowMs + 60_001, 'ff', { status: 'FUTURE' }))
      .thenRejects('EVENT_TIMESTAMP_OUT_OF_WINDOW', { field: 'event_timestamp' });
    // At the window's edges: accepted.
    given([])
      .when(webhook('CREATED', nowMs - 30 * 24 * hour, 'fe', createdOrder))
      .then([
        {
          type: 'OrderCreated',
          data: {
            ...received(webhook('CREATED', nowMs - 30 * 24 * hour, 'fe', createdOrder)),
            source,
            order: createdOrder,
          },
        },
      ]);
  });

  describe('any delivery order converges (property test over random permutations)', () => {
    const all: ReceiveOrderWebhook[] = [
      create,
      paid,
      shipped,
      cancel,
      webhook('UPDATED', t0 + 2000, 'fq', { status: 'TIE', amounts: { grand_total: 800 } }),
      webhook('UPDATED', t0 + 500, 'fe', {
        items: [{ item_id: 'i1', name: 'Car', quantity: 1, unit_price: 1, total_price: 1, currency: 'VND' }],
      }),
      webhook('UPDATED', t0 - 500, 'fold', { status: 'OLDER_THAN_CREATED', description: 'late' }),
      // In the created's millisecond, with a smaller fingerprint than the created's: an update comes after a created
      // of the same millisecond whatever the fingerprints (order-same-millisecond.test.ts tries every kind).
      webhook('UPDATED', t0, 'fa', { pnl_order_status: 'N2' }),
    ];
    /** A seeded generator, so a failure names the permutation that broke it. */
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
    const deliver = (sequence: ReceiveOrderWebhook[]) => {
      let history: OrderEvent[] = [];
      for (const w of sequence) history = [...history, ...orderDecider.decide(w, fold(orderDecider, history))];
      const state = fold(orderDecider, history);
      if (state.status !== 'CREATED') throw new Error('not created');
      return currentOrder(state.fields);
    };
    const expected = deliver(all);

    it('in order, the newest value of each field wins', () => {
      expect(expected.status).to.equal('CANCELLED');
      expect(expected.payment_status).to.equal('PAID');
      expect(expected.amounts).to.deep.equal({
        currency: 'VND',
        total_amount: 1000,
        grand_total: 800,
        paid_amount: 900,
      });
      expect(expected.description).to.equal('late'); // nothing newer set it
      expect(expected.pnl_order_status).to.equal('N2'); // the update in the created's millisecond
    });

    for (let seed = 1; seed <= 200; seed++) {
      it(`permutation ${seed}, each webhook sent twice, ends the same`, () => {
        const sequence = shuffled([...all, ...all], seed);
        expect(deliver(sequence)).to.deep.equal(expected);
      });
    }
  });
});

describe('order decider: one stream, one order', () => {
  it("refuses (as a bug) a command for another merchant's or order's stream", () => {
    expect(() => orderDecider.decide({ ...paid, merchantId: 'm2' }, fold(orderDecider, [created]))).to.throw(
      /m1\/o1 given a command for m2\/o1/,
    );
  });
});
