/**
 * What an update or a cancellation may change (docs/orders-fields.md, "What an update may change"): the fields
 * order.created fixes (business_unit_id, branch_id, seller_merchant_id, customer, deeplink) may be repeated, never
 * changed or added; and the claim each decided webhook makes of its secure_hash (domain/orders/order-signature.ts).
 */
import { expect } from 'chai';
import { fold } from '../../../../domain/shared/decider.js';
import type { OrderEvent } from '../../../../domain/orders/events.js';
import { orderDecider, type ReceiveOrderWebhook } from '../../../../domain/orders/order.js';
import type { OrderChanges } from '../../../../domain/orders/order-fields.js';
import { orderSignatureClaimed, signedWebhookIdentity } from '../../../../domain/orders/order-signature.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(orderDecider);
const now = '2026-03-01T10:00:00.000Z';
const t0 = Date.parse(now) - 3_600_000;
const hour = 3_600_000;
const source = { created_by: 'u1', platform_code: 'HOST', miniapp_id: 'app1' };

const createdOrder: OrderChanges = {
  order_type: 'CAR_PURCHASE',
  status: 'NEW',
  pnl_order_status: 'N1',
  payment_status: 'UNPAID',
  business_unit_id: 'BU1',
  seller_merchant_id: 'SELLER-1',
  deeplink: 'superapp://orders/o1',
  customer: { customer_id: 'u1', name: 'An', phone: '0901234567' },
  amounts: { currency: 'VND', total_amount: 1000, grand_total: 900 },
};

const webhook = (
  kind: ReceiveOrderWebhook['kind'],
  eventTimestamp: number,
  fingerprint: string,
  order: OrderChanges,
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
  now,
  earlyWindowMs: 72 * hour,
  maxEarlyEvents: 50,
  maxAgeMs: 72 * hour,
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

describe('order decider: what an update may change (docs/orders-fields.md)', () => {
  const changes: [string, OrderChanges][] = [
    ['customer (another user)', { customer: { customer_id: 'attacker', name: 'An', phone: '0901234567' } }],
    ['customer (another phone)', { customer: { customer_id: 'u1', name: 'An', phone: '0999999999' } }],
    ['deeplink', { deeplink: 'https://phishing.example/login' }],
    ['seller_merchant_id', { seller_merchant_id: 'SELLER-2' }],
    ['branch_id (the created sent none)', { branch_id: 'BR-9' }],
  ];
  const named = { UPDATED: 'an update', CANCELLED: 'a cancellation' } as const;
  for (const kind of ['UPDATED', 'CANCELLED'] as const)
    for (const [name, change] of changes) {
      const field = `order.${Object.keys(change)[0]!}`;
      it(`given a created order, when ${named[kind]} changes ${name}, then ORDER_FIELD_IMMUTABLE naming ${field}`, () => {
        given([created])
          .when(webhook(kind, t0 + 1000, 'fchg', { status: 'PAID', ...change }))
          .thenRejects('ORDER_FIELD_IMMUTABLE', { field });
      });
    }

  it('given a created order, when an update repeats customer (keys in another order) and deeplink, then only its other fields are set', () => {
    const same = webhook('UPDATED', t0 + 1000, 'fsame', {
      status: 'PAID',
      customer: { phone: '0901234567', name: 'An', customer_id: 'u1' },
      deeplink: 'superapp://orders/o1',
      seller_merchant_id: 'SELLER-1',
    });
    given([created])
      .when(same)
      .then([
        {
          type: 'OrderUpdated',
          data: { ...received(same), order: same.order, applied: ['status'], stale: [], early: false },
        },
      ]);
  });

  it('given an early update changing the customer, when the created comes, then it is discarded (IMMUTABLE_FIELD_CHANGED)', () => {
    const early = webhook('UPDATED', t0 + 1000, 'fearly', { customer: { customer_id: 'attacker', name: 'X' } });
    const parked = orderDecider.decide(early, fold(orderDecider, []));
    const events = orderDecider.decide(create, fold(orderDecider, parked));
    expect(events.map((e) => e.type)).to.deep.equal(['OrderCreated', 'OrderEarlyEventDiscarded']);
    expect(events[1]!.type === 'OrderEarlyEventDiscarded' && events[1]!.data.reason).to.equal(
      'IMMUTABLE_FIELD_CHANGED',
    );
  });
});

describe('order signature claims (domain/orders/order-signature.ts)', () => {
  it('a decided webhook claims its secure_hash with its kind, event_timestamp and fingerprint', () => {
    const update = webhook('UPDATED', t0 + 1000, 'fu', { status: 'PAID' });
    const [decided] = orderDecider.decide(update, fold(orderDecider, [created]));
    expect(orderSignatureClaimed(decided!)).to.deep.equal({
      type: 'OrderSignatureClaimed',
      data: {
        merchantId: 'm1',
        orderId: 'o1',
        kind: 'UPDATED',
        eventTimestamp: t0 + 1000,
        fingerprint: 'fu',
        claimedAt: now,
      },
    });
    const [parked] = orderDecider.decide(webhook('CANCELLED', t0 + 2000, 'fx', {}), fold(orderDecider, []));
    expect(orderSignatureClaimed(parked!)!.data).to.include({ kind: 'CANCELLED', fingerprint: 'fx' });
  });

  it('the same webhook is the same identity; another endpoint, body or event_timestamp under the hash is not', () => {
    const claim = (kind: ReceiveOrderWebhook['kind'], at: number, fingerprint: string) =>
      signedWebhookIdentity({ merchantId: 'm1', orderId: 'o1', kind, eventTimestamp: at, fingerprint, claimedAt: now });
    expect(claim('UPDATED', t0, 'a')).to.equal(claim('UPDATED', t0, 'a'));
    expect(claim('UPDATED', t0, 'a')).not.to.equal(claim('CANCELLED', t0, 'a'));
    expect(claim('UPDATED', t0, 'a')).not.to.equal(claim('UPDATED', t0, 'b'));
    expect(claim('CREATED', t0, 'a')).not.to.equal(claim('CREATED', t0 + 1, 'a'));
  });
});
