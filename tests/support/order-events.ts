/**
 * An order.created as the event store records it, for tests and bench:orders that feed the orders projector directly
 * (docs/orders-read-models.md, "Benchmark"): the OrderCreated the order's own decider decides for the webhook
 * (fingerprint and all), with an id, its stream, revision 0 and the global position given.
 */
import { randomUUID } from 'node:crypto';
import { webhookFingerprint } from '../../application/orders/index.js';
import { orderDecider, type OrderChanges, type OrderCreated, type OrderSource } from '../../domain/orders/index.js';
import type { ProjectedEvent } from '../../projections/shared/projector.js';

export interface RecordedCreatedInput {
  merchantId: string;
  orderId: string;
  eventTimestamp: number;
  order: OrderChanges;
  source?: OrderSource;
  position: string;
  /** When the service received it (default: event_timestamp). */
  receivedAt?: string;
}

export function recordedCreated(input: RecordedCreatedInput): ProjectedEvent {
  const { merchantId, orderId, eventTimestamp, order } = input;
  const source = input.source ?? { created_by: 'u', platform_code: 'HOSTAPP', miniapp_id: 'mini' };
  const receivedAt = input.receivedAt ?? new Date(eventTimestamp).toISOString();
  const [event] = orderDecider.decide(
    {
      type: 'ReceiveOrderWebhook',
      kind: 'CREATED',
      merchantId,
      orderId,
      eventTimestamp,
      fingerprint: webhookFingerprint({ kind: 'CREATED', eventTimestamp, orderId, source, order }),
      requestId: randomUUID(),
      order,
      source,
      now: receivedAt,
      earlyWindowMs: 3_600_000,
      maxEarlyEvents: 10,
      maxAgeMs: 3_600_000,
      maxFutureMs: 60_000,
    },
    orderDecider.initialState,
  ) as [OrderCreated];
  return {
    id: randomUUID(),
    streamName: `order-${merchantId}-${orderId}`,
    type: event.type,
    schemaVersion: 1,
    data: event.data,
    metadata: { occurredAt: receivedAt, requestId: event.data.requestId },
    revision: 0,
    position: input.position,
    recordedAt: receivedAt,
  };
}
