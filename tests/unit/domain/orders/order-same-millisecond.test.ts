import { expect } from 'chai';
import fc from 'fast-check';
import { fold } from '../../../../domain/shared/decider.js';
import type { OrderEvent } from '../../../../domain/orders/events.js';
import { currentOrder, orderDecider, type ReceiveOrderWebhook } from '../../../../domain/orders/order.js';
import type { OrderChanges } from '../../../../domain/orders/order-fields.js';

/**
 * Events of one order in the same millisecond (docs/orders-ordering.md, "Ordering"): ties of event_timestamp are broken
 * by the kind, created < updated < cancelled, then by the fingerprint (a hash of the content), so any delivery order
 * ends in the same order, and that order is the one the kinds say, whatever the fingerprints.
 *
 * Only pairs a sender can sign apart in one millisecond (docs/orders-signing.md, "One signature, one webhook"): a
 * created with an update or a cancellation, and updates with amounts; never an update without amounts with a
 * cancellation (they sign the same string, the second is refused 4014).
 */
const now = '2026-03-01T10:00:00.000Z';
const t = Date.parse(now) - 60_000;

const createdOrder: OrderChanges = {
  order_type: 'CAR_PURCHASE',
  status: 'NEW',
  pnl_order_status: 'N1',
  payment_status: 'UNPAID',
  customer: { customer_id: 'u1', name: 'An' },
  amounts: { currency: 'VND', total_amount: 1000, grand_total: 1000 },
};

const webhook = (
  kind: ReceiveOrderWebhook['kind'],
  fingerprint: string,
  order: OrderChanges,
  eventTimestamp = t,
): ReceiveOrderWebhook => ({
  type: 'ReceiveOrderWebhook',
  kind,
  merchantId: 'm1',
  orderId: 'o1',
  eventTimestamp,
  fingerprint,
  requestId: `r-${fingerprint}`,
  order,
  ...(kind === 'CREATED' && { source: { created_by: 'u1', platform_code: 'HOST', miniapp_id: 'app1' } }),
  now,
  earlyWindowMs: 72 * 3_600_000,
  maxEarlyEvents: 50,
  maxAgeMs: 72 * 3_600_000,
  maxFutureMs: 300_000,
});

/** The order after the webhooks are delivered in this sequence. */
function deliver(sequence: readonly ReceiveOrderWebhook[]): OrderChanges {
  let history: OrderEvent[] = [];
  for (const w of sequence) history = [...history, ...orderDecider.decide(w, fold(orderDecider, history))];
  const state = fold(orderDecider, history);
  if (state.status !== 'CREATED') throw new Error('not created');
  return currentOrder(state.fields);
}

const hex = fc.stringMatching(/^[0-9a-f]{64}$/);

/**
 * A created, updates with amounts, and either a cancellation or an update without amounts (or neither), all in one
 * millisecond, with an update a millisecond later and one a millisecond earlier.
 */
function sameMillisecond(s: {
  fingerprints: string[];
  closing: 'CANCELLED' | 'UPDATED' | 'NONE';
  secondAmounts: boolean;
}) {
  const [fCreated, fPaid, fPaid2, fClosing, fLater, fEarlier, fFee] = s.fingerprints as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const paid = webhook('UPDATED', fPaid, {
    payment_status: 'PAID',
    amounts: { total_amount: 1000, grand_total: 900, paid_amount: 900 },
  });
  const paid2 = webhook('UPDATED', fPaid2, {
    payment_status: 'PAID',
    amounts: { total_amount: 1000, grand_total: 800, paid_amount: 800 },
  });
  const all = [
    webhook('CREATED', fCreated, createdOrder),
    paid,
    ...(s.secondAmounts ? [paid2] : []),
    ...(s.closing === 'CANCELLED' ? [webhook('CANCELLED', fClosing, {})] : []),
    ...(s.closing === 'UPDATED' ? [webhook('UPDATED', fClosing, { status: 'CONFIRMED' })] : []),
    webhook('UPDATED', fLater, { description: 'a millisecond later' }, t + 1),
    webhook('UPDATED', fEarlier, { status: 'OLDER', description: 'earlier' }, t - 1),
    webhook('UPDATED', fFee, { fees: [{ fee_code: 'SHIP', amount: 30 }] }),
  ];
  return { all, paid, paid2 };
}

describe('order decider: events in the same millisecond (docs/orders-ordering.md, "Ordering")', () => {
  it('created and cancelled in one millisecond, either first, either fingerprint greater: CANCELLED', () => {
    fc.assert(
      fc.property(hex, hex, fc.boolean(), (fc1, fc2, cancelFirst) => {
        const create = webhook('CREATED', fc1, createdOrder);
        const cancel = webhook('CANCELLED', fc2, {});
        expect(deliver(cancelFirst ? [cancel, create] : [create, cancel]).status).to.equal('CANCELLED');
      }),
      { numRuns: 200 },
    );
  });

  it('an update in the millisecond of its creation, either first, either fingerprint greater: the update shows', () => {
    fc.assert(
      fc.property(hex, hex, fc.boolean(), (fc1, fc2, updateFirst) => {
        const create = webhook('CREATED', fc1, createdOrder);
        const update = webhook('UPDATED', fc2, { status: 'CONFIRMED', pnl_order_status: 'N2' });
        const order = deliver(updateFirst ? [update, create] : [create, update]);
        expect([order.status, order.pnl_order_status]).to.deep.equal(['CONFIRMED', 'N2']);
      }),
      { numRuns: 200 },
    );
  });

  /**
   * The property of convergence with equal timestamps (sameMillisecond), every fingerprint random, each webhook
   * delivered twice in a random order: the order is the one the rule gives.
   */
  it('any delivery order of same-millisecond webhooks (each twice, random fingerprints) ends as the rule says', () => {
    const scenario = fc
      .record({
        fingerprints: fc.uniqueArray(hex, { minLength: 7, maxLength: 7 }),
        closing: fc.constantFrom('CANCELLED', 'UPDATED', 'NONE'),
        secondAmounts: fc.boolean(),
      })
      .chain((s) => {
        const webhooks = sameMillisecond(s);
        const twice = [...webhooks.all, ...webhooks.all];
        return fc
          .shuffledSubarray(twice, { minLength: twice.length, maxLength: twice.length })
          .map((sequence) => ({ ...s, ...webhooks, sequence }));
      });
    fc.assert(
      fc.property(scenario, ({ closing, secondAmounts, paid, paid2, sequence }) => {
        // Two updates with amounts in one millisecond: the greater fingerprint's (a stable order, not a kind's).
        const amountsWinner = secondAmounts && paid2.fingerprint > paid.fingerprint ? paid2 : paid;
        const order = deliver(sequence);
        expect(order.status).to.equal(
          closing === 'CANCELLED' ? 'CANCELLED' : closing === 'UPDATED' ? 'CONFIRMED' : 'NEW',
        );
        expect(order.payment_status).to.equal('PAID');
        expect(order.amounts).to.deep.equal({ currency: 'VND', ...amountsWinner.order.amounts });
        expect(order.description).to.equal('a millisecond later');
        expect(order.fees).to.deep.equal([{ fee_code: 'SHIP', amount: 30 }]);
        expect(order.pnl_order_status).to.equal('N1');
      }),
      { numRuns: 300 },
    );
  });
});
