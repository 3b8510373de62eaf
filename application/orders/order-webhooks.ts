/**
 * The three webhooks as commands on the order's aggregate (stream order-<merchantId>-<orderId>; docs/orders-ordering.md,
 * "Ordering"), through the write engine with the sender's X-Request-Id as the idempotency key (unique per
 * merchant): an identical resend gets the first answer, another request under the id is refused. Each webhook claims
 * its secure_hash in the same append (webhook-signatures.ts). The answer is built from the events the command
 * appended, never from a read model.
 */
import { createHash } from 'node:crypto';
import { isKnownOrderType, type OrderEvent, type OrderFieldKey, type WebhookKind } from '../../domain/orders/index.js';
import { canonicalJson } from '../../domain/shared/canonical-json.js';
import { BoundedCache } from '../shared/bounded-cache.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { KnownEvent } from '../shared/aggregate.js';
import type { EventStore } from '../shared/event-store.js';
import { ordersAggregates } from './aggregates.js';
import { PerKeyQueue } from './per-order-queue.js';
import type { SignedWebhook } from './secure-hash.js';
import { signatureClaims } from './webhook-signatures.js';

/** A webhook as its interface parsed it (api/orders/webhook-schemas.ts). */
export interface OrderWebhook extends SignedWebhook {
  secureHash: string;
}

/** What became of a webhook. */
export type WebhookOutcome =
  /** order.created recorded (with `earlyApplied` events that had waited for it). */
  | 'CREATED'
  /** an update or cancellation set at least one field. */
  | 'APPLIED'
  /** older than what the order shows for every field it sends: kept in its history, nothing shown changed. */
  | 'STALE'
  /** before its order.created: kept, applied when the created comes (within the early window). */
  | 'PARKED'
  /** the order has this event already: nothing changed. */
  | 'DUPLICATE';

export interface WebhookAnswer {
  orderId: string;
  event: WebhookKind;
  outcome: WebhookOutcome;
  appliedFields: OrderFieldKey[];
  staleFields: OrderFieldKey[];
  /** Early events this created applied (or discarded), in event_timestamp order. */
  earlyApplied: number;
  earlyDiscarded: number;
  /** Things accepted but worth the sender's attention (an order_type not among the named ones). */
  warnings: string[];
}

export interface WebhookLimits {
  /** How long an early event waits for its created. */
  earlyWindowMs: number;
  maxEarlyEvents: number;
  /** event_timestamp may lie at most this far in the past, and this far ahead of the clock. */
  maxAgeMs: number;
  maxFutureMs: number;
}

/**
 * What tells a repeat from a new event: the kind and content of the webhook, without its secure_hash; for a created
 * without its event_timestamp too (one created per order: a resend with a fresh timestamp is a repeat), while an
 * update's timestamp is part of what it says (A, then B, then A again are three changes).
 */
export function webhookFingerprint(webhook: SignedWebhook): string {
  const { kind, orderId, source, order, eventTimestamp } = webhook;
  const content = { kind, orderId, source, order, ...(kind !== 'CREATED' && { eventTimestamp }) };
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}

export class OrderWebhooks {
  private readonly queue = new PerKeyQueue();
  /**
   * The streams of the orders this process wrote last (5000), as it wrote them: the next webhook of such an order is
   * decided on them without a read (docs/orders-ordering.md, "Concurrency"). Another process writing the same order
   * makes them stale, which costs that webhook a conflict and a read, never a wrong answer.
   */
  private readonly known = new BoundedCache<string, readonly KnownEvent[]>(5_000);
  private readonly orders;

  constructor(private readonly deps: { store: EventStore; clock: Clock; limits: WebhookLimits }) {
    this.orders = ordersAggregates(deps).order;
  }

  async receive(context: CommandContext, merchantId: string, webhook: OrderWebhook): Promise<WebhookAnswer> {
    const { limits } = this.deps;
    const fingerprint = webhookFingerprint(webhook);
    const id = { merchantId, orderId: webhook.orderId };
    const streamName = this.orders.streamName(id);
    const { events } = await this.queue.run(streamName, async () => {
      const command = (now: string) => ({
        type: 'ReceiveOrderWebhook' as const,
        kind: webhook.kind,
        merchantId,
        orderId: webhook.orderId,
        eventTimestamp: webhook.eventTimestamp,
        fingerprint,
        requestId: context.requestId ?? context.commandId,
        order: webhook.order,
        ...(webhook.source && { source: webhook.source }),
        now,
        earlyWindowMs: limits.earlyWindowMs,
        maxEarlyEvents: limits.maxEarlyEvents,
        maxAgeMs: limits.maxAgeMs,
        maxFutureMs: limits.maxFutureMs,
      });
      // The order as this process last wrote it; else, for an order.created, a stream that is nearly always not
      // there yet. Either is decided on without a read; when the stream holds more (a repeat, updates that came first
      // and were parked, another process's writes), the append's expected version fails and the engine reads the
      // stream and decides again (docs/orders-ordering.md, "Concurrency").
      const recorded = this.known.get(streamName) ?? (webhook.kind === 'CREATED' ? [] : undefined);
      const result = await this.orders.handle(context, id, command, {
        ...(recorded && { recorded }),
        // The secure_hash binds this webhook only: the same one again finds its claim, other content is refused.
        claims: (decided) => signatureClaims(merchantId, webhook.secureHash, decided),
        keepRecorded: true,
      });
      if (result.recorded) this.known.set(streamName, result.recorded);
      else this.known.delete(streamName);
      return result;
    });
    return answerOf(webhook, events);
  }
}

function answerOf(webhook: OrderWebhook, events: readonly OrderEvent[]): WebhookAnswer {
  const warnings =
    webhook.order.order_type !== undefined && !isKnownOrderType(webhook.order.order_type)
      ? [`order_type ${webhook.order.order_type} is not one of the named product types; accepted and flagged`]
      : [];
  const answer: WebhookAnswer = {
    orderId: webhook.orderId,
    event: webhook.kind,
    outcome: 'DUPLICATE',
    appliedFields: [],
    staleFields: [],
    earlyApplied: 0,
    earlyDiscarded: 0,
    warnings,
  };
  const [first, ...rest] = events;
  if (!first) return answer;
  switch (first.type) {
    case 'OrderCreated':
      return {
        ...answer,
        outcome: 'CREATED',
        earlyApplied: rest.filter((e) => e.type !== 'OrderEarlyEventDiscarded').length,
        earlyDiscarded: rest.filter((e) => e.type === 'OrderEarlyEventDiscarded').length,
      };
    case 'OrderEventParked':
      return { ...answer, outcome: 'PARKED' };
    case 'OrderUpdated':
    case 'OrderCancelled':
      return {
        ...answer,
        outcome: first.data.applied.length > 0 || first.data.stale.length === 0 ? 'APPLIED' : 'STALE',
        appliedFields: first.data.applied,
        staleFields: first.data.stale,
      };
    case 'OrderEarlyEventDiscarded':
      throw new Error('a webhook decided a discard first');
  }
}
