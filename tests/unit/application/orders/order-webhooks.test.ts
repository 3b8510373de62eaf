/**
 * OrderWebhooks decides an order.created without reading the order's stream (docs/orders-ordering.md,
 * "Concurrency"); where the stream is there after all, the failed append makes it read and decide again, so the
 * answers are those a read would have given.
 */
import { expect } from 'chai';
import { OrderWebhooks, type OrderWebhook } from '../../../../application/orders/order-webhooks.js';
import { fixedClock } from '../../../../application/shared/clock.js';
import { newCommandContext } from '../../../../application/shared/command-context.js';
import { InMemoryEventStore } from '../../../../infrastructure/shared/eventstore/in-memory-event-store.js';

const now = Date.parse('2026-11-27T06:00:00Z');
const stream = 'order-M1-ORD-1';
const source = { created_by: 'u1', platform_code: 'HOSTAPP', miniapp_id: 'mini' };
const webhook = (kind: OrderWebhook['kind'], secondsBefore: number, order: OrderWebhook['order']): OrderWebhook => ({
  kind,
  eventTimestamp: now - secondsBefore * 1000,
  orderId: 'ORD-1',
  source,
  order,
  // Not checked here, but claimed: each webhook has its own, as HMACs of different strings are.
  secureHash: `${kind}-${secondsBefore}`.padEnd(64, '0'),
});
const created = webhook('CREATED', 60, {
  status: 'CREATED',
  amounts: { currency: 'VND', total_amount: 100_000, grand_total: 90_000 },
});
const paid = webhook('UPDATED', 30, { payment_status: 'PAID' });
const cancelled = webhook('CANCELLED', 10, { status: 'CANCELLED' });

/** An in-memory store that counts the reads of each stream. */
class CountingStore extends InMemoryEventStore {
  readonly reads = new Map<string, number>();
  override async readStream(streamName: string, options?: { fromRevision?: number }) {
    this.reads.set(streamName, (this.reads.get(streamName) ?? 0) + 1);
    return super.readStream(streamName, options);
  }
}

/** Two processes' OrderWebhooks on one store: `here` and `there`. */
function given(...earlier: ['here' | 'there', OrderWebhook][]) {
  const store = new CountingStore();
  const process = () =>
    new OrderWebhooks({
      store,
      clock: fixedClock(new Date(now)),
      limits: { earlyWindowMs: 3_600_000, maxEarlyEvents: 10, maxAgeMs: 86_400_000, maxFutureMs: 60_000 },
    });
  const processes = { here: process(), there: process() };
  const receive = (where: 'here' | 'there', webhook: OrderWebhook) =>
    processes[where].receive(newCommandContext({ actor: { merchantId: 'M1' } }), 'M1', webhook);
  return {
    async when(webhook: OrderWebhook) {
      for (const [where, w] of earlier) await receive(where, w);
      store.reads.clear();
      const answer = await receive('here', webhook);
      return {
        answer,
        reads: store.reads.get(stream) ?? 0,
        types: (await store.readStream(stream)).map((e) => e.type),
      };
    },
  };
}

describe('OrderWebhooks: decided on what this process knows of the order, without a read', () => {
  it('given no order, when its created comes, then it is recorded without a read of the stream', async () => {
    const { answer, reads, types } = await given().when(created);
    expect(answer.outcome).to.equal('CREATED');
    expect(reads).to.equal(0);
    expect(types).to.deep.equal(['OrderCreated']);
  });

  it('given a created this process recorded, when an update comes, then it applies without a read', async () => {
    const { answer, reads, types } = await given(['here', created]).when(paid);
    expect(answer).to.include({ outcome: 'APPLIED' });
    expect(reads).to.equal(0);
    expect(types).to.deep.equal(['OrderCreated', 'OrderUpdated']);
  });

  it('given an update another process parked, when the created comes, then it reads once and applies the update', async () => {
    const { answer, reads, types } = await given(['there', paid]).when(created);
    expect(answer).to.include({ outcome: 'CREATED', earlyApplied: 1 });
    expect(reads).to.equal(1);
    expect(types).to.deep.equal(['OrderEventParked', 'OrderCreated', 'OrderUpdated']);
  });

  it('given an update another process recorded after ours, when a cancellation comes, then it reads once and sees both', async () => {
    const { answer, reads, types } = await given(['here', created], ['there', paid]).when(cancelled);
    expect(answer.outcome).to.equal('APPLIED');
    expect(reads).to.equal(1);
    expect(types).to.deep.equal(['OrderCreated', 'OrderUpdated', 'OrderCancelled']);
  });

  it('given a created, when the same created comes again, then it is a duplicate, decided on the stream as read', async () => {
    const { answer, reads, types } = await given(['here', created]).when({
      ...created,
      eventTimestamp: created.eventTimestamp + 1,
    });
    expect(answer.outcome).to.equal('DUPLICATE');
    expect(reads).to.equal(1);
    expect(types).to.deep.equal(['OrderCreated']);
  });

  it('given a created, when one with other content comes, then it is refused on the stream as read', async () => {
    const other = { ...created, order: { ...created.order, status: 'PAID' } };
    const refusal = await given(['here', created])
      .when(other)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refusal).to.have.property('code', 'ORDER_ALREADY_CREATED');
  });
});

describe('OrderWebhooks: a secure_hash claimed by its first webhook (docs/orders-signing.md)', () => {
  it('given an update recorded, when other content comes under its secure_hash, then SECURE_HASH_REUSED and nothing is appended', async () => {
    for (const other of [
      { ...paid, order: { payment_status: 'REFUNDED' } },
      { ...paid, kind: 'CANCELLED' as const, order: {} },
      { ...paid, orderId: 'ORD-2' },
    ]) {
      const store = new InMemoryEventStore();
      const webhooks = new OrderWebhooks({
        store,
        clock: fixedClock(new Date(now)),
        limits: { earlyWindowMs: 3_600_000, maxEarlyEvents: 10, maxAgeMs: 86_400_000, maxFutureMs: 60_000 },
      });
      const receive = (w: OrderWebhook) =>
        webhooks.receive(newCommandContext({ actor: { merchantId: 'M1' } }), 'M1', w);
      await receive(created);
      await receive(paid);
      const before = (await store.readAll(null, 1000)).length;
      const refusal = await receive(other).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).to.have.property('code', 'SECURE_HASH_REUSED');
      expect((await store.readAll(null, 1000)).length).to.equal(before);
      // The claimed webhook itself, again under a new request: a repeat, as before.
      expect((await receive(paid)).outcome).to.equal('DUPLICATE');
    }
  });
});
