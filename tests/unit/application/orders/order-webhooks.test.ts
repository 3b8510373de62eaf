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
const created: OrderWebhook = {
  kind: 'CREATED',
  eventTimestamp: now - 60_000,
  orderId: 'ORD-1',
  source,
  order: { status: 'CREATED', amounts: { currency: 'VND', total_amount: 100_000, grand_total: 90_000 } },
  secureHash: 'not checked here',
};
const paid: OrderWebhook = {
  kind: 'UPDATED',
  eventTimestamp: now - 30_000,
  orderId: 'ORD-1',
  source,
  order: { payment_status: 'PAID' },
  secureHash: 'not checked here',
};

/** An in-memory store that counts the reads of each stream. */
class CountingStore extends InMemoryEventStore {
  readonly reads = new Map<string, number>();
  override async readStream(streamName: string, options?: { fromRevision?: number }) {
    this.reads.set(streamName, (this.reads.get(streamName) ?? 0) + 1);
    return super.readStream(streamName, options);
  }
}

function given(...webhooks: OrderWebhook[]) {
  const store = new CountingStore();
  const webhooksOf = new OrderWebhooks({
    store,
    clock: fixedClock(new Date(now)),
    limits: { earlyWindowMs: 3_600_000, maxEarlyEvents: 10, maxAgeMs: 86_400_000, maxFutureMs: 60_000 },
  });
  const receive = (webhook: OrderWebhook) =>
    webhooksOf.receive(newCommandContext({ actor: { merchantId: 'M1' } }), 'M1', webhook);
  return {
    async when(webhook: OrderWebhook) {
      for (const earlier of webhooks) await receive(earlier);
      store.reads.clear();
      const answer = await receive(webhook);
      return {
        answer,
        reads: store.reads.get(stream) ?? 0,
        types: (await store.readStream(stream)).map((e) => e.type),
      };
    },
  };
}

describe('OrderWebhooks: an order.created decided without reading its stream', () => {
  it('given no order, when its created comes, then it is recorded without a read of the stream', async () => {
    const { answer, reads, types } = await given().when(created);
    expect(answer.outcome).to.equal('CREATED');
    expect(reads).to.equal(0);
    expect(types).to.deep.equal(['OrderCreated']);
  });

  it('given an update parked before the created, when the created comes, then it reads once and applies the update', async () => {
    const { answer, reads, types } = await given(paid).when(created);
    expect(answer).to.include({ outcome: 'CREATED', earlyApplied: 1 });
    expect(reads).to.equal(1);
    expect(types).to.deep.equal(['OrderEventParked', 'OrderCreated', 'OrderUpdated']);
  });

  it('given a created, when the same created comes again, then it is a duplicate and nothing is appended', async () => {
    const { answer, types } = await given(created).when({ ...created, eventTimestamp: created.eventTimestamp + 1 });
    expect(answer.outcome).to.equal('DUPLICATE');
    expect(types).to.deep.equal(['OrderCreated']);
  });

  it('given an update, when it comes again, then the stream is read as before (only a created skips the read)', async () => {
    const { answer, reads } = await given(created, paid).when(paid);
    expect(answer.outcome).to.equal('DUPLICATE');
    expect(reads).to.equal(1);
  });
});
